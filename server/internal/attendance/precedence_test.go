package attendance_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/tatib/tatib/server/internal/attendance"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

// journalToken generates the journal token as an admin.
func (s *school) journalToken(t *testing.T) string {
	t.Helper()
	var tok api.JournalToken
	s.env.As(perm.Admin).Do("POST", "/api/v1/settings/journal-token", nil).Want(http.StatusOK).JSON(&tok)
	return tok.Token
}

// push sends the journal's hours 1..n of one student's day (statuses in
// order) through POST /attendance/sync.
func (s *school) push(t *testing.T, token string, student int64, date string, statuses ...string) api.AttendanceResult {
	t.Helper()
	var source int64
	must(t, s.env.DB.Get(&source, `SELECT source_id FROM students WHERE id = $1`, student))
	list := make([]map[string]any, len(statuses))
	for i, st := range statuses {
		list[i] = map[string]any{"source_student_id": source, "date": date, "lesson_hour": i + 1, "status": st, "notes": nil}
	}
	var out api.JournalSyncResponse
	s.env.Anonymous().Do("POST", "/api/v1/attendance/sync", map[string]any{"token": token, "attendances": list}).
		Want(http.StatusOK).JSON(&out)
	return out.Results
}

// formEntries is a save's entries: status for each hour of each student.
func formEntries(status string, hours int, students ...int64) []entry {
	var out []entry
	for _, st := range students {
		for h := 1; h <= hours; h++ {
			out = append(out, entry{"student_id": st, "lesson_hour": h, "status": status})
		}
	}
	return out
}

func repeat(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}

// statuses is a student's stored day, hours in order ("SSSA…").
func (s *school) statuses(t *testing.T, student int64, date string) string {
	t.Helper()
	var out string
	must(t, s.env.DB.Get(&out, `SELECT COALESCE(string_agg(status, '' ORDER BY lesson_hour), '') FROM attendance
		WHERE student_id = $1 AND date = $2`, student, date))
	return out
}

