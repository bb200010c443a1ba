package roster_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/tatib/tatib/server/internal/roster"
	schoolsim "github.com/tatib/tatib/server/internal/sim/studentaffairs"
	"github.com/tatib/tatib/server/internal/studentsync"
	"github.com/tatib/tatib/shared/perm"
)

// contactFixture is a synced school with a BK user and one student.
type contactFixture struct {
	*fixture
	id   int64
	path string
}

func setupContact(t *testing.T) *contactFixture {
	t.Helper()
	f := setup(t, 30)
	f.Sync()
	var id int64
	if err := f.Env.DB.Get(&id, `SELECT id FROM students WHERE source_id = $1`, firstSourceID(f)); err != nil {
		t.Fatal(err)
	}
	return &contactFixture{fixture: f, id: id, path: fmt.Sprintf("/api/v1/students/%d", id)}
}

func firstSourceID(f *fixture) int64 {
	var id int64
	f.Sim.Update(func(s *schoolsim.School) { id = s.Students[0].ID })
	return id
}

func (f *contactFixture) get() roster.Student {
	f.Env.T.Helper()
	var st roster.Student
	f.Admin.Do("GET", f.path, nil).Want(http.StatusOK).JSON(&st)
	return st
}

func TestEditParentContactOK(t *testing.T) {
	t.Parallel()
	f := setupContact(t)
	bk := f.Env.As(perm.BK)
	synced := f.get()
	if synced.ParentContactSource != roster.ContactFromSync || synced.SyncedParentName != synced.ParentName ||
		synced.SyncedParentPhone != synced.ParentPhone || synced.ParentPhone == "" || synced.ParentPhoneIssue != "" {
		t.Fatalf("after sync: %+v", synced)
	}

	var st roster.Student
	bk.Do("PATCH", f.path, map[string]any{"parent_name": "  Ibu Sari Wulandari ", "parent_phone": " 0813  9876-5432 "}).
		Want(http.StatusOK).JSON(&st)
	if st.ParentName != "Ibu Sari Wulandari" || st.ParentPhone != "0813 9876-5432" || st.ParentContactSource != roster.ContactFromStaff ||
		st.SyncedParentName != synced.ParentName || st.SyncedParentPhone != synced.ParentPhone || st.ParentPhoneIssue != "" {
		t.Fatalf("edited: %+v", st)
	}
	if got := f.get(); got.ParentName != st.ParentName || got.ParentPhone != st.ParentPhone || got.ParentContactSource != "staff" {
		t.Fatalf("GET after edit: %+v", got)
	}

	t.Run("OKAudited", func(t *testing.T) {
		var raw []byte
		if err := f.Env.DB.Get(&raw, `SELECT details FROM audit_log WHERE action = 'student.parent_contact.update' AND entity = 'student'
			AND entity_id = $1 ORDER BY id DESC LIMIT 1`, fmt.Sprint(f.id)); err != nil {
			t.Fatal(err)
		}
		var d map[string]struct{ From, To string }
		if err := json.Unmarshal(raw, &d); err != nil {
			t.Fatal(err)
		}
		if d["parent_phone"].From != synced.ParentPhone || d["parent_phone"].To != "0813 9876-5432" ||
			d["parent_name"].To != "Ibu Sari Wulandari" || d["parent_contact_source"].From != "sync" || d["parent_contact_source"].To != "staff" {
			t.Fatalf("audit: %s", raw)
		}
	})

	t.Run("OKAbsentKeeps", func(t *testing.T) {
		var st roster.Student
		bk.Do("PATCH", f.path, map[string]any{"parent_name": "Bapak Joko"}).Want(http.StatusOK).JSON(&st)
		if st.ParentName != "Bapak Joko" || st.ParentPhone != "0813 9876-5432" {
			t.Fatalf("name only: %+v", st)
		}
	})

	t.Run("OKEmptyPhoneClears", func(t *testing.T) {
		var st roster.Student
		bk.Do("PATCH", f.path, map[string]any{"parent_phone": ""}).Want(http.StatusOK).JSON(&st)
		if st.ParentPhone != "" || st.ParentPhoneIssue != "missing" || st.ParentName != "Bapak Joko" {
			t.Fatalf("cleared: %+v", st)
		}
	})

	t.Run("OKHandBackToSync", func(t *testing.T) {
		var st roster.Student
		bk.Do("PATCH", f.path, map[string]any{"parent_contact_source": "sync"}).Want(http.StatusOK).JSON(&st)
		if st.ParentName != synced.ParentName || st.ParentPhone != synced.ParentPhone || st.ParentContactSource != "sync" {
			t.Fatalf("handed back: %+v, want %q %q", st, synced.ParentName, synced.ParentPhone)
		}
		var action string
		f.Env.DB.Get(&action, `SELECT details->'parent_contact_source'->>'to' FROM audit_log WHERE action = 'student.parent_contact.update'
			ORDER BY id DESC LIMIT 1`)
		if action != "sync" {
			t.Errorf("hand-back audit: %q", action)
		}
	})
}

