package handling_test

import (
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/tatib/tatib/server/internal/handling"
	"github.com/tatib/tatib/server/internal/violation/vltest"
	"github.com/tatib/tatib/shared/api"
)

// auto inserts an automatic attendance violation of kind (late, alpha) on
// day, as attendance records it.
func (e env) auto(t *testing.T, student int64, kind, day string, status string) int64 {
	t.Helper()
	typ := e.s.TypeLight2 // terlambat
	if kind == "alpha" {
		typ = e.s.TypeLight1
	}
	at, err := time.ParseInLocation("2006-01-02 15:04", day+" 07:00", jakarta)
	if err != nil {
		t.Fatal(err)
	}
	id := e.s.Violation(vltest.V{Student: student, Type: typ, At: at, Journal: true, Status: status})
	e.s.Env.DB.MustExec(`UPDATE violations SET source = 'attendance', auto_kind = $2, auto_hours = 1 WHERE id = $1`, id, kind)
	return id
}

func resolvePath(class int64) string {
	return fmt.Sprintf("/api/v1/classes/%d/attendance-violations/resolve", class)
}

func TestBulkResolveAttendance(t *testing.T) {
	e := newEnv(t)
	s := e.s
	ani := s.Student("Ani Lestari", "0051234568", "2402", s.ClassA)
	late1 := e.auto(t, e.budi, "late", "2025-03-03", api.HandlingUnhandled)
	late2 := e.auto(t, e.budi, "late", "2025-03-05", api.HandlingInProgress)
	late3 := e.auto(t, ani, "late", "2025-03-07", api.HandlingUnhandled)
	alpha := e.auto(t, ani, "alpha", "2025-03-04", api.HandlingUnhandled)
	// Left alone: resolved already, outside the range, another class, a
	// late recorded by hand.
	doneLate := e.auto(t, e.budi, "late", "2025-03-04", api.HandlingResolved)
	before := e.auto(t, e.budi, "late", "2025-03-02", api.HandlingUnhandled)
	otherClass := e.auto(t, e.dedi, "late", "2025-03-03", api.HandlingUnhandled)
	at, _ := time.ParseInLocation(time.DateOnly, "2025-03-04", jakarta)
	manual := s.Violation(vltest.V{Student: e.budi, Type: s.TypeLight2, At: at})

	// The preview counts what the resolve would cover.
	var open api.OpenAttendanceViolations
	s.TeacherA.Do("GET", fmt.Sprintf("/api/v1/classes/%d/attendance-violations/open?from=2025-03-03&to=2025-03-07&kind=late", s.ClassA), nil).
		Want(http.StatusOK).JSON(&open)
	if open.Count != 3 || open.Students != 2 || open.HandlingTypeName != handling.DefaultTypeName || open.Max != handling.MaxViolations {
		t.Errorf("open: %+v", open)
	}

	// OK: one shared record, of the default type, made resolved.
	var res api.ResolveAttendanceResponse
	s.TeacherA.Do("POST", resolvePath(s.ClassA), api.ResolveAttendanceRequest{From: "2025-03-03", To: "2025-03-07", Kind: "late",
		Notes: "Keterlambatan minggu ini sudah dibina"}).Want(http.StatusOK).JSON(&res)
	if res.Resolved != 3 || res.Students != 2 || !slices.Equal(res.ViolationIDs, []int64{late1, late2, late3}) || res.Handling == nil ||
		res.Handling.HandlingTypeName != handling.DefaultTypeName || res.Handling.HandledOn != today() || res.Handling.ViolationCount != 3 ||
		res.Handling.CreatedBy == nil || *res.Handling.CreatedBy != s.TeacherA.UserID {
		t.Fatalf("resolve: %+v", res)
	}
	e.wantStatuses(t, "the week's lateness", []int64{late1, late2, late3}, "resolved", "resolved", "resolved")
	e.wantStatuses(t, "the rest", []int64{alpha, doneLate, before, otherClass, manual}, "unhandled", "resolved", "unhandled", "unhandled", "unhandled")
	if v := e.violation(t, s.TeacherA, late1); v.HandledBy == nil || *v.HandledBy != s.TeacherA.UserID {
		t.Errorf("handled_by: %+v", v.HandledBy)
	}

	// Audited once, naming the count and the ids.
	entries := e.auditDetails(t, "handling.bulk_resolve", "class", fmt.Sprint(s.ClassA))
	if len(entries) != 1 || entries[0]["count"] != float64(3) || fmt.Sprint(entries[0]["violation_ids"]) != fmt.Sprint(res.ViolationIDs) ||
		entries[0]["from"] != "2025-03-03" || entries[0]["kind"] != "late" {
		t.Errorf("audit: %v", entries)
	}

	// Nothing left open: nothing written.
	var again api.ResolveAttendanceResponse
	s.TeacherA.Do("POST", resolvePath(s.ClassA), api.ResolveAttendanceRequest{From: "2025-03-03", To: "2025-03-07", Kind: "late"}).
		Want(http.StatusOK).JSON(&again)
	if again.Resolved != 0 || again.Handling != nil || len(again.ViolationIDs) != 0 {
		t.Errorf("second resolve: %+v", again)
	}

	// "all" takes the alpha too; a counselor may do it for any class.
	s.BK.Do("POST", resolvePath(s.ClassA), api.ResolveAttendanceRequest{From: "2025-03-01", To: "2025-03-07", Kind: "all"}).
		Want(http.StatusOK).JSON(&res)
	if !slices.Equal(res.ViolationIDs, []int64{alpha, before}) {
		t.Errorf("all: %v", res.ViolationIDs)
	}

	// Deleting the bulk record reopens what it resolved.
	s.BK.Do("DELETE", fmt.Sprintf("/api/v1/handlings/%d", res.Handling.ID), nil).Want(http.StatusNoContent)
	e.wantStatuses(t, "after deleting the bulk record", []int64{alpha, before}, "unhandled", "unhandled")
}

