package letter_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/tatib/tatib/server/internal/letter"
	"github.com/tatib/tatib/server/internal/parentmsg"
	"github.com/tatib/tatib/server/internal/parentmsg/worker/outboxtest"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

// TestSend: POST /warning-letters/{id}/send marks a letter sent to the
// parent and queues its message once per letter and level; the school may
// send on print instead.
func TestSend(t *testing.T) {
	t.Parallel()
	f := setup(t)
	outboxtest.Configure(t, f.env.DB, "http://127.0.0.1:9", nil)
	messages := func(id int64) int {
		var n int
		must(t, f.env.DB.Get(&n, `SELECT count(*) FROM parent_messages WHERE letter_id = $1 AND event = 'warning_letter'`, id))
		return n
	}
	path := func(id int64) string { return "/api/v1/warning-letters/" + strconv.FormatInt(id, 10) + "/send" }
	at := time.Now().Add(-time.Hour)

	t.Run("OK", func(t *testing.T) {
		st := f.student(t, "Fajar Nugroho", "0041", f.classA)
		id := f.letter(t, st, f.classA, 1, 55, at)
		var l letter.Letter
		f.bk.Do("POST", path(id), nil).Want(200).JSON(&l)
		if l.SentToParentAt == nil || l.SentLevel == nil || *l.SentLevel != 1 || l.Status != api.LetterDraft || messages(id) != 1 {
			t.Fatalf("sent %+v, %d messages", l, messages(id))
		}
		if n := len(l.Events); n == 0 || l.Events[n-1].Status != api.LetterEventSent || l.Events[n-1].Level == nil || *l.Events[n-1].Level != 1 {
			t.Fatalf("history %+v", l.Events)
		}
		e := f.bk.Do("POST", path(id), nil, "Accept-Language", "en").Want(409).Err()
		if e.Error.MessageCode != "letter.send.already" || messages(id) != 1 {
			t.Fatalf("second send %+v, %d messages", e.Error, messages(id))
		}
		// Raised since: its new level may be sent, once more.
		f.env.DB.MustExec(`UPDATE warning_letters SET level = 2, levels_covered = '{1,2}', name = 'SP 1–2' WHERE id = $1`, id)
		f.bk.Do("POST", path(id), nil).Want(200)
		if messages(id) != 2 {
			t.Fatalf("%d messages after the raise", messages(id))
		}
		var n int
		must(t, f.env.DB.Get(&n, `SELECT count(*) FROM audit_log WHERE action = 'warning_letter.send' AND entity_id = $1`, strconv.FormatInt(id, 10)))
		if n != 2 {
			t.Fatalf("%d audit entries", n)
		}
	})
	t.Run("ErrWithdrawn", func(t *testing.T) {
		st := f.student(t, "Gita Permata", "0042", f.classA)
		id := f.letter(t, st, f.classA, 1, 55, at)
		f.env.DB.MustExec(`UPDATE warning_letters SET status = 'withdrawn' WHERE id = $1`, id)
		if e := f.bk.Do("POST", path(id), nil).Want(409).Err(); e.Error.MessageCode != "letter.send.withdrawn" || messages(id) != 0 {
			t.Fatalf("%+v", e.Error)
		}
	})
	t.Run("PermissionAndScope", func(t *testing.T) {
		a := f.student(t, "Hana Lestari", "0043", f.classA)
		b := f.student(t, "Indra Wijaya", "0044", f.classB)
		la := f.letter(t, a, f.classA, 1, 55, at)
		lb := f.letter(t, b, f.classB, 1, 55, at)
		f.wali.Do("POST", path(la), nil).Want(403) // warning_letters.manage is the counselors'
		f.env.As(perm.Other).Do("POST", path(la), nil).Want(403)
		f.env.Anonymous().Do("POST", path(la), nil).Want(401)
		f.bk.Do("POST", path(999999), nil).Want(404)
		// A homeroom teacher granted the permission sends their class's
		// letters only.
		grants := append(perm.Defaults(perm.WaliKelas), perm.WarningLettersManage)
		f.admin.Do("PUT", "/api/v1/roles/wali_kelas/permissions", map[string]any{"permissions": grants}).Want(200)
		f.wali.Do("POST", path(lb), nil).Want(404)
		f.wali.Do("POST", path(la), nil).Want(200)
		if messages(lb) != 0 || messages(la) != 1 {
			t.Fatalf("messages %d, %d", messages(la), messages(lb))
		}
	})
	t.Run("OnPrint", func(t *testing.T) {
		outboxtest.Configure(t, f.env.DB, "http://127.0.0.1:9", func(s *parentmsg.Settings) { s.Events.WarningLetter.SendOn = api.LetterSendOnPrinted })
		st := f.student(t, "Joko Susilo", "0045", f.classA)
		id := f.letter(t, st, f.classA, 1, 55, at)
		var l letter.Letter
		f.bk.Do("POST", "/api/v1/warning-letters/"+strconv.FormatInt(id, 10)+"/status", map[string]string{"status": "printed"}).Want(200).JSON(&l)
		if l.SentLevel == nil || messages(id) != 1 {
			t.Fatalf("printed: %+v, %d messages", l, messages(id))
		}
	})
}