// Scenario (a) of issue 22: the journal pushes A for hours 1–10, the
// homeroom teacher saves S (a doctor's note), the journal re-pushes the
// same day: S stands, no alpha violation comes back, the push counts and
// logs what it kept, the form shows the difference, and only the
// teacher's explicit choice brings the journal's A in.
func TestJournalRepushKeepsPersonsEntry(t *testing.T) {
	s := newSchool(t)
	st := s.student(t, s.classA)
	d := today()
	token := s.journalToken(t)

	if res := s.push(t, token, st, d, repeat("alpha", 10)...); res.Created != 10 || res.ViolationsCreated != 1 {
		t.Fatalf("first push %+v", res)
	}
	// The teacher's S over the journal's A needs the confirmation.
	save := map[string]any{"entries": formEntries("S", 10, st)}
	e := s.wali.Do("PUT", formPath(s.classA, d), save).Want(http.StatusConflict).Err()
	if e.Error.MessageCode != "attendance.confirm_required" || s.statuses(t, st, d) != "AAAAAAAAAA" {
		t.Fatalf("save without confirm: %+v, stored %s", e.Error, s.statuses(t, st, d))
	}
	save["confirm"] = true
	var saved api.SaveAttendanceResponse
	s.wali.Do("PUT", formPath(s.classA, d), save).Want(http.StatusOK).JSON(&saved)
	if saved.Results.Updated != 10 || saved.Results.ViolationsRemoved != 1 || saved.Form.Students[0].Cells[0].SetBy != api.SetByUser {
		t.Fatalf("save %+v %+v", saved.Results, saved.Form.Students[0].Cells[0])
	}

	again := s.push(t, token, st, d, repeat("alpha", 10)...)
	if again.KeptByPerson != 10 || again.Created+again.Updated+again.Unchanged != 0 || again.ViolationsCreated != 0 {
		t.Errorf("re-push %+v", again)
	}
	if got := s.statuses(t, st, d); got != "SSSSSSSSSS" || len(s.autos(t, st, d, api.AutoAlpha)) != 0 {
		t.Errorf("after the re-push: %s, alpha %+v", got, s.autos(t, st, d, api.AutoAlpha))
	}
	// The push log names what it kept.
	var pushes struct{ Data []api.JournalPush }
	s.env.As(perm.Admin).Do("GET", "/api/v1/settings/journal-pushes", nil, "Accept-Language", "en").Want(http.StatusOK).JSON(&pushes)
	kept := pushes.Data[0].Kept
	if pushes.Data[0].Results.KeptByPerson != 10 || len(kept) != 10 || kept[0].JournalStatus != "A" || kept[0].Status != "S" ||
		!strings.HasPrefix(kept[0].Text, "kept: set by Pengguna walikelas") {
		t.Errorf("push log %+v", pushes.Data[0])
	}
	// The form shows the difference to the homeroom teacher.
	var f api.AttendanceForm
	s.wali.Do("GET", formPath(s.classA, d), nil).Want(http.StatusOK).JSON(&f)
	if len(f.JournalConflicts) != 10 || f.JournalConflicts[0].JournalStatus != "A" || f.JournalConflicts[0].Status != "S" ||
		f.JournalConflicts[0].SetByName == "" || f.JournalConflicts[0].PushedAt.IsZero() {
		t.Fatalf("conflicts %+v", f.JournalConflicts)
	}
	// A replay is a no-op: nothing stored, the conflicts as they were.
	var pushedAt string
	must(t, s.env.DB.Get(&pushedAt, `SELECT max(pushed_at)::text FROM attendance_journal_conflicts`))
	if r := s.push(t, token, st, d, repeat("alpha", 10)...); r.KeptByPerson != 10 || r.Created+r.Updated+r.ViolationsCreated != 0 {
		t.Errorf("replay %+v", r)
	}
	var pushedAt2 string
	must(t, s.env.DB.Get(&pushedAt2, `SELECT max(pushed_at)::text FROM attendance_journal_conflicts`))
	if pushedAt2 != pushedAt {
		t.Errorf("replay rewrote the conflicts: %s → %s", pushedAt, pushedAt2)
	}

	// keep: the notice of hour 10 goes, S stays.
	var kept10 api.SaveAttendanceResponse
	s.wali.Do("POST", formPath(s.classA, d)+"/journal-conflicts", map[string]any{"action": "keep",
		"cells": []entry{{"student_id": st, "lesson_hour": 10}}}).Want(http.StatusOK).JSON(&kept10)
	if len(kept10.Form.JournalConflicts) != 9 || s.statuses(t, st, d) != "SSSSSSSSSS" {
		t.Errorf("keep: %d conflicts, %s", len(kept10.Form.JournalConflicts), s.statuses(t, st, d))
	}
	// A push that agrees with the stored status settles hour 9's.
	s.push(t, token, st, d, append(repeat("alpha", 8), "sakit")...)
	if n := s.count(t, `SELECT count(*) FROM attendance_journal_conflicts`); n != 8 {
		t.Errorf("%d conflicts after a push agreeing on hour 9, want 8", n)
	}
	// use_journal: the teacher takes the journal's A for hours 1–8, as
	// their own entry, and the alpha violation follows (round(15 × 8 / 10)).
	cells := make([]entry, 8)
	for i := range cells {
		cells[i] = entry{"student_id": st, "lesson_hour": i + 1}
	}
	var used api.SaveAttendanceResponse
	s.wali.Do("POST", formPath(s.classA, d)+"/journal-conflicts", map[string]any{"action": "use_journal", "cells": cells}).
		Want(http.StatusOK).JSON(&used)
	alpha := s.autos(t, st, d, api.AutoAlpha)
	if s.statuses(t, st, d) != "AAAAAAAASS" || used.Results.Updated != 8 || len(used.Form.JournalConflicts) != 0 ||
		len(alpha) != 1 || alpha[0].Points != 12 || alpha[0].RecordedBy == nil || *alpha[0].RecordedBy != s.wali.UserID {
		t.Errorf("use_journal: %s %+v %+v", s.statuses(t, st, d), used.Results, alpha)
	}
	if c := used.Form.Students[0].Cells[0]; c.SetBy != api.SetByUser || c.UpdatedBy == "" {
		t.Errorf("use_journal cell %+v", c)
	}
	if n := s.count(t, `SELECT count(*) FROM audit_log WHERE action IN ('attendance.journal_conflicts.keep', 'attendance.journal_conflicts.use_journal')`); n != 2 {
		t.Errorf("%d conflict decisions audited, want 2", n)
	}
}