func TestEditParentContactValidation(t *testing.T) {
	t.Parallel()
	f := setupContact(t)
	bk := f.Env.As(perm.BK)
	before := f.get()
	cases := []struct {
		name  string
		body  map[string]any
		field string
		code  string
	}{
		{"ErrNameTooLong", map[string]any{"parent_name": strings.Repeat("a", 151)}, "parent_name", "school.parent_name.too_long"},
		{"ErrNameControl", map[string]any{"parent_name": "Ibu\nSari"}, "parent_name", "school.parent_name.control"},
		{"ErrPhoneInvalid", map[string]any{"parent_phone": "nomor saya"}, "parent_phone", "school.parent_phone.invalid"},
		{"ErrPhoneShort", map[string]any{"parent_phone": "0812"}, "parent_phone", "school.parent_phone.invalid"},
		{"ErrPhoneLandline", map[string]any{"parent_phone": "021-5551234"}, "parent_phone", "school.parent_phone.not_mobile"},
		{"ErrPhoneTooLong", map[string]any{"parent_phone": "0812 - 3456 - 7890 - - - - - - - - - - -"}, "parent_phone", "school.parent_phone.invalid"},
		{"ErrSourceUnknown", map[string]any{"parent_contact_source": "kesiswaan"}, "parent_contact_source", "school.parent_contact.source"},
		{"ErrSyncWithValues", map[string]any{"parent_contact_source": "sync", "parent_name": "X"}, "parent_contact_source", "school.parent_contact.sync_alone"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := bk.Do("PATCH", f.path, c.body).Want(http.StatusUnprocessableEntity).Err()
			if e.Error.FieldCodes[c.field].Code != c.code || e.Error.Fields[c.field] == "" {
				t.Fatalf("field codes: %+v", e.Error.FieldCodes)
			}
		})
	}
	t.Run("ErrBothFields", func(t *testing.T) {
		e := bk.Do("PATCH", f.path, map[string]any{"parent_name": strings.Repeat("b", 200), "parent_phone": "021 555 1234"}).
			Want(http.StatusUnprocessableEntity).Err()
		if e.Error.FieldCodes["parent_name"].Code == "" || e.Error.FieldCodes["parent_phone"].Code != "school.parent_phone.not_mobile" {
			t.Fatalf("field codes: %+v", e.Error.FieldCodes)
		}
	})
	if after := f.get(); after.ParentName != before.ParentName || after.ParentPhone != before.ParentPhone || after.ParentContactSource != "sync" {
		t.Fatalf("refused edits changed the student: %+v", after)
	}
	t.Run("ErrNotFound", func(t *testing.T) {
		bk.Do("PATCH", "/api/v1/students/99999999", map[string]any{"parent_name": "X"}).Want(http.StatusNotFound)
	})
}

func TestEditParentContactPermissions(t *testing.T) {
	t.Parallel()
	f := setupContact(t)
	body := map[string]any{"parent_phone": "081311112222"}
	t.Run("ErrForbiddenRole", func(t *testing.T) {
		f.Env.As(perm.Staff).Do("PATCH", f.path, body).Want(http.StatusForbidden)
		f.Env.Anonymous().Do("PATCH", f.path, body).Want(http.StatusUnauthorized)
	})

	// A homeroom teacher edits their own class's students, not another's.
	own := f.Env.As(perm.WaliKelas)
	var classID int64
	f.Env.DB.Get(&classID, `SELECT class_id FROM students WHERE id = $1`, f.id)
	f.Admin.Do("PATCH", fmt.Sprintf("/api/v1/classes/%d", classID), map[string]any{"homeroom_teacher_id": own.UserID}).Want(http.StatusOK)
	var st roster.Student
	own.Do("PATCH", f.path, body).Want(http.StatusOK).JSON(&st)
	if st.ParentPhone != "081311112222" || st.ParentContactSource != "staff" {
		t.Fatalf("own class: %+v", st)
	}
	t.Run("ErrOtherClass", func(t *testing.T) {
		other := f.Env.As(perm.WaliKelas)
		var otherClass int64
		f.Env.DB.Get(&otherClass, `SELECT id FROM classes WHERE id <> $1 ORDER BY id LIMIT 1`, classID)
		f.Admin.Do("PATCH", fmt.Sprintf("/api/v1/classes/%d", otherClass), map[string]any{"homeroom_teacher_id": other.UserID}).Want(http.StatusOK)
		e := other.Do("PATCH", f.path, map[string]any{"parent_phone": "081399998888"}).Want(http.StatusForbidden).Err()
		if e.Error.MessageCode != "school.student_not_in_class" {
			t.Fatalf("message code: %q", e.Error.MessageCode)
		}
		// Without a class at all: the same.
		f.Env.As(perm.WaliKelas).Do("PATCH", f.path, map[string]any{"parent_phone": "081399998888"}).Want(http.StatusForbidden)
		if got := f.get(); got.ParentPhone != "081311112222" {
			t.Fatalf("another class's teacher changed the phone: %+v", got)
		}
	})
}

