package notify_test

import (
	"context"
	"net/http"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/server/internal/notify"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/pg/pgtest"
	wire "github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

func notifiedUsers(t *testing.T, s *school, violationID int64) []int64 {
	t.Helper()
	var ids []int64
	if err := s.A.db.Select(&ids, `SELECT user_id FROM notifications WHERE violation_id = $1 ORDER BY user_id`, violationID); err != nil {
		t.Fatal(err)
	}
	return ids
}

func sorted(ids ...int64) []int64 {
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	return ids
}

func TestViolationRecipients(t *testing.T) {
	s := newSchool(t)
	e := s.A.Env
	bk := e.As(perm.BK)
	waka := e.As(perm.Waka)            // violations.view by default
	staff := e.As(perm.Staff)          // not by default: granted in the matrix below
	kepsek := e.As(perm.KepalaSekolah) // by default: withdrawn in the matrix below
	other := e.As(perm.Other)          // records, cannot see: gets their own only
	otherViewer := e.As(perm.Other)    // same role, not the recorder: nothing
	inactive := e.As(perm.BK)
	if _, err := s.A.db.Exec(`UPDATE users SET active = false WHERE id = $1`, inactive.UserID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.A.db.Exec(`INSERT INTO role_permissions (role, permission, granted) VALUES
		('staff', 'violations.view', true), ('kepala_sekolah', 'violations.view', false), ('other', 'violations.record', true)`); err != nil {
		t.Fatal(err)
	}
	if err := s.A.Deps.Auth.DropPermissionCache(context.Background()); err != nil {
		t.Fatal(err)
	}
	_ = otherViewer

	t.Run("ClassA", func(t *testing.T) {
		v := record(t, other, s.StudentA, s.TypeID)
		got := notifiedUsers(t, s, v)
		want := sorted(s.Admin.UserID, s.TeacherA.UserID, bk.UserID, waka.UserID, staff.UserID, other.UserID)
		if !equal(got, want) {
			t.Errorf("recipients %v, want %v (teacher B %d, kepsek %d, inactive %d)", got, want, s.TeacherB.UserID, kepsek.UserID, inactive.UserID)
		}
	})
	t.Run("StudentMovedClass", func(t *testing.T) {
		// The violation's class that day is A; the student is now in B:
		// both homeroom teachers see it.
		v := record(t, bk, s.StudentA, s.TypeID)
		if _, err := s.A.db.Exec(`UPDATE students SET class_id = $1 WHERE id = $2`, s.ClassB, s.StudentA); err != nil {
			t.Fatal(err)
		}
		defer s.A.db.Exec(`UPDATE students SET class_id = $1 WHERE id = $2`, s.ClassA, s.StudentA)
		v2 := record(t, bk, s.StudentA, s.TypeID)
		if got := notifiedUsers(t, s, v); contains(got, s.TeacherB.UserID) {
			t.Errorf("teacher B notified of a violation before the move: %v", got)
		}
		if _, err := s.A.db.Exec(`UPDATE violations SET class_id = $1 WHERE id = $2`, s.ClassA, v2); err != nil {
			t.Fatal(err)
		}
		if got := notifiedUsers(t, s, v2); !contains(got, s.TeacherB.UserID) {
			t.Errorf("teacher B (the student's class now) not notified: %v", got)
		}
	})
	t.Run("Texts", func(t *testing.T) {
		v := record(t, s.Admin, s.StudentB, s.TypeID)
		var page wire.Page[wire.Notification]
		s.TeacherB.Do("GET", "/api/v1/notifications", nil).Want(http.StatusOK).JSON(&page)
		if len(page.Data) == 0 {
			t.Fatal("teacher B has none")
		}
		n := page.Data[0]
		var typ string
		_ = s.A.db.Get(&typ, `SELECT name FROM violation_types WHERE id = $1`, s.TypeID)
		if n.Kind != wire.NotificationViolation || n.Title != "Pelanggaran baru: Citra Lestari (XI IPA 2)" ||
			!strings.HasPrefix(n.Body, typ+", ") || !strings.HasSuffix(n.Body, " poin") ||
			n.URL != "/violations/"+itoa(v) || n.ViolationID == nil || *n.ViolationID != v || n.ReadAt != nil {
			t.Errorf("notification %+v", n)
		}
		s.TeacherB.Do("GET", "/api/v1/notifications", nil, "Accept-Language", "en").Want(http.StatusOK).JSON(&page)
		if n := page.Data[0]; n.Title != "New violation: Citra Lestari (XI IPA 2)" || !strings.HasSuffix(n.Body, " points") {
			t.Errorf("English %+v", n)
		}
	})
}

func equal(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func contains(a []int64, v int64) bool {
	for _, x := range a {
		if x == v {
			return true
		}
	}
	return false
}

// AttendanceTx groups per recipient and date, counting what each may see.
func TestAttendanceGrouped(t *testing.T) {
	s := newSchool(t)
	bk := s.A.Env.As(perm.BK)
	ctx := context.Background()
	s2 := s.id(`INSERT INTO students (source_id, full_name, nisn, nis, class_id) VALUES (9003, 'Dewi', '0050000003', '2403', $1) RETURNING id`, s.ClassA)
	var ids []int64
	err := pg.InTx(ctx, s.A.db, func(tx *sqlx.Tx) error {
		for _, v := range []struct {
			student, class, typ int64
			kind                string
		}{{s.StudentA, s.ClassA, s.AlphaID, "alpha"}, {s2, s.ClassA, s.LateID, "late"}, {s.StudentB, s.ClassB, s.AlphaID, "alpha"}} {
			var id int64
			if err := tx.Get(&id, `INSERT INTO violations (student_id, class_id, class_name, violation_type_id, occurred_at, occurred_on,
				points, source, auto_kind, auto_hours) VALUES ($1, $2, (SELECT name FROM classes WHERE id = $2), $3,
				'2026-11-03 01:00Z', '2026-11-03', 5, 'attendance', $4, 1) RETURNING id`, v.student, v.class, v.typ, v.kind); err != nil {
				return err
			}
			ids = append(ids, id)
		}
		return notify.AttendanceTx(ctx, tx, ids, notify.SourceJournal, 0)
	})
	if err != nil {
		t.Fatal(err)
	}
	one := func(c *apitest.Client) wire.Notification {
		t.Helper()
		var page wire.Page[wire.Notification]
		c.Do("GET", "/api/v1/notifications", nil).Want(http.StatusOK).JSON(&page)
		if len(page.Data) != 1 {
			t.Fatalf("user %d has %d notifications", c.UserID, len(page.Data))
		}
		return page.Data[0]
	}
	n := one(bk)
	if n.Kind != wire.NotificationAttendance || n.Title != "Jurnal 2026-11-03: 2 alpha, 1 terlambat" ||
		n.URL != "/violations?from=2026-11-03&to=2026-11-03&source=attendance" || n.Params["class"] != nil {
		t.Errorf("bk: %+v", n)
	}
	n = one(s.TeacherA)
	if n.Title != "Jurnal 2026-11-03: 1 alpha, 1 terlambat" || n.Params["class"] != "XI IPA 1" || !strings.Contains(n.Body, "XI IPA 1") {
		t.Errorf("teacher A: %+v", n)
	}
	n = one(s.TeacherB)
	if n.Title != "Jurnal 2026-11-03: 1 alpha, 0 terlambat" {
		t.Errorf("teacher B: %+v", n)
	}

	// A day when student B was still in class A: both homeroom teachers
	// see it (that day's class and the current one), a homeroom teacher
	// without a class nobody's.
	teacherC := s.A.Env.As(perm.WaliKelas)
	err = pg.InTx(ctx, s.A.db, func(tx *sqlx.Tx) error {
		var id int64
		if err := tx.Get(&id, `INSERT INTO violations (student_id, class_id, class_name, violation_type_id, occurred_at, occurred_on,
			points, source, auto_kind, auto_hours) VALUES ($1, $2, 'XI IPA 1', $3, '2026-11-04 01:00Z', '2026-11-04', 5, 'attendance', 'alpha', 1)
			RETURNING id`, s.StudentB, s.ClassA, s.AlphaID); err != nil {
			return err
		}
		return notify.AttendanceTx(ctx, tx, []int64{id}, notify.SourceJournal, 0)
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []*apitest.Client{bk, s.TeacherA, s.TeacherB, teacherC} {
		var page wire.Page[wire.Notification]
		c.Do("GET", "/api/v1/notifications", nil).Want(http.StatusOK).JSON(&page)
		got := ""
		for _, n := range page.Data {
			if n.Params["date"] == "2026-11-04" {
				got = n.Title
			}
		}
		if want := "Jurnal 2026-11-04: 1 alpha, 0 terlambat"; (c == teacherC) != (got == "") || (got != "" && got != want) {
			t.Errorf("user %d: the moved student's day: %q", c.UserID, got)
		}
	}
}

func TestREST(t *testing.T) {
	s := newSchool(t)
	bk := s.A.Env.As(perm.BK)
	for range 25 {
		record(t, s.Admin, s.StudentA, s.TypeID)
	}
	var page wire.Page[wire.Notification]
	bk.Do("GET", "/api/v1/notifications", nil).Want(http.StatusOK).JSON(&page)
	if len(page.Data) != 20 || page.Meta.Total != 25 || page.Meta.LastPage != 2 || page.Data[0].ID < page.Data[19].ID {
		t.Fatalf("page 1: %d rows, %+v", len(page.Data), page.Meta)
	}
	newest := page.Data[0].ID
	bk.Do("GET", "/api/v1/notifications?page=2", nil).Want(http.StatusOK).JSON(&page)
	if len(page.Data) != 5 {
		t.Errorf("page 2: %d rows", len(page.Data))
	}
	unread := func(c *apitest.Client) int {
		var u wire.UnreadCount
		c.Do("GET", "/api/v1/notifications/unread-count", nil).Want(http.StatusOK).JSON(&u)
		return u.Count
	}
	if n := unread(bk); n != 25 {
		t.Errorf("unread %d", n)
	}
	var n wire.Notification
	bk.Do("POST", "/api/v1/notifications/"+itoa(newest)+"/read", nil).Want(http.StatusOK).JSON(&n)
	if n.ReadAt == nil || n.ID != newest {
		t.Errorf("read: %+v", n)
	}
	if n := unread(bk); n != 24 {
		t.Errorf("unread after one read %d", n)
	}
	t.Run("ErrAnotherUsers", func(t *testing.T) {
		e := s.TeacherB.Do("POST", "/api/v1/notifications/"+itoa(newest)+"/read", nil).Want(http.StatusNotFound).Err()
		if e.Error.MessageCode != "notify.not_found" {
			t.Errorf("code %q", e.Error.MessageCode)
		}
		if n := unread(s.Admin); n != 25 {
			t.Errorf("the recorder's own: %d", n)
		}
	})
	var u wire.UnreadCount
	bk.Do("POST", "/api/v1/notifications/read-all", nil).Want(http.StatusOK).JSON(&u)
	if u.Count != 0 || unread(bk) != 0 || unread(s.Admin) != 25 {
		t.Errorf("read-all: %d, bk %d, admin %d", u.Count, unread(bk), unread(s.Admin))
	}
	s.A.Env.Anonymous().Do("GET", "/api/v1/notifications", nil).Want(http.StatusUnauthorized)
}

// A client signed in on B receives what is recorded through A, catches up
// after B restarts, and a homeroom teacher of another class gets nothing.
func TestWebSocketAcrossReplicas(t *testing.T) {
	s := newSchool(t)
	b := newReplica(t, s.URL)
	bk := s.A.Env.As(perm.BK)
	onB := b.Env.Login(usernameOf(t, s, bk.UserID), "rahasia123")
	ws, _, err := dial(t, b, onB.Token, "?lang=en")
	if err != nil {
		t.Fatal(err)
	}
	if m := next(t, ws, wire.WSUnread, 2*time.Second); m.Count != 0 {
		t.Errorf("first unread %+v", m)
	}
	other, _, err := dial(t, b, s.TeacherB.Token, "")
	if err != nil {
		t.Fatal(err)
	}
	next(t, other, wire.WSUnread, 2*time.Second)
	recorder, _, err := dial(t, b, s.Admin.Token, "")
	if err != nil {
		t.Fatal(err)
	}
	next(t, recorder, wire.WSUnread, 2*time.Second)

	start := time.Now()
	v := record(t, s.Admin, s.StudentA, s.TypeID)
	m := next(t, ws, wire.WSNotification, time.Second)
	if took := time.Since(start); took > time.Second {
		t.Errorf("delivered after %v", took)
	}
	if m.URL != "/violations/"+itoa(v) || m.ID == "" || m.Title != "New violation: Budi Santoso (XI IPA 1)" || m.Kind != wire.NotificationViolation || m.CreatedAt == nil {
		t.Errorf("message %+v", m)
	}
	if u := next(t, ws, wire.WSUnread, time.Second); u.Count != 1 {
		t.Errorf("unread %+v", u)
	}
	if r := next(t, recorder, wire.WSNotification, time.Second); r.URL != m.URL || r.Title != "Pelanggaran baru: Budi Santoso (XI IPA 1)" {
		t.Errorf("the recorder's own: %+v", r)
	}
	quiet(t, other, 300*time.Millisecond)

	t.Run("ReadUpdatesOtherTabs", func(t *testing.T) {
		onB.Do("POST", "/api/v1/notifications/read-all", nil).Want(http.StatusOK)
		if u := next(t, ws, wire.WSUnread, time.Second); u.Count != 0 {
			t.Errorf("unread after read-all %+v", u)
		}
	})

	t.Run("CatchUpAfterRestart", func(t *testing.T) {
		b.Stop()
		_ = ws.SetReadDeadline(time.Now().Add(2 * time.Second))
		for {
			if _, _, err := ws.ReadMessage(); err != nil {
				if !websocket.IsCloseError(err, websocket.CloseGoingAway) {
					t.Errorf("closed with %v, want going away", err)
				}
				break
			}
		}
		v2 := record(t, s.Admin, s.StudentA, s.TypeID)
		b2 := newReplica(t, s.URL)
		ws2, _, err := dial(t, b2, onB.Token, "?after_id="+m.ID)
		if err != nil {
			t.Fatal(err)
		}
		got := next(t, ws2, wire.WSNotification, 5*time.Second)
		if got.URL != "/violations/"+itoa(v2) {
			t.Errorf("catch-up %+v", got)
		}
		if u := next(t, ws2, wire.WSUnread, time.Second); u.Count != 1 {
			t.Errorf("unread %+v", u)
		}
		// More than five missed: one summary. Each recording's live
		// notification is read before the next recording: on a busy machine
		// the hub may fetch several at once, and more than five in one
		// delivery is (by design) one summary, not seven messages.
		for range 7 {
			record(t, s.Admin, s.StudentA, s.TypeID)
			next(t, ws2, wire.WSNotification, 10*time.Second)
		}
		ws3, _, err := dial(t, b2, onB.Token, "?after_id="+got.ID)
		if err != nil {
			t.Fatal(err)
		}
		sum := next(t, ws3, wire.WSSummary, 5*time.Second)
		if sum.Count != 7 || sum.LastID == "" || sum.URL != "/notifications" || sum.Title != "7 notifikasi baru" {
			t.Errorf("summary %+v", sum)
		}
	})
}

func usernameOf(t testing.TB, s *school, id int64) string {
	t.Helper()
	var u string
	if err := s.A.db.Get(&u, `SELECT username FROM users WHERE id = $1`, id); err != nil {
		t.Fatal(err)
	}
	return u
}

// cookieLogin signs in through the browser's path and returns the session
// cookie.
func cookieLogin(t *testing.T, r *replica, username string) string {
	t.Helper()
	res := r.Env.Anonymous().Do("POST", "/api/v1/auth/login", map[string]string{"username": username, "password": "rahasia123"}).Want(http.StatusOK)
	for _, c := range (&http.Response{Header: res.Header}).Cookies() {
		if c.Name == "tatib_session" {
			return c.Name + "=" + c.Value
		}
	}
	t.Fatal("no session cookie")
	return ""
}

func TestWebSocketOrigin(t *testing.T) {
	s := newSchool(t)
	bk := s.A.Env.As(perm.BK)
	cookie := cookieLogin(t, s.A, usernameOf(t, s, bk.UserID))
	own := s.A.ts.URL
	cases := []struct {
		name   string
		token  string
		header []string
		want   int
	}{
		{"ErrCookieCrossSite", "", []string{"Cookie", cookie, "Origin", "https://evil.example"}, http.StatusForbidden},
		{"ErrCookieNoOrigin", "", []string{"Cookie", cookie}, http.StatusForbidden},
		{"CookieOwnOrigin", "", []string{"Cookie", cookie, "Origin", own}, http.StatusSwitchingProtocols},
		{"BearerWails", bk.Token, []string{"Origin", "wails://wails"}, http.StatusSwitchingProtocols},
		{"BearerWailsLocalhost", bk.Token, []string{"Origin", "wails://wails.localhost:34115"}, http.StatusSwitchingProtocols},
		{"BearerNoOrigin", bk.Token, nil, http.StatusSwitchingProtocols},
		{"ErrBearerOtherSite", bk.Token, []string{"Origin", "https://evil.example"}, http.StatusForbidden},
		{"ErrAnonymous", "", []string{"Origin", own}, http.StatusUnauthorized},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			conn, res, err := dial(t, s.A, c.token, "", c.header...)
			if res == nil {
				t.Fatalf("no answer: %v", err)
			}
			if res.StatusCode != c.want {
				t.Errorf("status %d, want %d", res.StatusCode, c.want)
			}
			if conn != nil {
				next(t, conn, wire.WSUnread, 2*time.Second)
			}
		})
	}
}

// Sign-out and deactivation close that user's sockets on every replica.
func TestWebSocketSessionEnd(t *testing.T) {
	s := newSchool(t)
	b := newReplica(t, s.URL)
	bk := s.A.Env.As(perm.BK)
	wsB, _, err := dial(t, b, bk.Token, "")
	if err != nil {
		t.Fatal(err)
	}
	next(t, wsB, wire.WSUnread, 2*time.Second)
	waitClosed := func(c *websocket.Conn) {
		t.Helper()
		_ = c.SetReadDeadline(time.Now().Add(2 * time.Second))
		for {
			_, _, err := c.ReadMessage()
			if err == nil {
				continue
			}
			if !websocket.IsCloseError(err, notify.CloseSessionEnded) {
				t.Errorf("closed with %v, want %d", err, notify.CloseSessionEnded)
			}
			return
		}
	}
	t.Run("SignOut", func(t *testing.T) {
		bk.Do("POST", "/api/v1/auth/logout", nil).Want(http.StatusNoContent, http.StatusOK)
		waitClosed(wsB)
	})
	t.Run("Deactivation", func(t *testing.T) {
		wali := s.A.Env.As(perm.BK)
		ws, _, err := dial(t, b, wali.Token, "")
		if err != nil {
			t.Fatal(err)
		}
		next(t, ws, wire.WSUnread, 2*time.Second)
		s.Admin.Do("PATCH", "/api/v1/users/"+itoa(wali.UserID), map[string]any{"active": false}).Want(http.StatusOK)
		waitClosed(ws)
	})
}

// One session may hold MaxSocketsPerSession sockets on a replica; the next
// one closes the oldest with CloseTooMany, and the newest keep working
// (issue 25: a guest session opened 3,000).
func TestWebSocketCapPerSession(t *testing.T) {
	s := newSchool(t)
	b := newReplica(t, s.URL)
	guest := s.A.Env.As(perm.Other)
	var conns []*websocket.Conn
	for range notify.MaxSocketsPerSession + 1 {
		ws, _, err := dial(t, b, guest.Token, "")
		if err != nil {
			t.Fatal(err)
		}
		next(t, ws, wire.WSUnread, 2*time.Second)
		conns = append(conns, ws)
	}
	_ = conns[0].SetReadDeadline(time.Now().Add(2 * time.Second))
	for {
		_, _, err := conns[0].ReadMessage()
		if err == nil {
			continue
		}
		if !websocket.IsCloseError(err, notify.CloseTooMany) {
			t.Fatalf("the oldest closed with %v, want %d", err, notify.CloseTooMany)
		}
		break
	}
	deadline := time.Now().Add(2 * time.Second)
	for b.Env.API.Hub.Sockets() != notify.MaxSocketsPerSession && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := b.Env.API.Hub.Sockets(); n != notify.MaxSocketsPerSession {
		t.Fatalf("%d sockets open, want %d", n, notify.MaxSocketsPerSession)
	}
	// The newest still gets its messages (a ping answered: the read loop runs).
	if err := conns[len(conns)-1].WriteControl(websocket.PingMessage, nil, time.Now().Add(time.Second)); err != nil {
		t.Fatalf("newest socket: %v", err)
	}
}

// The function notify_violations (migration 00191, replaced by 00197)
// runs violationsSQL: a change of one without the other is a new
// migration forgotten.
func TestViolationsFunctionIsViolationsSQL(t *testing.T) {
	db := pgtest.New(t)
	var src string
	if err := db.Get(&src, `SELECT prosrc FROM pg_proc WHERE proname = 'notify_violations'`); err != nil {
		t.Fatal(err)
	}
	if norm := func(s string) string { return strings.Join(strings.Fields(s), " ") }; !strings.Contains(norm(src), norm(notify.ViolationsSQL)) {
		t.Fatalf("notify_violations does not run violationsSQL; replace it in a new migration:\n%s", src)
	}
}
