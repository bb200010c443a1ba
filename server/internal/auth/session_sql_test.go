package auth

import (
	"strings"
	"testing"

	"github.com/tatib/tatib/server/internal/pg/pgtest"
)

// The function session_principal (migration 00197) runs sessionSQL: a
// change of one without the other is a new migration forgotten.
func TestSessionFunctionIsSessionSQL(t *testing.T) {
	db := pgtest.New(t)
	var src string
	if err := db.Get(&src, `SELECT prosrc FROM pg_proc WHERE proname = 'session_principal'`); err != nil {
		t.Fatal(err)
	}
	if norm := func(s string) string { return strings.Join(strings.Fields(s), " ") }; !strings.Contains(norm(src), norm(sessionSQL)+";") {
		t.Fatalf("session_principal does not run sessionSQL; replace it in a new migration:\n%s", src)
	}
}