// Scenario (b) of issue 22: a bulk save over the journal's cells is
// refused without confirmation; the preview's figures are exactly what
// the confirmed save then does.
func TestBulkSaveNeedsConfirmation(t *testing.T) {
	s := newSchool(t)
	a1, a2, a3 := s.student(t, s.classA), s.student(t, s.classA), s.student(t, s.classA)
	d := today()
	token := s.journalToken(t)
	s.push(t, token, a1, d, "izin", "izin", "izin", "izin")
	s.push(t, token, a2, d, "alpha", "alpha", "terlambat", "hadir")
	// Another user (a counselor) set a3's first hour; a kiosk a3's second.
	s.bk.Do("PUT", formPath(s.classA, d), map[string]any{"entries": []entry{{"student_id": a3, "lesson_hour": 1, "status": "S"}}}).
		Want(http.StatusOK)
	s.apply(t, attendance.Origin{Kiosk: "Gerbang", Actor: audit.Actor{Name: "kiosk"}}, attendance.Entry{StudentID: a3, Date: d, LessonHour: 2, Status: "T"})
	// The teacher's own cell is theirs to change without asking.
	s.wali.Do("PUT", formPath(s.classA, d), map[string]any{"entries": []entry{{"student_id": a3, "lesson_hour": 3, "status": "A"}}}).
		Want(http.StatusOK)
	s.wali.Do("PUT", formPath(s.classA, d), map[string]any{"entries": []entry{{"student_id": a3, "lesson_hour": 3, "status": "H"}}}).
		Want(http.StatusOK)

	// "Semua jadi H" over everything, four hours.
	bulk := map[string]any{"entries": formEntries("H", 4, a1, a2, a3)}
	var p api.AttendancePreview
	s.wali.Do("POST", formPath(s.classA, d)+"/preview", bulk).Want(http.StatusOK).JSON(&p)
	// a1: 4 I (journal); a2: A, A, T (journal; its H unchanged); a3: S
	// (the counselor), T (the kiosk), H (the teacher's own, unchanged),
	// hour 4 new. Removed: a2's alpha and late, a3's late.
	want := api.AttendancePreview{CellsChanged: 9, CellsFromJournal: 7, CellsFromKiosk: 1, CellsFromOthers: 1,
		ViolationsRemoved: 3, Letters: []api.LetterChange{}, NeedsConfirmation: true}
	if p.CellsChanged != want.CellsChanged || p.CellsFromJournal != want.CellsFromJournal || p.CellsFromKiosk != want.CellsFromKiosk ||
		p.CellsFromOthers != want.CellsFromOthers || p.ViolationsRemoved != want.ViolationsRemoved || p.ViolationsCreated != 0 ||
		p.ViolationsUpdated != 0 || p.NeedsConfirmation != want.NeedsConfirmation || p.Letters == nil || len(p.Letters) != 0 {
		t.Errorf("preview %+v, want %+v", p, want)
	}
	if got := s.statuses(t, a1, d) + "|" + s.statuses(t, a2, d) + "|" + s.statuses(t, a3, d); got != "IIII|AATH|STH" {
		t.Fatalf("the preview stored something: %s", got)
	}
	e := s.wali.Do("PUT", formPath(s.classA, d), bulk).Want(http.StatusConflict).Err()
	if e.Error.MessageCode != "attendance.confirm_required" || e.Error.Params["journal"] != float64(7) {
		t.Errorf("without confirm: %+v", e.Error)
	}
	bulk["confirm"] = true
	var before int64
	must(t, s.env.DB.Get(&before, `SELECT max(id) FROM audit_log`))
	var out api.SaveAttendanceResponse
	s.wali.Do("PUT", formPath(s.classA, d), bulk).Want(http.StatusOK).JSON(&out)
	if out.Results.Updated != p.CellsChanged || out.Results.ViolationsRemoved != p.ViolationsRemoved ||
		out.Results.ViolationsCreated != p.ViolationsCreated || out.Results.Created != 1 || out.Results.Unchanged != 2 || out.Letters == nil {
		t.Errorf("confirmed save %+v, preview %+v", out.Results, p)
	}
	if got := s.statuses(t, a1, d) + "|" + s.statuses(t, a2, d) + "|" + s.statuses(t, a3, d); got != "HHHH|HHHH|HHHH" {
		t.Errorf("stored %s", got)
	}
	// Each removed automatic violation has its own audit entry naming the
	// save's entry and the saver.
	var removed []struct {
		EntityID string `db:"entity_id"`
		ActorID  int64  `db:"actor_id"`
		By       string `db:"by"`
		Batch    int64  `db:"batch"`
		Action   string `db:"batch_action"`
	}
	must(t, s.env.DB.Select(&removed, `SELECT l.entity_id, l.actor_id, l.details->>'by' AS by, (l.details->>'batch_audit_id')::bigint AS batch,
		b.action AS batch_action
		FROM audit_log l JOIN audit_log b ON b.id = (l.details->>'batch_audit_id')::bigint
		WHERE l.action = 'violation.auto_delete' AND l.entity = 'violation' AND l.id > $1 ORDER BY l.id`, before))
	if len(removed) != 3 || removed[0].ActorID != s.wali.UserID || removed[0].By != "attendance.record" || removed[0].Action != "attendance.record" {
		t.Errorf("removal audit %+v", removed)
	}
	for _, r := range removed {
		if n := s.count(t, `SELECT count(*) FROM violations WHERE id = $1::bigint`, r.EntityID); n != 0 {
			t.Errorf("violation %s audited as removed but still there", r.EntityID)
		}
	}
	// The audit log finds it by the violation's id.
	if len(removed) > 0 {
		var page struct{ Data []audit.Entry }
		s.env.As(perm.Admin).Do("GET", "/api/v1/audit-log?entity=violation&entity_id="+removed[0].EntityID, nil).Want(http.StatusOK).JSON(&page)
		if len(page.Data) != 1 || page.Data[0].Action != "violation.auto_delete" || page.Data[0].EntityID != removed[0].EntityID {
			t.Errorf("audit log of violation %s: %+v", removed[0].EntityID, page.Data)
		}
	}
}

