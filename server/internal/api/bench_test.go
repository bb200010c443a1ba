package api_test

import (
	"testing"

	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/shared/perm"
)

// BenchmarkAuthenticatedRequest measures one signed-in round trip through
// the whole stack: session lookup, permission check, handler, JSON.
func BenchmarkAuthenticatedRequest(b *testing.B) {
	env := apitest.New(b)
	id, _ := env.CreateUser(perm.Admin)
	c := env.Session(id, perm.Admin)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		c.Do("GET", "/api/v1/users?per_page=20", nil).Want(200)
	}
}
