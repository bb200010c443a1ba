// Package journalsim generates the attendance a school's journal (the
// deployed E-Jurnal) pushes for a school day, in its own request shape:
// TypicalDay at a real school's rates (the demo school's attendance and
// `tatib-sim journal`), Day a heavy day (about 10 % alpha: the benchmark,
// the stress tests and `tatib-sim journal -busy`).
//
// It lives under internal/sim with the other simulators (tatib-sim and
// internal/demo use them; production packages do not); the package keeps
// the name journalsim so it reads apart from internal/journal.
package journalsim

import (
	"hash/fnv"
	"math/rand/v2"
	"time"

	"github.com/tatib/tatib/server/internal/schoolday"
	"github.com/tatib/tatib/server/internal/sim/studentaffairs"
)

// Status words as the deployed E-Jurnal sends them.
const (
	Present = "hadir"
	Sick    = "sakit"
	Excused = "izin"
	Alpha   = "alpha"
	Late    = "terlambat"
)

// Student is a student the journal knows: their student-affairs id (what
// it sends as source_student_id).
type Student struct {
	SourceID int64
}

// Entry is one lesson hour of one student, exactly as the E-Jurnal sends
// it.
type Entry struct {
	SourceStudentID int64   `json:"source_student_id"`
	Date            string  `json:"date"`
	LessonHour      int     `json:"lesson_hour"`
	Status          string  `json:"status"`
	Notes           *string `json:"notes"`
}

// Request is the E-Jurnal's body of POST /api/v1/attendance/sync: the
// token in the body, the entries under "attendances".
type Request struct {
	Token       string  `json:"token"`
	Attendances []Entry `json:"attendances"`
}

// FromSchool returns the active students of a generated school (the ones a
// journal has on its class lists), in the school's order.
func FromSchool(s *schoolsim.School) []Student {
	out := make([]Student, 0, len(s.Students))
	for _, st := range s.Students {
		if st.Status == "" || st.Status == "active" {
			out = append(out, Student{SourceID: st.ID})
		}
	}
	return out
}

// UnknownStudents returns n students the student-affairs system has not
// served (yet): ids far above any generated one, the same for the same
// seed.
func UnknownStudents(n int, seed uint64) []Student {
	out := make([]Student, n)
	base := int64(900_000_000 + seed%1000*1000)
	for i := range out {
		out[i] = Student{SourceID: base + int64(i) + 1}
	}
	return out
}

// The shape of Day's heavy day. Per student and day: a few students (the "often
// absent") miss whole days without a word; anyone may skip single hours;
// some are sick or excused all day; most who are late are late for the
// first hour (or two), a few come back late after a break. Over a school the hours
// come out at about 10% A and 5% T.
const (
	oftenAbsentShare  = 0.08 // students who often miss whole days
	oftenAbsentDay    = 0.55 // chance such a student misses a day
	absentDay         = 0.01 // chance anyone else misses a whole day
	sickDay           = 0.03
	excusedDay        = 0.02
	skipHours         = 0.20 // chance a present student skips a run of hours
	lateFirstHour     = 0.25
	lateSecondHour    = 0.45 // of those late for the first, also the second
	lateAfterBreak    = 0.06 // the first hour after each break
	excusedSingleHour = 0.005
)

var (
	noteSick    = "Surat dokter"
	noteExcused = "Izin orang tua"
)

