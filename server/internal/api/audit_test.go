package api_test

import (
	"context"
	"testing"

	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/shared/perm"
)

// TestAuditLogActorDisplayName: each entry names the actor as people know
// them (users.name), not only by username; an entry without a user (the
// system) falls back to actor_name.
func TestAuditLogActorDisplayName(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	admin := env.As(perm.Admin)
	var username, name string
	if err := env.DB.QueryRowxContext(context.Background(), `SELECT username, name FROM users WHERE id = $1`, admin.UserID).Scan(&username, &name); err != nil {
		t.Fatal(err)
	}
	if err := audit.Record(context.Background(), env.DB, audit.Actor{ID: admin.UserID, Name: username}, "user.update", "user", "1", nil); err != nil {
		t.Fatal(err)
	}
	if err := audit.Record(context.Background(), env.DB, audit.Actor{Name: "system"}, "student_sync.run", "student_sync", "1", nil); err != nil {
		t.Fatal(err)
	}

	var page struct {
		Data []struct {
			ActorID          *int64 `json:"actor_id"`
			ActorName        string `json:"actor_name"`
			ActorDisplayName string `json:"actor_display_name"`
			Action           string `json:"action"`
		} `json:"data"`
	}
	admin.Do("GET", "/api/v1/audit-log?per_page=100", nil).Want(200).JSON(&page)
	seen := map[string]bool{}
	for _, e := range page.Data {
		switch e.Action {
		case "user.update":
			if e.ActorName != username || e.ActorDisplayName != name || name == username {
				t.Errorf("user entry: actor_name %q, actor_display_name %q, want %q, %q", e.ActorName, e.ActorDisplayName, username, name)
			}
		case "student_sync.run":
			if e.ActorID != nil || e.ActorDisplayName != "system" {
				t.Errorf("system entry: actor_id %v, actor_display_name %q, want nil, system", e.ActorID, e.ActorDisplayName)
			}
		}
		seen[e.Action] = true
	}
	if !seen["user.update"] || !seen["student_sync.run"] {
		t.Fatalf("entries missing: %v", seen)
	}
}
