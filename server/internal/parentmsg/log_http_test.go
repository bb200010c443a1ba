package parentmsg_test

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/server/internal/parentmsg"
	"github.com/tatib/tatib/server/internal/violation/vltest"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

var apiJakarta = func() *time.Location {
	l, err := time.LoadLocation("Asia/Jakarta")
	if err != nil {
		panic(err)
	}
	return l
}()

// apiMsg is a message row to insert.
type apiMsg struct {
	Student int64
	Event   string
	Status  string
	Phone   string
	Answer  string
	At      time.Time
}

// apiInsert stores m as the outbox would have and returns its id.
func apiInsert(t *testing.T, s *vltest.School, m apiMsg) int64 {
	t.Helper()
	if m.Event == "" {
		m.Event = api.ParentEventViolation
	}
	if m.Status == "" {
		m.Status = api.ParentMessageQueued
	}
	if m.Phone == "" && m.Status != api.ParentMessageSkipped {
		m.Phone = "6281234567890"
	}
	if m.At.IsZero() {
		m.At = time.Now()
	}
	skip := ""
	if m.Status == api.ParentMessageSkipped {
		skip = "no_phone"
	}
	// Each message has its cause, as the outbox writes it.
	var violation, letter, handling any
	switch m.Event {
	case api.ParentEventViolation:
		violation = s.Violation(vltest.V{Student: m.Student})
	case api.ParentEventSummons:
		handling = s.Handling(s.Violation(vltest.V{Student: m.Student}), "2026-03-12")
	case api.ParentEventWarningLetter:
		var id int64
		err := s.Env.DB.Get(&id, `INSERT INTO warning_letters (student_id, class_name, level, name, min_points, academic_year_start, points)
			VALUES ($1, '', (SELECT COALESCE(max(level), 0) + 1 FROM warning_letters WHERE student_id = $1), 'SP', 0, '2025-07-01', 0) RETURNING id`, m.Student)
		if err != nil {
			t.Fatal(err)
		}
		letter = id
	}
	var id int64
	err := s.Env.DB.Get(&id, `INSERT INTO parent_messages (student_id, event, violation_id, letter_id, handling_id, parent_name, phone_raw, phone,
			body, status, skip_reason, attempts, last_answer, created_at)
		VALUES ($1, $2, $8, $9, $10, 'Ibu Sari', $3, $3, 'Yth. Bapak/Ibu', $4, $5, CASE WHEN $4 = 'failed' THEN 3 ELSE 0 END, $6, $7) RETURNING id`,
		m.Student, m.Event, m.Phone, m.Status, skip, m.Answer, m.At, violation, letter, handling)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func apiList(t *testing.T, c *apitest.Client, query string) api.ParentMessageList {
	t.Helper()
	var out api.ParentMessageList
	c.Do("GET", "/api/v1/parent-messages"+query, nil).Want(http.StatusOK).JSON(&out)
	return out
}

func apiIDs(l api.ParentMessageList) []int64 {
	out := []int64{}
	for _, m := range l.Data {
		out = append(out, m.ID)
	}
	return out
}

func TestDeliveryLog(t *testing.T) {
	t.Parallel()
	s := vltest.New(t)
	env := s.Env
	budi := s.Student("Budi Santoso", "0051234567", "2401", s.ClassA)
	eko := s.Student("Eko Prasetyo", "0050000002", "2404", s.ClassB)
	day := func(d string, h int) time.Time {
		t, err := time.ParseInLocation("2006-01-02 15", fmt.Sprintf("%s %02d", d, h), apiJakarta)
		if err != nil {
			panic(err)
		}
		return t
	}
	// 2026-03-10 00:30 Jakarta is still 2026-03-09 in UTC: the day filter
	// is Jakarta's.
	sent := apiInsert(t, s, apiMsg{Student: budi, Status: "sent", At: day("2026-03-10", 0), Answer: `{"target":["6281234567890"],"status":true}`})
	failed := apiInsert(t, s, apiMsg{Student: budi, Status: "failed", Event: "warning_letter", At: day("2026-03-11", 9)})
	queued := apiInsert(t, s, apiMsg{Student: eko, Status: "queued", Event: "summons", At: day("2026-03-12", 9)})
	skipped := apiInsert(t, s, apiMsg{Student: eko, Status: "skipped", At: day("2026-03-09", 23)})
	env.DB.MustExec(`INSERT INTO parent_message_attempts (message_id, outcome, http_status, answer, gateway) VALUES
		($1, 'temporary', 500, 'error for 6281234567890', 'fonnte'), ($1, 'sent', 200, 'ok', 'fonnte')`, sent)

	kepsek := env.As(perm.KepalaSekolah)
	staff := env.As(perm.Staff)

	t.Run("ErrForbidden", func(t *testing.T) {
		staff.Do("GET", "/api/v1/parent-messages", nil).Want(http.StatusForbidden)
		staff.Do("GET", fmt.Sprintf("/api/v1/parent-messages/%d", sent), nil).Want(http.StatusForbidden)
		for _, c := range []*apitest.Client{staff, kepsek, s.TeacherA} {
			c.Do("POST", fmt.Sprintf("/api/v1/parent-messages/%d/retry", failed), nil).Want(http.StatusForbidden)
			c.Do("POST", fmt.Sprintf("/api/v1/parent-messages/%d/cancel", queued), nil).Want(http.StatusForbidden)
			c.Do("POST", "/api/v1/parent-messages/retry-failed", nil).Want(http.StatusForbidden)
		}
	})

	t.Run("OKNewestFirstWithCounts", func(t *testing.T) {
		l := apiList(t, s.BK, "")
		if fmt.Sprint(apiIDs(l)) != fmt.Sprint([]int64{queued, failed, sent, skipped}) {
			t.Fatalf("order %v", apiIDs(l))
		}
		want := map[string]int{"queued": 1, "sent": 1, "failed": 1, "cancelled": 0, "skipped": 1}
		if fmt.Sprint(l.Counts) != fmt.Sprint(want) || l.Meta.Total != 4 || l.Meta.PerPage != 50 || l.PausedUntil != nil {
			t.Fatalf("counts %v meta %+v", l.Counts, l.Meta)
		}
		if l.Data[0].ClassName != "XI TKJ 1" || l.Data[0].StudentName != "Eko Prasetyo" || l.Data[0].NextAttemptAt == nil || l.Data[1].NextAttemptAt != nil {
			t.Fatalf("row %+v", l.Data[0])
		}
		// The status filter leaves the counts over the other filters.
		l = apiList(t, s.BK, "?status=failed")
		if fmt.Sprint(apiIDs(l)) != fmt.Sprint([]int64{failed}) || l.Counts["sent"] != 1 || l.Meta.Total != 1 {
			t.Fatalf("status filter %v %v", apiIDs(l), l.Counts)
		}
	})

	t.Run("OKFilters", func(t *testing.T) {
		cases := map[string][]int64{
			"?event=warning_letter":                               {failed},
			fmt.Sprintf("?student_id=%d", eko):                    {queued, skipped},
			fmt.Sprintf("?class_id=%d", s.ClassA):                 {failed, sent},
			"?from=2026-03-10&to=2026-03-10":                      {sent},
			"?from=2026-03-11":                                    {queued, failed},
			"?to=2026-03-09":                                      {skipped},
			fmt.Sprintf("?class_id=%d&event=violation", s.ClassB): {skipped},
		}
		for q, want := range cases {
			if got := apiIDs(apiList(t, s.BK, q)); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s: %v, want %v", q, got, want)
			}
		}
	})

	t.Run("ErrFilters", func(t *testing.T) {
		for q, field := range map[string]string{"?status=lost": "status", "?event=birthday": "event", "?student_id=x": "student_id",
			"?class_id=0": "class_id", "?from=10-03-2026": "from", "?from=2026-03-11&to=2026-03-10": "to", "?page=0": "page"} {
			e := s.BK.Do("GET", "/api/v1/parent-messages"+q, nil).Want(http.StatusUnprocessableEntity).Err()
			if _, ok := e.Error.FieldCodes[field]; !ok {
				t.Errorf("%s: %+v", q, e.Error.FieldCodes)
			}
		}
	})

	t.Run("OKMaskingPerRole", func(t *testing.T) {
		full := apiList(t, s.BK, "")
		for _, m := range full.Data {
			if m.PhoneMasked || (m.Status != "skipped" && m.Phone != "6281234567890") {
				t.Fatalf("bk sees %+v", m)
			}
		}
		for _, c := range []*apitest.Client{kepsek, s.TeacherA} {
			res := c.Do("GET", "/api/v1/parent-messages", nil).Want(http.StatusOK)
			res2 := c.Do("GET", fmt.Sprintf("/api/v1/parent-messages/%d", sent), nil).Want(http.StatusOK)
			for _, b := range [][]byte{res.Body, res2.Body} {
				if strings.Contains(string(b), "6281234567890") {
					t.Fatalf("%s sees a full number: %s", c.Role, b)
				}
			}
			var d api.ParentMessageDetail
			res2.JSON(&d)
			if !d.PhoneMasked || d.Phone != "62812•••••890" || !strings.Contains(d.LastAnswer, "62812•••••890") ||
				len(d.AttemptLog) != 2 || d.AttemptLog[0].Answer != "error for 62812•••••890" {
				t.Fatalf("%s detail %+v", c.Role, d)
			}
		}
	})

	t.Run("OKHomeroomScope", func(t *testing.T) {
		l := apiList(t, s.TeacherA, "")
		if fmt.Sprint(apiIDs(l)) != fmt.Sprint([]int64{failed, sent}) || l.Counts["queued"] != 0 || l.Meta.Total != 2 {
			t.Fatalf("teacher A sees %v %v", apiIDs(l), l.Counts)
		}
		s.TeacherA.Do("GET", fmt.Sprintf("/api/v1/parent-messages/%d", queued), nil).Want(http.StatusNotFound)
		s.TeacherA.Do("GET", fmt.Sprintf("/api/v1/parent-messages?class_id=%d", s.ClassB), nil).Want(http.StatusNotFound)
		s.TeacherA.Do("GET", fmt.Sprintf("/api/v1/parent-messages?student_id=%d", eko), nil).Want(http.StatusOK)
		if got := apiIDs(apiList(t, s.TeacherA, fmt.Sprintf("?student_id=%d", eko))); len(got) != 0 {
			t.Fatalf("another class's student: %v", got)
		}
		var d api.ParentMessageDetail
		s.TeacherB.Do("GET", fmt.Sprintf("/api/v1/parent-messages/%d", queued), nil).Want(http.StatusOK).JSON(&d)
		if d.ID != queued {
			t.Fatalf("%+v", d)
		}
		// A student who moved class leaves the old teacher's log.
		env.DB.MustExec(`UPDATE students SET class_id = $2 WHERE id = $1`, eko, s.ClassA)
		defer env.DB.MustExec(`UPDATE students SET class_id = $2 WHERE id = $1`, eko, s.ClassB)
		s.TeacherB.Do("GET", fmt.Sprintf("/api/v1/parent-messages/%d", queued), nil).Want(http.StatusNotFound)
		if l := apiList(t, s.TeacherA, ""); l.Meta.Total != 4 {
			t.Fatalf("after the move %v", apiIDs(l))
		}
	})

	t.Run("OKPaused", func(t *testing.T) {
		env.DB.MustExec(`UPDATE messaging_state SET paused_until = now() + interval '10 minutes', pause_reason = 'rate_limited'`)
		defer env.DB.MustExec(`UPDATE messaging_state SET paused_until = NULL, pause_reason = ''`)
		l := apiList(t, kepsek, "")
		if l.PausedUntil == nil || l.PauseReason != "rate_limited" {
			t.Fatalf("pause %v %q", l.PausedUntil, l.PauseReason)
		}
	})

	t.Run("ErrNotFound", func(t *testing.T) {
		s.BK.Do("GET", "/api/v1/parent-messages/999999", nil).Want(http.StatusNotFound)
		s.BK.Do("POST", "/api/v1/parent-messages/999999/retry", nil).Want(http.StatusNotFound)
		s.BK.Do("POST", "/api/v1/parent-messages/999999/cancel", nil).Want(http.StatusNotFound)
	})
}

