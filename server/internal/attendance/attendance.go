// Package attendance stores lesson-hour attendance (the class form and the
// journal's pushes go through ApplyTx) and keeps the per-day counts and the
// automatic alpha and late violations in step with it. See
// docs/attendance.md.
package attendance

import (
	"strings"

	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/notify"
	"github.com/tatib/tatib/shared/api"
)

// Entry is one cell to store; Date is "YYYY-MM-DD" (a Jakarta school day),
// already validated.
type Entry struct {
	StudentID  int64
	Date       string
	LessonHour int
	Status     string
	Notes      string
}

// Origin says who stores. Journal: recorded_by of automatic violations is
// NULL and from_journal is true; otherwise UserID is the form's saver
// (violations.recorded_by, attendance.updated_by; 0 for a kiosk's scan).
//
// The journal and a kiosk are machines: they never overwrite a cell a
// person (the form, an excuse) set last with another status; the entry is
// counted kept_by_person instead (see docs/attendance.md, "A person's entry
// beats a machine's").
type Origin struct {
	Journal bool
	UserID  int64
	Actor   audit.Actor
	// Kiosk is the gate kiosk's name when a Face-ID scan (or its
	// confirmation) stores: the audit action is attendance.face and the
	// notification's source face.
	Kiosk string
	// Excuse: an approved parent's excuse stores (a person's entry; UserID
	// is who approved it).
	Excuse bool
	// PushID is the journal push being applied (0: none): the audit
	// entries of what it removed name it.
	PushID int64
}

// setBy is attendance.set_by for the origin's cells.
func (o Origin) setBy() string {
	switch {
	case o.Journal:
		return api.SetByJournal
	case o.Kiosk != "":
		return api.SetByKiosk
	case o.Excuse:
		return api.SetByExcuse
	}
	return api.SetByUser
}

// action is the audit action of the origin's batches.
func (o Origin) action() string {
	switch {
	case o.Journal:
		return "attendance.sync"
	case o.Kiosk != "":
		return "attendance.face"
	case o.Excuse:
		return "attendance.excuse"
	}
	return "attendance.record"
}

// source is the notifications' source of the origin's batches.
func (o Origin) source() string {
	switch {
	case o.Journal:
		return notify.SourceJournal
	case o.Kiosk != "":
		return notify.SourceFace
	}
	return notify.SourceForm
}

// statusWords maps every accepted spelling (lower case) to its code: the
// codes themselves, the Indonesian words the deployed E-Jurnal sends and
// the English ones.
var statusWords = map[string]string{
	"h": api.AttendancePresent, "hadir": api.AttendancePresent, "present": api.AttendancePresent,
	"s": api.AttendanceSick, "sakit": api.AttendanceSick, "sick": api.AttendanceSick,
	"i": api.AttendanceExcused, "izin": api.AttendanceExcused, "ijin": api.AttendanceExcused, "permission": api.AttendanceExcused, "excused": api.AttendanceExcused,
	"a": api.AttendanceAlpha, "alpha": api.AttendanceAlpha, "alpa": api.AttendanceAlpha, "absent": api.AttendanceAlpha,
	"t": api.AttendanceLate, "terlambat": api.AttendanceLate, "late": api.AttendanceLate,
	"belum": api.AttendanceNone,
}

// ParseStatus returns the stored code (H, S, I, A, T) of a status as a
// form or the journal sends it (the code, hadir/sakit/izin/alpha/terlambat
// or present/sick/permission/absent/late; case and surrounding spaces do
// not matter), api.AttendanceNone for "belum", and ok false for anything
// else.
func ParseStatus(s string) (code string, ok bool) {
	code, ok = statusWords[strings.ToLower(strings.TrimSpace(s))]
	return code, ok
}