// TestParentContactSurvivesSync: a staff edit is kept by the next sync,
// which still records what student affairs says beside it; handed back,
// the contact follows student affairs again.
func TestParentContactSurvivesSync(t *testing.T) {
	t.Parallel()
	f := setupContact(t)
	bk := f.Env.As(perm.BK)
	src := firstSourceID(f.fixture)
	bk.Do("PATCH", f.path, map[string]any{"parent_name": "Ibu Sari", "parent_phone": "0813-1111-2222"}).Want(http.StatusOK)

	f.Sim.Update(func(s *schoolsim.School) {
		s.Students[0].ParentName = "Bapak Budi Santoso"
		s.Students[0].ParentPhone = "0857-7777-8888"
	})
	// Another student without a staff edit follows student affairs.
	var otherSrc int64
	f.Sim.Update(func(s *schoolsim.School) {
		s.Students[1].ParentPhone = "0858-1234-5678"
		otherSrc = s.Students[1].ID
	})
	if run := f.Sync(); run.Status != studentsync.SyncSucceeded {
		t.Fatalf("sync: %+v", run)
	}
	st := f.get()
	if st.ParentName != "Ibu Sari" || st.ParentPhone != "0813-1111-2222" || st.ParentContactSource != "staff" ||
		st.SyncedParentName != "Bapak Budi Santoso" || st.SyncedParentPhone != "0857-7777-8888" {
		t.Fatalf("after sync: %+v", st)
	}
	var other struct {
		Phone  string `db:"parent_phone"`
		Synced string `db:"synced_parent_phone"`
	}
	f.Env.DB.Get(&other, `SELECT parent_phone, synced_parent_phone FROM students WHERE source_id = $1`, otherSrc)
	if other.Phone != "0858-1234-5678" || other.Synced != "0858-1234-5678" {
		t.Fatalf("synced student: %+v", other)
	}

	// An empty value from student affairs keeps the synced value too.
	f.Sim.Update(func(s *schoolsim.School) { s.Students[0].ParentPhone = "" })
	f.Sync()
	if st := f.get(); st.SyncedParentPhone != "0857-7777-8888" || st.ParentPhone != "0813-1111-2222" {
		t.Fatalf("after empty source phone: %+v", st)
	}

	// Handed back: the student-affairs values, and later syncs update them.
	var back roster.Student
	bk.Do("PATCH", f.path, map[string]any{"parent_contact_source": "sync"}).Want(http.StatusOK).JSON(&back)
	if back.ParentName != "Bapak Budi Santoso" || back.ParentPhone != "0857-7777-8888" || back.ParentContactSource != "sync" {
		t.Fatalf("handed back: %+v", back)
	}
	f.Sim.Update(func(s *schoolsim.School) { s.Students[0].ParentPhone = "0859-0000-1111" })
	f.Sync()
	if st := f.get(); st.ParentPhone != "0859-0000-1111" || st.SyncedParentPhone != "0859-0000-1111" {
		t.Fatalf("after hand-back and sync: %+v (source %d)", st, src)
	}
}

// TestParentPhoneIssue: the student answer flags a number WhatsApp cannot
// reach, in the list as on the student.
func TestParentPhoneIssue(t *testing.T) {
	t.Parallel()
	f := setupContact(t)
	for phone, issue := range map[string]string{"": "missing", "021 5551234": "not_mobile", "12ab": "invalid", "+62 812 3456 7890": ""} {
		f.Env.DB.MustExec(`UPDATE students SET parent_phone = $2 WHERE id = $1`, f.id, phone)
		if st := f.get(); st.ParentPhoneIssue != issue {
			t.Errorf("%q: issue %q, want %q", phone, st.ParentPhoneIssue, issue)
		}
	}
	f.Env.DB.MustExec(`UPDATE students SET parent_phone = '021 5551234' WHERE id = $1`, f.id)
	var page struct {
		Data []roster.Student `json:"data"`
	}
	f.Admin.Do("GET", "/api/v1/students?per_page=100", nil).Want(http.StatusOK).JSON(&page)
	for _, s := range page.Data {
		if s.ID == f.id && s.ParentPhoneIssue != "not_mobile" {
			t.Fatalf("list: %+v", s)
		}
	}
}
