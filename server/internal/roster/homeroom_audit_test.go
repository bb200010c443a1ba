package roster_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/tatib/tatib/server/internal/roster"
	"github.com/tatib/tatib/shared/perm"
)

// TestHomeroomTeacherAuditNames: the audit entry of a homeroom teacher
// change names the teachers (before and after), not only their user ids,
// so the log reads without looking people up.
func TestHomeroomTeacherAuditNames(t *testing.T) {
	t.Parallel()
	f := setup(t, 4)
	f.Sync()
	var classes struct {
		Data []roster.Class `json:"data"`
	}
	f.Admin.Do("GET", "/api/v1/classes", nil).Want(200).JSON(&classes)
	if len(classes.Data) == 0 {
		t.Fatal("no classes")
	}
	class := classes.Data[0].ID
	path := fmt.Sprintf("/api/v1/classes/%d", class)
	first, _ := f.Env.CreateUser(perm.WaliKelas)
	second, _ := f.Env.CreateUser(perm.WaliKelas)
	name := func(id int64) string {
		var n string
		if err := f.Env.DB.Get(&n, `SELECT name FROM users WHERE id = $1`, id); err != nil {
			t.Fatal(err)
		}
		return n
	}
	type details struct {
		Before  *int64 `json:"before"`
		After   *int64 `json:"after"`
		Teacher struct {
			From *string `json:"from"`
			To   *string `json:"to"`
		} `json:"teacher"`
	}
	last := func() details {
		var raw []byte
		if err := f.Env.DB.Get(&raw, `SELECT details FROM audit_log WHERE action = 'class.homeroom_teacher.update' AND entity_id = $1
			ORDER BY id DESC LIMIT 1`, fmt.Sprint(class)); err != nil {
			t.Fatal(err)
		}
		var d details
		if err := json.Unmarshal(raw, &d); err != nil {
			t.Fatal(err)
		}
		return d
	}
	str := func(p *string) string {
		if p == nil {
			return "<nil>"
		}
		return *p
	}
	f.Admin.Do("PATCH", path, map[string]any{"homeroom_teacher_id": first}).Want(200)
	if d := last(); d.Before != nil || d.After == nil || *d.After != first || d.Teacher.From != nil || str(d.Teacher.To) != name(first) {
		t.Errorf("assign: %+v, teacher %s -> %s", d, str(d.Teacher.From), str(d.Teacher.To))
	}
	f.Admin.Do("PATCH", path, map[string]any{"homeroom_teacher_id": second}).Want(200)
	if d := last(); d.Before == nil || *d.Before != first || d.After == nil || *d.After != second ||
		str(d.Teacher.From) != name(first) || str(d.Teacher.To) != name(second) {
		t.Errorf("change: %+v, teacher %s -> %s", d, str(d.Teacher.From), str(d.Teacher.To))
	}
	f.Admin.Do("PATCH", path, map[string]any{"homeroom_teacher_id": nil}).Want(200)
	if d := last(); d.Before == nil || *d.Before != second || d.After != nil || str(d.Teacher.From) != name(second) || d.Teacher.To != nil {
		t.Errorf("remove: %+v, teacher %s -> %s", d, str(d.Teacher.From), str(d.Teacher.To))
	}
}