// Day returns the entries of one school day (date "YYYY-MM-DD") for
// students, lesson hours 1..hours each, in student then hour order. The
// same students, date, seed and hours give the same entries; a student's
// day does not depend on who else is in the list.
func Day(students []Student, date string, seed uint64, hours int) []Entry {
	if hours < 1 {
		hours = 10
	}
	dh := fnv.New64a()
	_, _ = dh.Write([]byte(date))
	dateKey := dh.Sum64()
	out := make([]Entry, 0, len(students)*hours)
	statuses := make([]string, hours)
	for _, st := range students {
		id := uint64(st.SourceID)
		// The student's own habits, the same every day.
		habit := rand.New(rand.NewPCG(seed^0x6a6f75726e616c, id))
		often := habit.Float64() < oftenAbsentShare
		rng := rand.New(rand.NewPCG(seed^dateKey, id*0x9e3779b97f4a7c15))
		dayStatus := ""
		r := rng.Float64()
		absent := absentDay
		if often {
			absent = oftenAbsentDay
		}
		switch {
		case r < absent:
			dayStatus = Alpha
		case r < absent+sickDay:
			dayStatus = Sick
		case r < absent+sickDay+excusedDay:
			dayStatus = Excused
		}
		var note *string
		switch dayStatus {
		case Sick:
			if rng.IntN(2) == 0 {
				note = &noteSick
			}
		case Excused:
			note = &noteExcused
		}
		for h := range statuses {
			statuses[h] = Present
			if dayStatus != "" {
				statuses[h] = dayStatus
			}
		}
		if dayStatus == "" {
			if rng.Float64() < lateFirstHour {
				statuses[0] = Late
				if hours > 1 && rng.Float64() < lateSecondHour {
					statuses[1] = Late
				}
			}
			for h := 2; h < hours; h++ {
				late := 0.0
				if h%4 == 0 { // hours 5, 9, ...: after a break
					late = lateAfterBreak
				}
				switch x := rng.Float64(); {
				case x < late:
					statuses[h] = Late
				case x < late+excusedSingleHour:
					statuses[h] = Excused
				}
			}
			skip := skipHours
			if often {
				skip *= 2
			}
			if rng.Float64() < skip {
				// Skipping runs to the end of the day more often than not.
				n := 1 + rng.IntN(min(4, hours))
				from := hours - n
				if rng.IntN(3) == 0 {
					from = rng.IntN(hours - n + 1)
				}
				for h := from; h < from+n; h++ {
					statuses[h] = Alpha
				}
			}
		}
		for h, s := range statuses {
			e := Entry{SourceStudentID: st.SourceID, Date: date, LessonHour: h + 1, Status: s}
			if s == dayStatus {
				e.Notes = note
			}
			out = append(out, e)
		}
	}
	return out
}

// Today is the Asia/Jakarta date of now, "YYYY-MM-DD".
func Today(now time.Time) string { return schoolday.Of(now) }