// Scenario (c) of issue 22: a student near a threshold. The journal's A
// issues SP 1; the teacher's save that withdraws it names it in the
// answer and notifies the counselors and the homeroom teacher; the
// withdrawal is audited by the letter's id.
func TestSaveNamesAndNotifiesLetters(t *testing.T) {
	s := newSchool(t)
	st := s.student(t, s.classA)
	d := today()
	head := s.env.As(perm.KepalaSekolah)
	var typeID int64
	must(t, s.env.DB.Get(&typeID, `INSERT INTO violation_types (name, slug, points, category_id)
		VALUES ('Berkelahi', 'berkelahi', 40, (SELECT id FROM violation_categories ORDER BY id LIMIT 1)) RETURNING id`))
	must(t, s.env.DB.Get(new(int64), `INSERT INTO violations (student_id, class_id, violation_type_id, occurred_at, occurred_on, points)
		VALUES ($1, $2, $3, now(), $4, 40) RETURNING id`, st, s.classA, typeID, d))
	token := s.journalToken(t)
	if res := s.push(t, token, st, d, repeat("alpha", 10)...); res.LettersIssued != 1 { // 40 + 15 ≥ 50
		t.Fatalf("push %+v", res)
	}
	var letterID int64
	must(t, s.env.DB.Get(&letterID, `SELECT id FROM warning_letters WHERE student_id = $1 AND status = 'draft'`, st))
	notified := func(change string) map[int64]bool {
		var users []int64
		must(t, s.env.DB.Select(&users, `SELECT user_id FROM notifications WHERE kind = 'letter' AND params->>'change' = $1
			AND (params->>'letter_id')::bigint = $2`, change, letterID))
		out := map[int64]bool{}
		for _, u := range users {
			out[u] = true
		}
		return out
	}
	if n := notified(api.LetterChangeIssued); len(n) != 2 || !n[s.bk.UserID] || !n[s.wali.UserID] {
		t.Errorf("issue notified %v", n)
	}

	// The preview of the save that withdraws it names it.
	save := map[string]any{"entries": formEntries("S", 10, st), "confirm": true}
	var p api.AttendancePreview
	s.wali.Do("POST", formPath(s.classA, d)+"/preview", save).Want(http.StatusOK).JSON(&p)
	wantLetter := api.LetterChange{ID: letterID, StudentID: st, StudentName: "", Level: 1, Name: "SP 1", Change: api.LetterChangeWithdrawn}
	must(t, s.env.DB.Get(&wantLetter.StudentName, `SELECT full_name FROM students WHERE id = $1`, st))
	if len(p.Letters) != 1 || p.Letters[0] != wantLetter {
		t.Errorf("preview letters %+v, want %+v", p.Letters, wantLetter)
	}
	var out api.SaveAttendanceResponse
	s.wali.Do("PUT", formPath(s.classA, d), save).Want(http.StatusOK).JSON(&out)
	if out.Results.LettersWithdrawn != 1 || len(out.Letters) != 1 || out.Letters[0] != wantLetter {
		t.Errorf("save %+v letters %+v", out.Results, out.Letters)
	}
	n := notified(api.LetterChangeWithdrawn)
	if len(n) != 2 || !n[s.bk.UserID] || !n[s.wali.UserID] || n[head.UserID] {
		t.Errorf("withdrawal notified %v (bk %d, wali %d)", n, s.bk.UserID, s.wali.UserID)
	}
	var list struct{ Data []api.Notification }
	s.bk.Do("GET", "/api/v1/notifications", nil, "Accept-Language", "en").Want(http.StatusOK).JSON(&list)
	if len(list.Data) == 0 || list.Data[0].Kind != api.NotificationLetter || !strings.HasPrefix(list.Data[0].Title, "SP 1 withdrawn: ") ||
		list.Data[0].URL == "" {
		t.Errorf("bk's newest notification %+v", list.Data)
	}
	if n := s.count(t, `SELECT count(*) FROM audit_log WHERE action = 'warning_letter.withdraw' AND entity = 'warning_letter'
		AND entity_id = $1 AND actor_id = $2 AND details->>'by' = 'attendance.record'`, letterID, s.wali.UserID); n != 1 {
		t.Errorf("%d withdrawal audit entries for letter %d", n, letterID)
	}

	// Back to A by the teacher: a new SP 1, named with id 0 in the preview.
	back := map[string]any{"entries": formEntries("A", 10, st)}
	s.wali.Do("POST", formPath(s.classA, d)+"/preview", back).Want(http.StatusOK).JSON(&p)
	if len(p.Letters) != 1 || p.Letters[0].ID != 0 || p.Letters[0].Change != api.LetterChangeIssued || p.NeedsConfirmation {
		t.Errorf("preview of an issue %+v", p)
	}
	s.wali.Do("PUT", formPath(s.classA, d), back).Want(http.StatusOK).JSON(&out)
	if len(out.Letters) != 1 || out.Letters[0].ID == 0 || out.Letters[0].Change != api.LetterChangeIssued {
		t.Errorf("issue answer %+v", out.Letters)
	}
}

