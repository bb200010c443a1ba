package dashboard_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/tatib/tatib/server/internal/violation/vltest"
	"github.com/tatib/tatib/shared/perm"
)

// The failed parent messages are counted for whoever may retry them
// (parent_messages.manage); everyone else gets null.
func TestDashboardParentMessagesFailed(t *testing.T) {
	t.Parallel()
	s := vltest.New(t)
	budi := s.Student("Budi Santoso", "0051234567", "2401", s.ClassA)
	s.Env.DB.MustExec(`INSERT INTO parent_messages (student_id, event, body, status)
		VALUES ($1, 'violation', 'x', 'failed'), ($1, 'violation', 'x', 'failed'), ($1, 'violation', 'x', 'sent')`, budi)
	for _, c := range []struct {
		role perm.Role
		want any
	}{{perm.BK, float64(2)}, {perm.Admin, float64(2)}, {perm.KepalaSekolah, nil}, {perm.WaliKelas, nil}} {
		var raw map[string]any
		res := s.Env.As(c.role).Do("GET", "/api/v1/dashboard", nil).Want(http.StatusOK)
		if err := json.Unmarshal(res.Body, &raw); err != nil {
			t.Fatal(err)
		}
		got, ok := raw["parent_messages_failed"]
		if !ok || got != c.want {
			t.Errorf("%s: parent_messages_failed %v (present %v), want %v", c.role, got, ok, c.want)
		}
	}
}