func TestBulkResolveAttendanceErr(t *testing.T) {
	e := newEnv(t)
	s := e.s
	// Another class is not found, for a homeroom teacher.
	s.TeacherA.Do("POST", resolvePath(s.ClassB), api.ResolveAttendanceRequest{From: "2025-03-03", To: "2025-03-07", Kind: "late"}).
		Want(http.StatusNotFound)
	s.TeacherA.Do("GET", fmt.Sprintf("/api/v1/classes/%d/attendance-violations/open?from=2025-03-03&to=2025-03-07&kind=late", s.ClassB), nil).
		Want(http.StatusNotFound)
	s.TeacherA.Do("POST", resolvePath(999999), api.ResolveAttendanceRequest{From: "2025-03-03", To: "2025-03-07", Kind: "late"}).
		Want(http.StatusNotFound)

	tomorrow := time.Now().In(jakarta).AddDate(0, 0, 1).Format(time.DateOnly)
	cases := []struct {
		name string
		in   api.ResolveAttendanceRequest
		want map[string]string
	}{
		{"ErrRequired", api.ResolveAttendanceRequest{}, map[string]string{"from": "handling.bulk.date_required", "to": "handling.bulk.date_required",
			"kind": "handling.bulk.kind"}},
		{"ErrOrder", api.ResolveAttendanceRequest{From: "2025-03-07", To: "2025-03-03", Kind: "alpha"}, map[string]string{"to": "handling.bulk.date_order"}},
		{"ErrKind", api.ResolveAttendanceRequest{From: "2025-03-03", To: "2025-03-07", Kind: "sakit"}, map[string]string{"kind": "handling.bulk.kind"}},
		{"ErrHandledOn", api.ResolveAttendanceRequest{From: "2025-03-03", To: "2025-03-07", Kind: "all", HandledOn: tomorrow},
			map[string]string{"handled_on": "handling.handled_on.future"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := s.TeacherA.Do("POST", resolvePath(s.ClassA), c.in).Want(http.StatusUnprocessableEntity).Err()
			if len(r.Error.FieldCodes) != len(c.want) {
				t.Errorf("fields %+v, want %v", r.Error.FieldCodes, c.want)
			}
			for f, code := range c.want {
				if got := r.Error.FieldCodes[f].Code; got != code {
					t.Errorf("%s: %q, want %q", f, got, code)
				}
			}
		})
	}

	// More than MaxViolations open in the range: refused, nothing written.
	s.Env.DB.MustExec(`INSERT INTO students (source_id, full_name, nisn, nis, class_id)
		SELECT 800000 + g, 'Siswa ' || g, '00' || (90000000 + g), 'X' || g, $1 FROM generate_series(1, 51) g`, s.ClassA)
	s.Env.DB.MustExec(`INSERT INTO violations (student_id, class_id, class_name, violation_type_id, occurred_at, occurred_on, points, source, auto_kind, auto_hours)
		SELECT st.id, $1, 'X RPL 1', $2, d + time '07:00', d, 2, 'attendance', 'late', 1
		FROM students st CROSS JOIN generate_series('2025-04-01'::date, '2025-04-10'::date, interval '1 day') AS d
		WHERE st.source_id BETWEEN 800001 AND 800051`, s.ClassA, s.TypeLight2)
	r := s.TeacherA.Do("POST", resolvePath(s.ClassA), api.ResolveAttendanceRequest{From: "2025-04-01", To: "2025-04-30", Kind: "late"}).
		Want(http.StatusUnprocessableEntity).Err()
	if r.Error.FieldCodes["to"].Code != "handling.bulk.too_many" {
		t.Errorf("too many: %+v", r.Error)
	}
	var n int
	if err := s.Env.DB.Get(&n, `SELECT count(*) FROM violations WHERE handling_status <> 'unhandled'`); err != nil || n != 0 {
		t.Errorf("%d violations moved (%v)", n, err)
	}
	// A shorter range fits.
	var res api.ResolveAttendanceResponse
	s.TeacherA.Do("POST", resolvePath(s.ClassA), api.ResolveAttendanceRequest{From: "2025-04-01", To: "2025-04-09", Kind: "late"}).
		Want(http.StatusOK).JSON(&res)
	if res.Resolved != 51*9 {
		t.Errorf("resolved %d", res.Resolved)
	}
}