func TestDeliveryLogPages(t *testing.T) {
	t.Parallel()
	s := vltest.New(t)
	budi := s.Student("Budi Santoso", "0051234567", "2401", s.ClassA)
	s.Env.DB.MustExec(`INSERT INTO parent_messages (student_id, event, body, status, created_at)
		SELECT $1, 'violation', 'x', 'sent', now() - g * interval '1 minute' FROM generate_series(1, 120) g`, budi)
	l := apiList(t, s.BK, "?page=3")
	if len(l.Data) != 20 || l.Meta.Total != 120 || l.Meta.LastPage != 3 || l.Meta.Page != 3 {
		t.Fatalf("page 3: %d rows %+v", len(l.Data), l.Meta)
	}
	if l := apiList(t, s.BK, "?page=4"); len(l.Data) != 0 || l.Meta.Total != 120 {
		t.Fatalf("page 4: %d rows %+v", len(l.Data), l.Meta)
	}
}

func TestRetryCancel(t *testing.T) {
	t.Parallel()
	s := vltest.New(t)
	env := s.Env
	budi := s.Student("Budi Santoso", "0051234567", "2401", s.ClassA)
	eko := s.Student("Eko Prasetyo", "0050000002", "2404", s.ClassB)
	env.DB.MustExec(`UPDATE students SET parent_name = 'Ibu Sari', parent_phone = '0812-9999-0000' WHERE id = $1`, budi)
	bk := s.BK
	path := func(id int64, action string) string { return fmt.Sprintf("/api/v1/parent-messages/%d/%s", id, action) }
	status := func(id int64) (st string, attempts int) {
		row := env.DB.QueryRow(`SELECT status, attempts FROM parent_messages WHERE id = $1`, id)
		if err := row.Scan(&st, &attempts); err != nil {
			t.Fatal(err)
		}
		return st, attempts
	}

	t.Run("ErrRetryState", func(t *testing.T) {
		for _, st := range []string{"queued", "sent"} {
			id := apiInsert(t, s, apiMsg{Student: budi, Status: st})
			e := bk.Do("POST", path(id, "retry"), nil).Want(http.StatusConflict).Err()
			if e.Error.MessageCode != "parentmsg.retry.state" {
				t.Fatalf("%s: %+v", st, e.Error)
			}
			if got, _ := status(id); got != st {
				t.Fatalf("%s became %s", st, got)
			}
		}
	})

	t.Run("ErrCancelState", func(t *testing.T) {
		for _, st := range []string{"sent", "failed", "cancelled", "skipped"} {
			id := apiInsert(t, s, apiMsg{Student: budi, Status: st})
			e := bk.Do("POST", path(id, "cancel"), nil, "Accept-Language", "en").Want(http.StatusConflict).Err()
			if e.Error.MessageCode != "parentmsg.cancel.state" || !strings.Contains(e.Error.Message, st) {
				t.Fatalf("%s: %+v", st, e.Error)
			}
		}
	})

	t.Run("OKRetryRereadsPhone", func(t *testing.T) {
		for _, st := range []string{"failed", "cancelled", "skipped"} {
			id := apiInsert(t, s, apiMsg{Student: budi, Status: st})
			var d api.ParentMessageDetail
			bk.Do("POST", path(id, "retry"), nil).Want(http.StatusOK).JSON(&d)
			if d.Status != "queued" || d.Attempts != 0 || d.Phone != "6281299990000" || d.SkipReason != "" || d.NextAttemptAt == nil {
				t.Fatalf("%s retried: %+v", st, d.ParentMessage)
			}
			if d.NextAttemptAt.After(time.Now().Add(time.Minute)) {
				t.Fatalf("not due now: %v", d.NextAttemptAt)
			}
		}
	})

	t.Run("ErrRetryNoPhone", func(t *testing.T) {
		id := apiInsert(t, s, apiMsg{Student: eko, Status: "skipped"})
		e := bk.Do("POST", path(id, "retry"), nil).Want(http.StatusConflict).Err()
		if e.Error.MessageCode != "parentmsg.retry.no_phone" {
			t.Fatalf("%+v", e.Error)
		}
		env.DB.MustExec(`UPDATE students SET parent_phone = '021-5551234' WHERE id = $1`, eko)
		e = bk.Do("POST", path(id, "retry"), nil, "Accept-Language", "en").Want(http.StatusConflict).Err()
		if !strings.Contains(e.Error.Message, "landline") {
			t.Fatalf("%+v", e.Error)
		}
		if got, _ := status(id); got != "skipped" {
			t.Fatalf("became %s", got)
		}
	})

	t.Run("ErrRetryGone", func(t *testing.T) {
		// What caused the message was undone: the worker would cancel it
		// again, so retry says so instead.
		for _, ev := range []string{"violation", "summons", "warning_letter"} {
			id := apiInsert(t, s, apiMsg{Student: budi, Status: "failed", Event: ev})
			switch ev {
			case "violation":
				env.DB.MustExec(`DELETE FROM violations WHERE id = (SELECT violation_id FROM parent_messages WHERE id = $1)`, id)
			case "summons":
				env.DB.MustExec(`DELETE FROM handlings WHERE id = (SELECT handling_id FROM parent_messages WHERE id = $1)`, id)
			default:
				env.DB.MustExec(`UPDATE warning_letters SET status = 'withdrawn' WHERE id = (SELECT letter_id FROM parent_messages WHERE id = $1)`, id)
			}
			e := bk.Do("POST", path(id, "retry"), nil).Want(http.StatusConflict).Err()
			if e.Error.MessageCode != "parentmsg.retry.gone" {
				t.Fatalf("%s: %+v", ev, e.Error)
			}
			bk.Do("POST", "/api/v1/parent-messages/retry-failed", nil).Want(http.StatusOK)
			if got, _ := status(id); got != "failed" {
				t.Fatalf("%s: retry-failed made it %s", ev, got)
			}
		}
	})

	t.Run("OKCancel", func(t *testing.T) {
		id := apiInsert(t, s, apiMsg{Student: budi, Status: "queued"})
		var d api.ParentMessageDetail
		bk.Do("POST", path(id, "cancel"), nil).Want(http.StatusOK).JSON(&d)
		if d.Status != "cancelled" {
			t.Fatalf("%+v", d.ParentMessage)
		}
		var by *int64
		if err := env.DB.Get(&by, `SELECT cancelled_by FROM parent_messages WHERE id = $1`, id); err != nil || by == nil || *by != bk.UserID {
			t.Fatalf("cancelled_by %v %v", by, err)
		}
	})

	t.Run("Audited", func(t *testing.T) {
		var n int
		if err := env.DB.Get(&n, `SELECT count(*) FROM audit_log WHERE action IN ('parent_message.retry', 'parent_message.cancel')`); err != nil {
			t.Fatal(err)
		}
		if n != 4 {
			t.Fatalf("%d audit entries, want 4", n)
		}
	})

	t.Run("RaceOneWins", func(t *testing.T) {
		race := func(id int64, actions ...string) (wins []string) {
			var mu sync.Mutex
			var wg sync.WaitGroup
			for _, a := range actions {
				wg.Add(1)
				go func() {
					defer wg.Done()
					c := env.Session(bk.UserID, perm.BK)
					res := c.Do("POST", path(id, a), nil).Want(http.StatusOK, http.StatusConflict)
					if res.Status == http.StatusOK {
						mu.Lock()
						wins = append(wins, a)
						mu.Unlock()
					}
				}()
			}
			wg.Wait()
			return wins
		}
		failed := apiInsert(t, s, apiMsg{Student: budi, Status: "failed"})
		if wins := race(failed, "retry", "retry", "retry", "retry", "retry", "retry"); len(wins) != 1 {
			t.Fatalf("retries won %d times", len(wins))
		}
		queued := apiInsert(t, s, apiMsg{Student: budi, Status: "queued"})
		if wins := race(queued, "cancel", "cancel", "cancel", "cancel", "cancel", "cancel"); len(wins) != 1 {
			t.Fatalf("cancels won %d times", len(wins))
		}
		// Retry against cancel on a queued message: the successes can only
		// alternate (queued → cancelled → queued …), whatever the
		// interleaving; the final state is the last transition's.
		for range 5 {
			id := apiInsert(t, s, apiMsg{Student: budi, Status: "queued"})
			wins := race(id, "cancel", "retry", "cancel", "retry")
			cancels, retries := 0, 0
			for _, w := range wins {
				if w == "cancel" {
					cancels++
				} else {
					retries++
				}
			}
			st, _ := status(id)
			want := "queued"
			if cancels == retries+1 {
				want = "cancelled"
			} else if cancels != retries {
				t.Fatalf("wins %v: not alternating", wins)
			}
			if cancels == 0 || st != want {
				t.Fatalf("wins %v, status %s", wins, st)
			}
			var audited int
			if err := env.DB.Get(&audited, `SELECT count(*) FROM audit_log WHERE entity = 'parent_message' AND entity_id = $1`, fmt.Sprint(id)); err != nil {
				t.Fatal(err)
			}
			if audited != len(wins) {
				t.Fatalf("wins %v, %d audit entries", wins, audited)
			}
		}
	})

	t.Run("OKRetryFailed", func(t *testing.T) {
		env.DB.MustExec(`UPDATE parent_messages SET status = 'sent' WHERE status = 'failed'`)
		a := apiInsert(t, s, apiMsg{Student: budi, Status: "failed"})
		b := apiInsert(t, s, apiMsg{Student: budi, Status: "failed"})
		noPhone := apiInsert(t, s, apiMsg{Student: eko, Status: "failed"})
		var out struct {
			Count int `json:"count"`
		}
		bk.Do("POST", "/api/v1/parent-messages/retry-failed", nil).Want(http.StatusOK).JSON(&out)
		if out.Count != 2 {
			t.Fatalf("count %d", out.Count)
		}
		for id, want := range map[int64]string{a: "queued", b: "queued", noPhone: "failed"} {
			if got, attempts := status(id); got != want || (want == "queued" && attempts != 0) {
				t.Fatalf("%d: %s (%d attempts), want %s", id, got, attempts, want)
			}
		}
		bk.Do("POST", "/api/v1/parent-messages/retry-failed", nil).Want(http.StatusOK).JSON(&out)
		if out.Count != 0 {
			t.Fatalf("again: %d", out.Count)
		}
	})
}