// Machines keep a person's cells: a kiosk scan, and the journal over an
// approved excuse; S and I a person set never turn into A by a machine.
func TestMachinesKeepPersonsCells(t *testing.T) {
	s := newSchool(t)
	st := s.student(t, s.classA)
	form := attendance.Origin{UserID: s.wali.UserID, Actor: audit.Actor{ID: s.wali.UserID, Name: "wali"}}
	excuse := attendance.Origin{Excuse: true, UserID: s.wali.UserID, Actor: audit.Actor{ID: s.wali.UserID, Name: "wali"}}
	kiosk := attendance.Origin{Kiosk: "Gerbang", Actor: audit.Actor{Name: "kiosk"}}
	s.apply(t, form, hours(st, day, "S")...)
	s.apply(t, excuse, attendance.Entry{StudentID: st, Date: day, LessonHour: 2, Status: "I"})
	if res := s.apply(t, kiosk, attendance.Entry{StudentID: st, Date: day, LessonHour: 1, Status: "T"}); res.KeptByPerson != 1 || res.Updated != 0 {
		t.Errorf("kiosk over a person's S: %+v", res)
	}
	res := s.apply(t, journal, hours(st, day, "A", "A", "A")...)
	if res.KeptByPerson != 2 || res.Created != 1 || s.statuses(t, st, day) != "SIA" {
		t.Errorf("journal over S and an excused I: %+v %s", res, s.statuses(t, st, day))
	}
	// The kiosk leaves no notice; the journal's two do. The day counts
	// count what is stored.
	if n := s.count(t, `SELECT count(*) FROM attendance_journal_conflicts`); n != 2 {
		t.Errorf("%d conflicts, want the journal's 2", n)
	}
	var a, sick, excused int
	must(t, s.env.DB.QueryRow(`SELECT a, s, i FROM attendance_days WHERE student_id = $1`, st).Scan(&a, &sick, &excused))
	if a != 1 || sick != 1 || excused != 1 {
		t.Errorf("days a=%d s=%d i=%d", a, sick, excused)
	}
	if v := s.autos(t, st, day, api.AutoAlpha); len(v) != 1 || v[0].Hours != 1 {
		t.Errorf("alpha %+v, want 1 hour", v)
	}
	checkConsistent(t, s)
	// The journal still overwrites a kiosk's cell (machine after machine).
	s.apply(t, kiosk, attendance.Entry{StudentID: st, Date: day, LessonHour: 5, Status: "H"})
	if res := s.apply(t, journal, attendance.Entry{StudentID: st, Date: day, LessonHour: 5, Status: "T"}); res.Updated != 1 {
		t.Errorf("journal over a kiosk's cell %+v", res)
	}
}