// SchoolDays returns the last n school days (Monday to Friday) up to and
// including now's Asia/Jakarta date, oldest first.
func SchoolDays(now time.Time, n int) []string {
	d := schoolday.In(now)
	d = time.Date(d.Year(), d.Month(), d.Day(), 12, 0, 0, 0, time.UTC)
	var out []string
	for len(out) < n {
		if wd := d.Weekday(); wd != time.Saturday && wd != time.Sunday {
			out = append(out, d.Format(time.DateOnly))
		}
		d = d.AddDate(0, 0, -1)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// A school's ordinary day, as TypicalDay generates it (Day's heavier day
// stays the benchmark's and the stress tests' load). Per student and
// school day: about 95 % of lesson hours present; alpha ≈ 1–1.5 % of
// hours, most of it from a few chronic absentees who miss whole days;
// 3–6 % of students late, mostly for the first hour, a few of them
// habitually; sick and excused students one or two a class a day, mostly
// whole days (an illness lasts one to three school days), now and then the
// last hours only (sent home sick, excused to leave early).
const (
	chronicShare  = 0.025  // students who often miss whole days without a word
	chronicDay    = 0.4    // chance such a student misses a day, never on their Attends weekday
	chronicSkip   = 0.05   // chance such a student, when present, skips a run of hours
	oftenLateShr  = 0.03   // students habitually late
	oftenLateDay  = 0.35   // chance such a student is late
	punctualShare = 0.5    // students never late and never absent without a word
	typAbsentDay  = 0.0075 // chance anyone else misses a whole day without a word
	typLateDay    = 0.065  // chance anyone else is late for the first hour
	typLateSecond = 0.25   // of those late for the first hour, also the second
	typLateBreak  = 0.006  // chance of coming back late after a break (hours 5, 9, ...)
	typSkip       = 0.017  // chance anyone else, present, skips a run of hours
	sickStart     = 0.012  // chance an illness begins on a school day
	typExcused    = 0.011  // a whole day excused (a family event)
	leaveEarly    = 0.008  // excused for the last 2–5 hours
	sentHome      = 0.003  // sick at school, sent home for the last 3–6 hours
)

var (
	noteLeaveEarly = "Izin pulang lebih awal"
	noteSentHome   = "Sakit, dijemput orang tua"
)

// Habit is a student's own attendance habit in TypicalDay, the same every
// day. The demo's violations give their warning-letter students from
// behaviour to punctual students only, so that attendance never carries
// one past the level the demo promises.
type Habit struct {
	OftenAbsent bool
	OftenLate   bool
	// Punctual students (about half) are never late and never absent
	// without a word; they may be sick or excused.
	Punctual bool
	// Attends is the weekday an often-absent student always comes on, so
	// that any ten school days hold at most eight of their absences.
	Attends time.Weekday
}

// HabitOf returns the habit of a student (by student-affairs id) for seed.
func HabitOf(seed uint64, sourceID int64) Habit {
	r := rand.New(rand.NewPCG(seed^0x74797069636c6861, uint64(sourceID)))
	x := r.Float64()
	return Habit{
		OftenAbsent: x < chronicShare,
		OftenLate:   x >= chronicShare && x < chronicShare+oftenLateShr,
		Punctual:    x >= chronicShare+oftenLateShr && x < chronicShare+oftenLateShr+punctualShare,
		Attends:     time.Monday + time.Weekday(r.IntN(5)),
	}
}

// sickOn reports whether an illness that began on this or one of the two
// school days before covers date (an illness lasts 1, 2 or 3 school days).
func sickOn(seed uint64, id uint64, date time.Time) bool {
	d := date
	for back := 0; back < 3; back++ {
		r := rand.New(rand.NewPCG(seed^dayKey(d.Format(time.DateOnly))^0x7369636b, id*0x9e3779b97f4a7c15))
		if x := r.Float64(); x < sickStart {
			length := 1
			switch y := r.Float64(); {
			case y < 0.2:
				length = 3
			case y < 0.5:
				length = 2
			}
			if length > back {
				return true
			}
		}
		d = d.AddDate(0, 0, -1)
		for d.Weekday() == time.Saturday || d.Weekday() == time.Sunday {
			d = d.AddDate(0, 0, -1)
		}
	}
	return false
}

func dayKey(date string) uint64 {
	h := fnv.New64a()
	_, _ = h.Write([]byte(date))
	return h.Sum64()
}

// TypicalDay returns the entries of one ordinary school day (date
// "YYYY-MM-DD", Monday to Friday) at a real school's rates (see the
// constants above), in Day's shape and order. Deterministic per (seed,
// student, date), independent of who else is in the list.
func TypicalDay(students []Student, date string, seed uint64, hours int) []Entry {
	if hours < 1 {
		hours = 10
	}
	day, err := time.Parse(time.DateOnly, date)
	if err != nil {
		return nil
	}
	key := dayKey(date)
	out := make([]Entry, 0, len(students)*hours)
	statuses := make([]string, hours)
	notes := make([]*string, hours)
	for _, st := range students {
		id := uint64(st.SourceID)
		habit := HabitOf(seed, st.SourceID)
		rng := rand.New(rand.NewPCG(seed^key^0x74797069, id*0x9e3779b97f4a7c15))
		for h := range statuses {
			statuses[h], notes[h] = Present, nil
		}
		fill := func(from int, status string, note *string) {
			for h := max(from, 0); h < hours; h++ {
				statuses[h], notes[h] = status, note
			}
		}
		absent, late, lateBreak, skip := typAbsentDay, typLateDay, typLateBreak, typSkip
		switch {
		case habit.Punctual:
			absent, late, lateBreak, skip = 0, 0, 0, 0
		case habit.OftenLate:
			late = oftenLateDay
		case habit.OftenAbsent:
			skip = chronicSkip
			absent = chronicDay
			if day.Weekday() == habit.Attends {
				absent = 0
			}
		}
		r := rng.Float64()
		switch {
		case sickOn(seed, id, day):
			var note *string
			if rng.IntN(2) == 0 {
				note = &noteSick
			}
			fill(0, Sick, note)
		case r < absent:
			fill(0, Alpha, nil)
		case r < absent+typExcused:
			fill(0, Excused, &noteExcused)
		default:
			if rng.Float64() < late {
				statuses[0] = Late
				if hours > 1 && rng.Float64() < typLateSecond {
					statuses[1] = Late
				}
			}
			for h := 4; h < hours; h += 4 { // hours 5, 9, ...: after a break
				if rng.Float64() < lateBreak {
					statuses[h] = Late
				}
			}
			switch x := rng.Float64(); {
			case x < leaveEarly:
				fill(hours-2-rng.IntN(4), Excused, &noteLeaveEarly)
			case x < leaveEarly+sentHome:
				fill(hours-3-rng.IntN(4), Sick, &noteSentHome)
			case x < leaveEarly+sentHome+skip:
				// Skipping runs to the end of the day more often than not.
				n := 1 + rng.IntN(min(3, hours))
				from := hours - n
				if rng.IntN(3) == 0 {
					from = rng.IntN(hours - n + 1)
				}
				for h := from; h < from+n; h++ {
					statuses[h] = Alpha
				}
			}
		}
		for h, s := range statuses {
			out = append(out, Entry{SourceStudentID: st.SourceID, Date: date, LessonHour: h + 1, Status: s, Notes: notes[h]})
		}
	}
	return out
}
