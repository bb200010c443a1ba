package handling_test

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/server/internal/violation/vltest"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

type env struct {
	s        *vltest.School
	htype    int64
	inactive int64
	budi     int64 // class A
	dedi     int64 // class C
}

func newEnv(t *testing.T) env {
	s := vltest.New(t)
	e := env{s: s}
	e.htype = idOf(t, s, `SELECT id FROM handling_types ORDER BY sort_order, id LIMIT 1`)
	e.inactive = idOf(t, s, `INSERT INTO handling_types (name, active) VALUES ('Lama', false) RETURNING id`)
	e.budi = s.Student("Budi Santoso", "0051234567", "2401", s.ClassA)
	e.dedi = s.Student("Dedi Jaya", "0050000001", "2403", s.ClassC)
	return e
}

func idOf(t *testing.T, s *vltest.School, q string) int64 {
	t.Helper()
	var id int64
	if err := s.Env.DB.Get(&id, q); err != nil {
		t.Fatal(err)
	}
	return id
}

func today() string { return time.Now().In(jakarta).Format(time.DateOnly) }

var jakarta = func() *time.Location { l, _ := time.LoadLocation("Asia/Jakarta"); return l }()

func (e env) add(t *testing.T, c *apitest.Client, v int64, body any, want int) *apitest.Response {
	t.Helper()
	return c.Do("POST", fmt.Sprintf("/api/v1/violations/%d/handlings", v), body).Want(want)
}

func (e env) violation(t *testing.T, c *apitest.Client, id int64) api.Violation {
	t.Helper()
	var v api.Violation
	c.Do("GET", fmt.Sprintf("/api/v1/violations/%d", id), nil).Want(http.StatusOK).JSON(&v)
	return v
}