// The new routes need attendance.record and, for a homeroom teacher,
// their own class; bad requests are named.
func TestPrecedenceRoutesScope(t *testing.T) {
	s := newSchool(t)
	a1 := s.student(t, s.classA)
	b1 := s.student(t, s.classB)
	d := today()
	body := map[string]any{"entries": []entry{{"student_id": a1, "lesson_hour": 1, "status": "H"}}}
	decide := map[string]any{"action": "keep", "cells": []entry{{"student_id": a1, "lesson_hour": 1}}}
	for _, role := range []perm.Role{perm.KepalaSekolah, perm.Staff} {
		c := s.env.As(role)
		c.Do("POST", formPath(s.classA, d)+"/preview", body).Want(http.StatusForbidden)
		c.Do("POST", formPath(s.classA, d)+"/journal-conflicts", decide).Want(http.StatusForbidden)
	}
	// Another class: 404 for the homeroom teacher, even with a real
	// conflict there.
	token := s.journalToken(t)
	s.bk.Do("PUT", formPath(s.classB, d), map[string]any{"entries": []entry{{"student_id": b1, "lesson_hour": 1, "status": "S"}}}).Want(http.StatusOK)
	if r := s.push(t, token, b1, d, "alpha"); r.KeptByPerson != 1 {
		t.Fatalf("push %+v", r)
	}
	other := map[string]any{"action": "use_journal", "cells": []entry{{"student_id": b1, "lesson_hour": 1}}}
	s.wali.Do("POST", formPath(s.classB, d)+"/preview", map[string]any{"entries": []entry{{"student_id": b1, "lesson_hour": 1, "status": "A"}}}).
		Want(http.StatusNotFound)
	s.wali.Do("POST", formPath(s.classB, d)+"/journal-conflicts", other).Want(http.StatusNotFound)
	// Nor through their own class's path.
	e := s.wali.Do("POST", formPath(s.classA, d)+"/journal-conflicts", other).Want(http.StatusUnprocessableEntity).Err()
	if e.Error.FieldCodes["cells[0]"].Code != "attendance.conflicts.not_found" {
		t.Errorf("another class's cell: %+v", e.Error.FieldCodes)
	}
	if got := s.statuses(t, b1, d); got != "S" {
		t.Errorf("class B's cell %s", got)
	}
	e = s.wali.Do("POST", formPath(s.classA, d)+"/journal-conflicts", map[string]any{"action": "keep",
		"cells": []entry{{"student_id": a1, "lesson_hour": 1 << 20}}}).Want(http.StatusUnprocessableEntity).Err()
	if e.Error.FieldCodes["cells[0]"].Code != "attendance.conflicts.not_found" {
		t.Errorf("hour out of range: %+v", e.Error)
	}
	e = s.wali.Do("POST", formPath(s.classA, d)+"/journal-conflicts", map[string]any{"action": "overwrite", "cells": []entry{}}).
		Want(http.StatusUnprocessableEntity).Err()
	if e.Error.FieldCodes["action"].Code != "attendance.conflicts.action" || e.Error.FieldCodes["cells"].Code != "attendance.conflicts.cells_required" {
		t.Errorf("bad decision: %+v", e.Error.FieldCodes)
	}
	// The counselor decides it.
	var out api.SaveAttendanceResponse
	s.bk.Do("POST", formPath(s.classB, d)+"/journal-conflicts", other).Want(http.StatusOK).JSON(&out)
	if got := s.statuses(t, b1, d); got != "A" || out.Results.Updated != 1 {
		t.Errorf("counselor's use_journal: %s %+v", got, out.Results)
	}
	// A preview with a bad entry is refused like the save.
	e = s.wali.Do("POST", formPath(s.classA, d)+"/preview", map[string]any{"entries": []entry{{"student_id": a1, "lesson_hour": 99, "status": "H"}}}).
		Want(http.StatusUnprocessableEntity).Err()
	if e.Error.FieldCodes["entries[0].lesson_hour"].Code != "attendance.lesson_hour.range" {
		t.Errorf("bad preview: %+v", e.Error.FieldCodes)
	}
}
