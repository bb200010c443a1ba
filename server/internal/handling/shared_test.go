package handling_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/server/internal/handling"
	"github.com/tatib/tatib/server/internal/violation/vltest"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

func (e env) shared(t *testing.T, c *apitest.Client, ids []int64, want int) *apitest.Response {
	t.Helper()
	return c.Do("POST", "/api/v1/handlings", api.CreateSharedHandlingRequest{ViolationIDs: ids, HandlingTypeID: e.htype, HandledOn: today(),
		Notes: "Dibina bersama", Participants: []api.HandlingParticipant{{Name: "Ibu Sari", Role: "Orang Tua"}}}).Want(want)
}

func (e env) statuses(t *testing.T, ids ...int64) []string {
	t.Helper()
	out := make([]string, len(ids))
	for i, id := range ids {
		if err := e.s.Env.DB.Get(&out[i], `SELECT handling_status FROM violations WHERE id = $1`, id); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

func (e env) wantStatuses(t *testing.T, what string, ids []int64, want ...string) {
	t.Helper()
	if got := e.statuses(t, ids...); !slices.Equal(got, want) {
		t.Errorf("%s: %v, want %v", what, got, want)
	}
}

// auditDetails returns the details of the audit entries of action on
// entity, oldest first.
func (e env) auditDetails(t *testing.T, action, entity, id string) []map[string]any {
	t.Helper()
	var raw []string
	if err := e.s.Env.DB.Select(&raw, `SELECT details::text FROM audit_log WHERE action = $1 AND entity = $2 AND entity_id = $3 ORDER BY id`,
		action, entity, id); err != nil {
		t.Fatal(err)
	}
	out := make([]map[string]any, len(raw))
	for i, r := range raw {
		if err := json.Unmarshal([]byte(r), &out[i]); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// One record over several students' violations, a mix of unhandled and in
// progress: made, resolved, deleted; each violation ends where it began.
func TestSharedLifecycle(t *testing.T) {
	e := newEnv(t)
	s := e.s
	ani := s.Student("Ani Lestari", "0051234568", "2402", s.ClassA)
	b1 := s.Violation(vltest.V{Student: e.budi})
	b2 := s.Violation(vltest.V{Student: e.budi, Status: api.HandlingInProgress})
	own := s.Handling(b2, "2025-01-02") // b2's own record keeps it in progress
	a1 := s.Violation(vltest.V{Student: ani})
	d1 := s.Violation(vltest.V{Student: e.dedi})
	all := []int64{b1, b2, a1, d1}

	// OK: duplicates are ignored; each moves as for a first record.
	var h api.Handling
	e.shared(t, s.BK, []int64{d1, b1, b2, a1, b1, d1}, http.StatusCreated).JSON(&h)
	if !h.Shared || h.ViolationCount != 4 || len(h.Covers) != 4 || h.Notes != "Dibina bersama" || len(h.Participants) != 1 ||
		h.CreatedBy == nil || *h.CreatedBy != s.BK.UserID {
		t.Fatalf("created: %+v", h)
	}
	e.wantStatuses(t, "after the record", all, "in_progress", "in_progress", "in_progress", "in_progress")

	// The violation page shows the shared record beside b2's own.
	v := e.violation(t, s.BK, b2)
	if len(v.Handlings) != 2 {
		t.Fatalf("b2's records: %+v", v.Handlings)
	}
	got := v.Handlings[1]
	if got.ID != h.ID || !got.Shared || got.ViolationID != b2 || got.ViolationCount != 4 || len(got.Covers) != 4 || v.Handlings[0].ID != own ||
		v.Handlings[0].Shared || v.Handlings[0].ViolationCount != 1 || len(v.Handlings[0].Covers) != 0 {
		t.Errorf("b2's records: %+v", v.Handlings)
	}

	// The export lists the shared record on every violation it covers.
	x, err := excelize.OpenReader(bytes.NewReader(s.BK.Do("GET", "/api/v1/violations/export", nil).Want(http.StatusOK).Body))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := x.GetRows(x.GetSheetList()[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows[1:] {
		if !strings.Contains(r[16], h.HandlingTypeName) || !strings.Contains(r[17], "Ibu Sari (Orang Tua)") {
			t.Errorf("export row %q: want the shared record", r)
		}
	}

	// Resolving the record resolves them all.
	var res api.Handling
	s.BK.Do("POST", fmt.Sprintf("/api/v1/handlings/%d/resolve", h.ID), nil).Want(http.StatusOK).JSON(&res)
	e.wantStatuses(t, "after resolve", all, "resolved", "resolved", "resolved", "resolved")
	for _, c := range res.Covers {
		if c.HandlingStatus != api.HandlingResolved {
			t.Errorf("covers after resolve: %+v", c)
		}
	}
	if v := e.violation(t, s.BK, a1); v.HandledBy == nil || *v.HandledBy != s.BK.UserID || v.HandledAt == nil {
		t.Errorf("resolved by: %+v", v)
	}
	r := s.BK.Do("POST", fmt.Sprintf("/api/v1/handlings/%d/resolve", h.ID), nil).Want(http.StatusConflict).Err()
	if r.Error.MessageCode != "handling.all_resolved" {
		t.Errorf("resolve twice: %s", r.Error.MessageCode)
	}

	// Deleting it returns each to where it was: b2 keeps its own record.
	s.BK.Do("DELETE", fmt.Sprintf("/api/v1/handlings/%d", h.ID), nil).Want(http.StatusNoContent)
	e.wantStatuses(t, "after delete", all, "unhandled", "in_progress", "unhandled", "unhandled")
	if v := e.violation(t, s.BK, a1); v.HandledAt != nil || v.HandledBy != nil || len(v.Handlings) != 0 {
		t.Errorf("a1 after delete: %+v", v)
	}
	var links int
	if err := s.Env.DB.Get(&links, `SELECT count(*) FROM handling_violations`); err != nil || links != 0 {
		t.Errorf("%d links left (%v)", links, err)
	}

	// A violation resolved on its own after the record stays resolved when
	// the record goes; one the record resolved, reopened and resolved again
	// on its own, too.
	e.shared(t, s.BK, []int64{b1, a1, d1}, http.StatusCreated).JSON(&h)
	s.BK.Do("POST", fmt.Sprintf("/api/v1/violations/%d/resolve", b1), nil).Want(http.StatusOK)
	s.BK.Do("POST", fmt.Sprintf("/api/v1/handlings/%d/resolve", h.ID), nil).Want(http.StatusOK)
	s.BK.Do("POST", fmt.Sprintf("/api/v1/violations/%d/reopen", a1), nil).Want(http.StatusOK)
	s.BK.Do("POST", fmt.Sprintf("/api/v1/violations/%d/resolve", a1), nil).Want(http.StatusOK)
	s.BK.Do("DELETE", fmt.Sprintf("/api/v1/handlings/%d", h.ID), nil).Want(http.StatusNoContent)
	e.wantStatuses(t, "after the second delete", []int64{b1, a1, d1}, "resolved", "resolved", "unhandled")

	// One audit entry per operation, naming the count and the ids.
	created := e.auditDetails(t, "handling.create", "handling", fmt.Sprint(res.ID))
	if len(created) != 1 || created[0]["count"] != float64(4) || created[0]["students"] != float64(3) ||
		fmt.Sprint(created[0]["violation_ids"]) != fmt.Sprint([]int64{b1, b2, a1, d1}) {
		t.Errorf("create audit: %v", created)
	}
	deleted := e.auditDetails(t, "handling.delete", "handling", fmt.Sprint(res.ID))
	if len(deleted) != 1 || fmt.Sprint(deleted[0]["status_after"]) != fmt.Sprintf("map[in_progress:[%d] unhandled:[%d %d %d]]", b2, b1, a1, d1) {
		t.Errorf("delete audit: %v", deleted)
	}
	if n := len(e.auditDetails(t, "handling.resolve", "handling", fmt.Sprint(res.ID))); n != 1 {
		t.Errorf("%d resolve audits", n)
	}
}

func TestSharedErr(t *testing.T) {
	e := newEnv(t)
	s := e.s
	v1 := s.Violation(vltest.V{Student: e.budi})
	v2 := s.Violation(vltest.V{Student: e.dedi})
	done := s.Violation(vltest.V{Student: e.budi, Status: api.HandlingResolved})
	summons := idOf(t, s, `INSERT INTO handling_types (name, summons_parent) VALUES ('Panggil Wali Murid', true) RETURNING id`)
	many := make([]int64, handling.MaxViolations+1)
	for i := range many {
		many[i] = int64(i + 1)
	}
	cases := []struct {
		name string
		in   api.CreateSharedHandlingRequest
		want int
		code map[string]string
	}{
		{"ErrRequired", api.CreateSharedHandlingRequest{}, 422,
			map[string]string{"violation_ids": "handling.violations.required", "handling_type_id": "handling.type.required",
				"handled_on": "handling.handled_on.required"}},
		{"ErrTooMany", api.CreateSharedHandlingRequest{ViolationIDs: many, HandlingTypeID: e.htype, HandledOn: today()}, 422,
			map[string]string{"violation_ids": "handling.violations.too_many"}},
		{"ErrBadID", api.CreateSharedHandlingRequest{ViolationIDs: []int64{v1, 0, -3}, HandlingTypeID: e.htype, HandledOn: today()}, 422,
			map[string]string{"violation_ids.1": "handling.violation.not_found", "violation_ids.2": "handling.violation.not_found"}},
		{"ErrUnknown", api.CreateSharedHandlingRequest{ViolationIDs: []int64{v1, 999999, v2}, HandlingTypeID: e.htype, HandledOn: today()}, 422,
			map[string]string{"violation_ids.1": "handling.violation.not_found"}},
		{"ErrResolved", api.CreateSharedHandlingRequest{ViolationIDs: []int64{v1, v2, done}, HandlingTypeID: e.htype, HandledOn: today()}, 409,
			map[string]string{"violation_ids.2": "handling.violation.resolved"}},
		{"ErrSummonsSeveralStudents", api.CreateSharedHandlingRequest{ViolationIDs: []int64{v1, v2}, HandlingTypeID: summons, HandledOn: today()}, 422,
			map[string]string{"handling_type_id": "handling.type.summons_one_student"}},
		{"ErrInactiveType", api.CreateSharedHandlingRequest{ViolationIDs: []int64{v1, v2}, HandlingTypeID: e.inactive, HandledOn: today()}, 422,
			map[string]string{"handling_type_id": "handling.type.inactive"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := s.BK.Do("POST", "/api/v1/handlings", c.in).Want(c.want).Err()
			if len(r.Error.FieldCodes) != len(c.code) {
				t.Errorf("fields %+v, want %v", r.Error.FieldCodes, c.code)
			}
			for f, code := range c.code {
				if got := r.Error.FieldCodes[f].Code; got != code {
					t.Errorf("%s: %q, want %q", f, got, code)
				}
			}
		})
	}
	e.wantStatuses(t, "after refusals", []int64{v1, v2, done}, "unhandled", "unhandled", "resolved")
	var n int
	if err := s.Env.DB.Get(&n, `SELECT count(*) FROM handlings`); err != nil || n != 0 {
		t.Errorf("%d records written (%v)", n, err)
	}
	// A summons over one student's violations is one record.
	budi2 := s.Violation(vltest.V{Student: e.budi})
	s.BK.Do("POST", "/api/v1/handlings", api.CreateSharedHandlingRequest{ViolationIDs: []int64{v1, budi2}, HandlingTypeID: summons,
		HandledOn: today()}).Want(http.StatusCreated)
}

// A homeroom teacher handles their own class's violations only: another
// class's id is refused by its index, never by the student's name; a
// counselor's record over several classes shows them theirs only and is
// not theirs to resolve or delete.
func TestSharedScope(t *testing.T) {
	e := newEnv(t)
	s := e.s
	mine := s.Violation(vltest.V{Student: e.budi})
	mine2 := s.Violation(vltest.V{Student: e.budi})
	other := s.Violation(vltest.V{Student: e.dedi})

	res := e.shared(t, s.TeacherA, []int64{mine, other}, http.StatusUnprocessableEntity)
	if r := res.Err(); r.Error.FieldCodes["violation_ids.1"].Code != "handling.violation.not_found" || len(r.Error.FieldCodes) != 1 {
		t.Errorf("teacher with another class's id: %+v", r.Error)
	}
	if strings.Contains(string(res.Body), "Dedi") {
		t.Errorf("the refusal names the student: %s", res.Body)
	}
	e.wantStatuses(t, "after the refusal", []int64{mine, other}, "unhandled", "unhandled")
	e.shared(t, s.TeacherA, []int64{mine2}, http.StatusCreated)

	var h api.Handling
	e.shared(t, s.BK, []int64{mine, other}, http.StatusCreated).JSON(&h)
	res = s.TeacherA.Do("GET", fmt.Sprintf("/api/v1/violations/%d", mine), nil).Want(http.StatusOK)
	var v api.Violation
	res.JSON(&v)
	if len(v.Handlings) != 1 || v.Handlings[0].ViolationCount != 2 || len(v.Handlings[0].Covers) != 1 || v.Handlings[0].Covers[0].ID != mine {
		t.Errorf("teacher's view of the shared record: %+v", v.Handlings)
	}
	if strings.Contains(string(res.Body), "Dedi") {
		t.Errorf("the teacher reads another class's student: %s", res.Body)
	}
	for _, p := range []perm.Name{perm.HandlingsDelete, perm.HandlingsResolve} {
		s.Env.DB.MustExec(`INSERT INTO role_permissions (role, permission, granted) VALUES ('wali_kelas', $1, true)`, string(p))
	}
	if err := s.Env.Deps.Auth.DropPermissionCache(t.Context()); err != nil {
		t.Fatal(err)
	}
	s.TeacherA.Do("POST", fmt.Sprintf("/api/v1/handlings/%d/resolve", h.ID), nil).Want(http.StatusNotFound)
	s.TeacherA.Do("DELETE", fmt.Sprintf("/api/v1/handlings/%d", h.ID), nil).Want(http.StatusNotFound)
	e.wantStatuses(t, "after the teacher's tries", []int64{mine, other}, "in_progress", "in_progress")
}

func TestSharedForbidden(t *testing.T) {
	e := newEnv(t)
	s := e.s
	v := s.Violation(vltest.V{Student: e.budi})
	var h api.Handling
	e.shared(t, s.BK, []int64{v}, http.StatusCreated).JSON(&h)
	for _, c := range []*apitest.Client{s.Env.As(perm.Staff), s.Env.As(perm.KepalaSekolah)} {
		e.shared(t, c, []int64{v}, http.StatusForbidden)
		c.Do("POST", fmt.Sprintf("/api/v1/handlings/%d/resolve", h.ID), nil).Want(http.StatusForbidden)
		c.Do("GET", fmt.Sprintf("/api/v1/classes/%d/attendance-violations/open?from=2025-01-01&to=2025-01-07&kind=late", s.ClassA), nil).
			Want(http.StatusForbidden)
		c.Do("POST", fmt.Sprintf("/api/v1/classes/%d/attendance-violations/resolve", s.ClassA),
			api.ResolveAttendanceRequest{From: "2025-01-01", To: "2025-01-07", Kind: "late"}).Want(http.StatusForbidden)
	}
	// A homeroom teacher resolves attendance in bulk, not a record.
	s.TeacherA.Do("POST", fmt.Sprintf("/api/v1/handlings/%d/resolve", h.ID), nil).Want(http.StatusForbidden)
}

// Requests racing over the same violations, listed in opposite orders,
// all succeed (no deadlock): the rows are locked in id order.
func TestSharedConcurrent(t *testing.T) {
	e := newEnv(t)
	s := e.s
	var ids []int64
	for range 12 {
		ids = append(ids, s.Violation(vltest.V{Student: e.budi}), s.Violation(vltest.V{Student: e.dedi}))
	}
	reversed := slices.Clone(ids)
	slices.Reverse(reversed)
	const n = 8
	made := make(chan int64, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			list := ids
			if i%2 == 1 {
				list = reversed
			}
			var h api.Handling
			e.shared(t, s.BK, list, http.StatusCreated).JSON(&h)
			made <- h.ID
		}()
	}
	wg.Wait()
	close(made)
	var before []string
	if err := s.Env.DB.Select(&before, `SELECT status_before FROM handling_violations WHERE violation_id = $1`, ids[0]); err != nil {
		t.Fatal(err)
	}
	// Exactly one request found it unhandled.
	if slices.Sort(before); len(before) != n || before[0] != "in_progress" || before[n-1] != "unhandled" ||
		slices.Index(before, "unhandled") != n-1 {
		t.Errorf("status_before of one violation: %v", before)
	}
	for id := range made {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.BK.Do("DELETE", fmt.Sprintf("/api/v1/handlings/%d", id), nil).Want(http.StatusNoContent)
		}()
	}
	wg.Wait()
	for i, st := range e.statuses(t, ids...) {
		if st != api.HandlingUnhandled {
			t.Errorf("violation %d after deleting every record: %s", ids[i], st)
		}
	}
}

// Deleting the violations a shared record covers deletes the record with
// the last of them.
func TestSharedViolationsDeleted(t *testing.T) {
	e := newEnv(t)
	s := e.s
	v1 := s.Violation(vltest.V{Student: e.budi})
	v2 := s.Violation(vltest.V{Student: e.dedi})
	var h api.Handling
	e.shared(t, s.BK, []int64{v1, v2}, http.StatusCreated).JSON(&h)
	s.BK.Do("DELETE", fmt.Sprintf("/api/v1/violations/%d", v1), nil).Want(http.StatusNoContent)
	if v := e.violation(t, s.BK, v2); len(v.Handlings) != 1 || v.Handlings[0].ViolationCount != 1 {
		t.Fatalf("after deleting one: %+v", v.Handlings)
	}
	s.BK.Do("DELETE", fmt.Sprintf("/api/v1/violations/%d", v2), nil).Want(http.StatusNoContent)
	var n int
	if err := s.Env.DB.Get(&n, `SELECT count(*) FROM handlings WHERE id = $1`, h.ID); err != nil || n != 0 {
		t.Errorf("record left: %d (%v)", n, err)
	}
}