func (e env) audits(t *testing.T, action string, violation int64) int {
	t.Helper()
	var n int
	if err := e.s.Env.DB.Get(&n, `SELECT count(*) FROM audit_log WHERE action = $1 AND entity = 'violation' AND entity_id = $2`,
		action, fmt.Sprint(violation)); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestLifecycle(t *testing.T) {
	e := newEnv(t)
	s := e.s
	v := s.Violation(vltest.V{Student: e.budi})
	follow := time.Now().In(jakarta).AddDate(0, 0, 7).Format(time.DateOnly)

	// Resolving with no record is refused.
	r := s.BK.Do("POST", fmt.Sprintf("/api/v1/violations/%d/resolve", v), nil).Want(http.StatusConflict).Err()
	if r.Error.MessageCode != "handling.resolve_needs_record" {
		t.Errorf("resolve without record: %s", r.Error.MessageCode)
	}

	// OK: the first record moves it to in_progress; a user participant's
	// name comes from the user.
	var h1 api.Handling
	e.add(t, s.BK, v, api.CreateHandlingRequest{HandlingTypeID: e.htype, HandledOn: today(), Notes: "  Dinasihati  ", FollowUpOn: &follow,
		Participants: []api.HandlingParticipant{
			{UserID: &s.TeacherA.UserID, Name: "ignored", Role: "Wali Kelas"},
			{Name: "  Ibu   Sari ", Role: "Orang Tua"},
		}}, http.StatusCreated).JSON(&h1)
	if h1.ViolationID != v || h1.Notes != "Dinasihati" || h1.FollowUpOn == nil || *h1.FollowUpOn != follow || len(h1.Participants) != 2 ||
		!strings.HasPrefix(h1.Participants[0].Name, "Pengguna ") || h1.Participants[1].Name != "Ibu Sari" || h1.HandlingTypeName == "" ||
		h1.CreatedBy == nil || *h1.CreatedBy != s.BK.UserID {
		t.Fatalf("created: %+v", h1)
	}
	// People read the author's name, not the username.
	if !strings.HasPrefix(h1.CreatedByName, "Pengguna ") {
		t.Errorf("created_by_name %q: want the person's name", h1.CreatedByName)
	}
	if got := e.violation(t, s.BK, v); got.HandlingStatus != api.HandlingInProgress || len(got.Handlings) != 1 {
		t.Fatalf("after first record: %s, %d records", got.HandlingStatus, len(got.Handlings))
	}
	var h2 api.Handling
	e.add(t, s.BK, v, api.CreateHandlingRequest{HandlingTypeID: e.htype, HandledOn: "2025-01-02"}, http.StatusCreated).JSON(&h2)

	// Deleting one of two keeps in_progress; the last goes back to unhandled.
	s.BK.Do("DELETE", fmt.Sprintf("/api/v1/handlings/%d", h2.ID), nil).Want(http.StatusNoContent)
	if got := e.violation(t, s.BK, v); got.HandlingStatus != api.HandlingInProgress {
		t.Errorf("after deleting one of two: %s", got.HandlingStatus)
	}
	s.BK.Do("DELETE", fmt.Sprintf("/api/v1/handlings/%d", h1.ID), nil).Want(http.StatusNoContent)
	if got := e.violation(t, s.BK, v); got.HandlingStatus != api.HandlingUnhandled || len(got.Handlings) != 0 {
		t.Errorf("after deleting the last: %s", got.HandlingStatus)
	}
	s.BK.Do("DELETE", fmt.Sprintf("/api/v1/handlings/%d", h1.ID), nil).Want(http.StatusNotFound)
	var n int
	_ = s.Env.DB.Get(&n, `SELECT count(*) FROM handling_participants`)
	if n != 0 {
		t.Errorf("%d participants left", n)
	}

	// Resolve: handled_at and handled_by.
	e.add(t, s.BK, v, api.CreateHandlingRequest{HandlingTypeID: e.htype, HandledOn: today()}, http.StatusCreated).JSON(&h1)
	var res api.Violation
	s.BK.Do("POST", fmt.Sprintf("/api/v1/violations/%d/resolve", v), nil).Want(http.StatusOK).JSON(&res)
	if res.HandlingStatus != api.HandlingResolved || res.HandledAt == nil || res.HandledBy == nil || *res.HandledBy != s.BK.UserID ||
		res.HandledByName == "" || len(res.Handlings) != 1 {
		t.Fatalf("resolved: %+v", res)
	}
	if e := s.BK.Do("POST", fmt.Sprintf("/api/v1/violations/%d/resolve", v), nil).Want(http.StatusConflict).Err(); e.Error.MessageCode != "handling.already_resolved" {
		t.Errorf("resolve twice: %s", e.Error.MessageCode)
	}
	// A resolved violation takes no new record.
	if r := e.add(t, s.BK, v, api.CreateHandlingRequest{HandlingTypeID: e.htype, HandledOn: today()}, http.StatusConflict).Err(); r.Error.MessageCode != "handling.resolved" {
		t.Errorf("record on resolved: %s", r.Error.MessageCode)
	}

	// Reopen: back to in_progress with its record, handled_* cleared.
	s.BK.Do("POST", fmt.Sprintf("/api/v1/violations/%d/reopen", v), nil).Want(http.StatusOK).JSON(&res)
	if res.HandlingStatus != api.HandlingInProgress || res.HandledAt != nil || res.HandledBy != nil {
		t.Fatalf("reopened: %+v", res)
	}
	if e := s.BK.Do("POST", fmt.Sprintf("/api/v1/violations/%d/reopen", v), nil).Want(http.StatusConflict).Err(); e.Error.MessageCode != "handling.not_resolved" {
		t.Errorf("reopen in progress: %s", e.Error.MessageCode)
	}

	// Resolved, then its only record deleted: stays resolved; reopened, it
	// is unhandled.
	s.BK.Do("POST", fmt.Sprintf("/api/v1/violations/%d/resolve", v), nil).Want(http.StatusOK)
	s.BK.Do("DELETE", fmt.Sprintf("/api/v1/handlings/%d", h1.ID), nil).Want(http.StatusNoContent)
	if got := e.violation(t, s.BK, v); got.HandlingStatus != api.HandlingResolved {
		t.Errorf("resolved after deleting its record: %s", got.HandlingStatus)
	}
	s.BK.Do("POST", fmt.Sprintf("/api/v1/violations/%d/reopen", v), nil).Want(http.StatusOK).JSON(&res)
	if res.HandlingStatus != api.HandlingUnhandled {
		t.Errorf("reopened without records: %s", res.HandlingStatus)
	}

	// Every operation is audited.
	for action, want := range map[string]int{"handling.create": 3, "handling.delete": 3, "violation.resolve": 2, "violation.reopen": 2} {
		if got := e.audits(t, action, v); got != want {
			t.Errorf("audit %s: %d, want %d", action, got, want)
		}
	}
}

func TestCreateErrInvalid(t *testing.T) {
	e := newEnv(t)
	s := e.s
	v := s.Violation(vltest.V{Student: e.budi})
	tomorrow := time.Now().In(jakarta).AddDate(0, 0, 1).Format(time.DateOnly)
	before := "2024-12-31"
	bad := "31-12-2024"
	ghost := int64(999999)
	zero := int64(0)
	many := make([]api.HandlingParticipant, 21)
	for i := range many {
		many[i] = api.HandlingParticipant{Name: "Saksi", Role: "Saksi"}
	}
	cases := []struct {
		name string
		in   api.CreateHandlingRequest
		want map[string]string
	}{
		{"ErrRequired", api.CreateHandlingRequest{}, map[string]string{"handling_type_id": "handling.type.required", "handled_on": "handling.handled_on.required"}},
		{"ErrFuture", api.CreateHandlingRequest{HandlingTypeID: e.htype, HandledOn: tomorrow}, map[string]string{"handled_on": "handling.handled_on.future"}},
		{"ErrDateFormat", api.CreateHandlingRequest{HandlingTypeID: e.htype, HandledOn: bad, FollowUpOn: &bad},
			map[string]string{"handled_on": "handling.handled_on.invalid", "follow_up_on": "handling.follow_up_on.invalid"}},
		{"ErrFollowUpBefore", api.CreateHandlingRequest{HandlingTypeID: e.htype, HandledOn: "2025-01-02", FollowUpOn: &before},
			map[string]string{"follow_up_on": "handling.follow_up_on.before"}},
		{"ErrNotes", api.CreateHandlingRequest{HandlingTypeID: e.htype, HandledOn: "2025-01-02", Notes: strings.Repeat("a", 5001)},
			map[string]string{"notes": "handling.notes.too_long"}},
		{"ErrTooManyParticipants", api.CreateHandlingRequest{HandlingTypeID: e.htype, HandledOn: "2025-01-02", Participants: many},
			map[string]string{"participants": "handling.participants.too_many"}},
		{"ErrParticipant", api.CreateHandlingRequest{HandlingTypeID: e.htype, HandledOn: "2025-01-02", Participants: []api.HandlingParticipant{
			{Name: "", Role: "Saksi"}, {Name: "Ani", Role: ""}, {Name: "Ani", Role: strings.Repeat("r", 51)},
			{Name: strings.Repeat("n", 151), Role: "Saksi"}, {UserID: &zero, Role: "Saksi"}}},
			map[string]string{"participants.0.name": "handling.participant.name_required", "participants.1.role": "handling.participant.role_required",
				"participants.2.role": "handling.participant.role_too_long", "participants.3.name": "handling.participant.name_too_long",
				"participants.4.user_id": "handling.participant.user_not_found"}},
		{"ErrUnknownUser", api.CreateHandlingRequest{HandlingTypeID: e.htype, HandledOn: "2025-01-02", Participants: []api.HandlingParticipant{
			{Name: "Ani", Role: "Saksi"}, {UserID: &ghost, Role: "Saksi"}}},
			map[string]string{"participants.1.user_id": "handling.participant.user_not_found"}},
		{"ErrUnknownType", api.CreateHandlingRequest{HandlingTypeID: 999999, HandledOn: "2025-01-02"}, map[string]string{"handling_type_id": "handling.type.not_found"}},
		{"ErrInactiveType", api.CreateHandlingRequest{HandlingTypeID: e.inactive, HandledOn: "2025-01-02"}, map[string]string{"handling_type_id": "handling.type.inactive"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := e.add(t, s.BK, v, c.in, http.StatusUnprocessableEntity).Err()
			for f, code := range c.want {
				if got := r.Error.FieldCodes[f].Code; got != code {
					t.Errorf("%s: %q, want %q (all: %+v)", f, got, code, r.Error.FieldCodes)
				}
			}
		})
	}
	// An inactive user cannot take part.
	inactive, _ := s.Env.CreateUser(perm.Staff)
	s.Env.DB.MustExec(`UPDATE users SET active = false WHERE id = $1`, inactive)
	r := e.add(t, s.BK, v, api.CreateHandlingRequest{HandlingTypeID: e.htype, HandledOn: "2025-01-02",
		Participants: []api.HandlingParticipant{{UserID: &inactive, Role: "Saksi"}}}, http.StatusUnprocessableEntity).Err()
	if r.Error.FieldCodes["participants.0.user_id"].Code != "handling.participant.user_not_found" {
		t.Errorf("inactive user: %+v", r.Error.FieldCodes)
	}
	// Nothing was written and the status did not move.
	if got := e.violation(t, s.BK, v); got.HandlingStatus != api.HandlingUnhandled || len(got.Handlings) != 0 {
		t.Errorf("after refusals: %s, %d records", got.HandlingStatus, len(got.Handlings))
	}
	e.add(t, s.BK, 999999, api.CreateHandlingRequest{HandlingTypeID: e.htype, HandledOn: "2025-01-02"}, http.StatusNotFound)
}

// A homeroom teacher handles their own class's violations only; another
// class's is 404, on every route.
func TestScope(t *testing.T) {
	e := newEnv(t)
	s := e.s
	mine := s.Violation(vltest.V{Student: e.budi})
	other := s.Violation(vltest.V{Student: e.dedi})
	body := api.CreateHandlingRequest{HandlingTypeID: e.htype, HandledOn: today()}
	e.add(t, s.TeacherA, mine, body, http.StatusCreated)
	e.add(t, s.TeacherA, other, body, http.StatusNotFound)
	var h api.Handling
	e.add(t, s.BK, other, body, http.StatusCreated).JSON(&h)
	// wali_kelas lacks handlings.delete/resolve/reopen by default; granted,
	// the scope still holds.
	s.TeacherA.Do("DELETE", fmt.Sprintf("/api/v1/handlings/%d", h.ID), nil).Want(http.StatusForbidden)
	for _, p := range []perm.Name{perm.HandlingsDelete, perm.HandlingsResolve, perm.HandlingsReopen} {
		s.Env.DB.MustExec(`INSERT INTO role_permissions (role, permission, granted) VALUES ('wali_kelas', $1, true)
			ON CONFLICT (role, permission) DO UPDATE SET granted = true`, string(p))
	}
	if err := s.Env.Deps.Auth.DropPermissionCache(t.Context()); err != nil {
		t.Fatal(err)
	}
	s.TeacherA.Do("DELETE", fmt.Sprintf("/api/v1/handlings/%d", h.ID), nil).Want(http.StatusNotFound)
	s.TeacherA.Do("POST", fmt.Sprintf("/api/v1/violations/%d/resolve", other), nil).Want(http.StatusNotFound)
	s.TeacherA.Do("POST", fmt.Sprintf("/api/v1/violations/%d/resolve", mine), nil).Want(http.StatusOK)
	s.TeacherA.Do("POST", fmt.Sprintf("/api/v1/violations/%d/reopen", other), nil).Want(http.StatusNotFound)
	s.TeacherA.Do("POST", fmt.Sprintf("/api/v1/violations/%d/reopen", mine), nil).Want(http.StatusOK)
	if got := e.violation(t, s.BK, other); got.HandlingStatus != api.HandlingInProgress || len(got.Handlings) != 1 {
		t.Errorf("other class's violation changed: %s", got.HandlingStatus)
	}
}

func TestForbidden(t *testing.T) {
	e := newEnv(t)
	s := e.s
	v := s.Violation(vltest.V{Student: e.budi})
	staff := s.Env.As(perm.Staff)
	head := s.Env.As(perm.KepalaSekolah)
	for _, c := range []*apitest.Client{staff, head} {
		e.add(t, c, v, api.CreateHandlingRequest{HandlingTypeID: e.htype, HandledOn: today()}, http.StatusForbidden)
		c.Do("POST", fmt.Sprintf("/api/v1/violations/%d/resolve", v), nil).Want(http.StatusForbidden)
		c.Do("POST", fmt.Sprintf("/api/v1/violations/%d/reopen", v), nil).Want(http.StatusForbidden)
		c.Do("DELETE", "/api/v1/handlings/1", nil).Want(http.StatusForbidden)
	}
	s.TeacherA.Do("POST", fmt.Sprintf("/api/v1/violations/%d/resolve", v), nil).Want(http.StatusForbidden)
	s.TeacherA.Do("POST", fmt.Sprintf("/api/v1/violations/%d/reopen", v), nil).Want(http.StatusForbidden)
}

// Concurrent first records and a concurrent delete of the last one leave
// the status true to the records: the violation row is locked.
func TestConcurrent(t *testing.T) {
	e := newEnv(t)
	s := e.s
	v := s.Violation(vltest.V{Student: e.budi})
	var wg sync.WaitGroup
	ids := make(chan int64, 10)
	for i := 0; i < 10; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var h api.Handling
			e.add(t, s.BK, v, api.CreateHandlingRequest{HandlingTypeID: e.htype, HandledOn: today()}, http.StatusCreated).JSON(&h)
			ids <- h.ID
		}()
	}
	wg.Wait()
	close(ids)
	if got := e.violation(t, s.BK, v); got.HandlingStatus != api.HandlingInProgress || len(got.Handlings) != 10 {
		t.Fatalf("after 10 records: %s, %d", got.HandlingStatus, len(got.Handlings))
	}
	for id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.BK.Do("DELETE", fmt.Sprintf("/api/v1/handlings/%d", id), nil).Want(http.StatusNoContent)
		}()
	}
	wg.Wait()
	if got := e.violation(t, s.BK, v); got.HandlingStatus != api.HandlingUnhandled || len(got.Handlings) != 0 {
		t.Fatalf("after deleting all: %s, %d", got.HandlingStatus, len(got.Handlings))
	}
}
