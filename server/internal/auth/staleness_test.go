package auth_test

import (
	"context"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/server/internal/auth"
	"github.com/tatib/tatib/shared/perm"
)

// A permission withdrawn on another replica whose announcement never
// arrives (the listener cut, a pooler) stops working here within
// PermissionTTL (issue 25: 150 s measured and still 200).
func TestPermissionStalenessBounded(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	s := newService(env, auth.Options{})
	var clock atomic.Int64
	clock.Store(time.Date(2026, 11, 2, 3, 0, 0, 0, time.UTC).UnixNano())
	auth.SetClock(s, func() time.Time { return time.Unix(0, clock.Load()) })
	ctx := context.Background()
	has := func() bool {
		t.Helper()
		p, err := s.Permissions(ctx, perm.BK)
		if err != nil {
			t.Fatal(err)
		}
		return slices.Contains(p, perm.ViolationsView)
	}
	if !has() {
		t.Fatal("bk cannot view violations to begin with")
	}
	// Another replica takes it away; no NOTIFY reaches this one.
	if _, err := env.DB.Exec(`INSERT INTO role_permissions (role, permission, granted) VALUES ('bk', $1, false)
		ON CONFLICT (role, permission) DO UPDATE SET granted = false`, string(perm.ViolationsView)); err != nil {
		t.Fatal(err)
	}
	if !has() {
		t.Fatal("the cache was not used (the test would prove nothing)")
	}
	clock.Add(int64(auth.PermissionTTL))
	if has() {
		t.Fatalf("still granted %v after the change", auth.PermissionTTL)
	}
}