func TestPreview(t *testing.T) {
	t.Parallel()
	s := vltest.New(t)
	env := s.Env
	admin := env.As(perm.Admin)
	env.DB.MustExec(`INSERT INTO settings (key, value) VALUES ('school', '{"name": "SMK Negeri 1 Contoh", "academic_year_start": "07-01"}')`)
	budi := s.Student("Budi Santoso", "0051234567", "2401", s.ClassA)
	env.DB.MustExec(`UPDATE students SET parent_name = 'Ibu Sari', parent_phone = '0812-9999-0000' WHERE id = $1`, budi)
	at := time.Date(2026, 3, 10, 7, 15, 0, 0, apiJakarta)
	s.Violation(vltest.V{Student: budi, At: at.AddDate(0, 0, -5), Points: 10})
	v := s.Violation(vltest.V{Student: budi, At: at, Type: s.TypeHeavy, Points: 40})
	env.DB.MustExec(`INSERT INTO warning_letters (student_id, class_id, class_name, level, name, min_points, academic_year_start, points, violation_id, issued_at)
		VALUES ($1, $2, 'X RPL 1', 1, 'SP 1', 40, '2025-07-01', 50, $3, '2026-03-11 09:00+07')`, budi, s.ClassA, v)
	ht := env.DB.QueryRow(`INSERT INTO handling_types (name, summons_parent) VALUES ('Panggil Orang Tua Uji', true) RETURNING id`)
	var typeID int64
	if err := ht.Scan(&typeID); err != nil {
		t.Fatal(err)
	}
	env.DB.MustExec(`INSERT INTO handlings (violation_id, handling_type_id, handled_on, follow_up_on) VALUES ($1, $2, '2026-03-12', '2026-03-14')`, v, typeID)

	var every strings.Builder
	for _, p := range parentmsg.Placeholders {
		every.WriteString(p + "={" + p + "};")
	}
	preview := func(event string, student int64) api.MessagingPreview {
		t.Helper()
		var out api.MessagingPreview
		admin.Do("POST", "/api/v1/settings/messaging/preview", map[string]any{"event": event, "template": every.String(), "student_id": student}).
			Want(http.StatusOK).JSON(&out)
		if strings.ContainsAny(out.Text, "{}") {
			t.Fatalf("%s: a placeholder left: %s", event, out.Text)
		}
		return out
	}
	common := "nama_siswa=Budi Santoso;nis=2401;nisn=0051234567;kelas=X RPL 1;nama_orang_tua=Ibu Sari;"

	t.Run("OKViolation", func(t *testing.T) {
		out := preview("violation", budi)
		want := common + "jenis_pelanggaran=Berkelahi;poin=40;total_poin=50;level_sp=;tanggal=10 Maret 2026;tanggal_panggilan=10 Maret 2026;nama_sekolah=SMK Negeri 1 Contoh;jenis_prestasi=;tingkat=;"
		if out.Text != want || out.Phone != "6281299990000" || out.PhoneIssue != "" || out.StudentName != "Budi Santoso" {
			t.Fatalf("\n got %s\nwant %s\n%+v", out.Text, want, out)
		}
	})
	t.Run("OKLetter", func(t *testing.T) {
		out := preview("warning_letter", budi)
		want := common + "jenis_pelanggaran=Berkelahi;poin=40;total_poin=50;level_sp=SP 1;tanggal=11 Maret 2026;tanggal_panggilan=11 Maret 2026;nama_sekolah=SMK Negeri 1 Contoh;jenis_prestasi=;tingkat=;"
		if out.Text != want {
			t.Fatalf("\n got %s\nwant %s", out.Text, want)
		}
	})
	t.Run("OKSummons", func(t *testing.T) {
		out := preview("summons", budi)
		want := common + "jenis_pelanggaran=Berkelahi;poin=40;total_poin=50;level_sp=SP 1;tanggal=12 Maret 2026;tanggal_panggilan=14 Maret 2026;nama_sekolah=SMK Negeri 1 Contoh;jenis_prestasi=;tingkat=;"
		if out.Text != want {
			t.Fatalf("\n got %s\nwant %s", out.Text, want)
		}
	})
	t.Run("OKExampleValues", func(t *testing.T) {
		citra := s.Student("Citra Lestari", "0057654321", "2402", s.ClassB)
		env.DB.MustExec(`UPDATE students SET parent_phone = '021-5551234' WHERE id = $1`, citra)
		out := preview("summons", citra)
		if out.Values["jenis_pelanggaran"] == "" || out.Values["poin"] != "5" || out.Values["level_sp"] != "SP 1" || out.Values["kelas"] != "XI TKJ 1" ||
			out.Values["total_poin"] != "0" || out.Values["tanggal"] == "" {
			t.Fatalf("%+v", out.Values)
		}
		if out.Phone != "" || out.PhoneIssue == "" {
			t.Fatalf("phone %q issue %q", out.Phone, out.PhoneIssue)
		}
	})
	t.Run("ErrFields", func(t *testing.T) {
		for _, c := range []struct {
			body  map[string]any
			field string
			code  string
		}{
			{map[string]any{"event": "birthday", "template": "x", "student_id": budi}, "event", "parentmsg.event.choose"},
			{map[string]any{"event": "violation", "template": "Halo {nama}", "student_id": budi}, "template", "parentmsg.template.unknown"},
			{map[string]any{"event": "violation", "template": " ", "student_id": budi}, "template", "parentmsg.template.required"},
			{map[string]any{"event": "violation", "template": "x"}, "student_id", "parentmsg.preview.student_required"},
		} {
			e := admin.Do("POST", "/api/v1/settings/messaging/preview", c.body).Want(http.StatusUnprocessableEntity).Err()
			if e.Error.FieldCodes[c.field].Code != c.code {
				t.Errorf("%v: %+v", c.body, e.Error.FieldCodes)
			}
		}
		admin.Do("POST", "/api/v1/settings/messaging/preview", map[string]any{"event": "violation", "template": "x", "student_id": 999999}).Want(http.StatusNotFound)
	})
}
