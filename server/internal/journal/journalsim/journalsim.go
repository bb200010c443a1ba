// Package journalsim generates the attendance a school's journal (the
// deployed E-Jurnal) pushes for a school day, in its own request shape.
// `tatib-sim journal`, the demo school's attendance and the benchmark use
// the same generator, so what each shows is alike.
package journalsim

import (
	"hash/fnv"
	"math/rand/v2"
	"time"

	"github.com/tatib/tatib/server/internal/school/schoolsim"
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

// The shape of a day. Per student and day: a few students (the "often
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

var jakarta = mustLoad("Asia/Jakarta")

func mustLoad(name string) *time.Location {
	loc, err := time.LoadLocation(name)
	if err != nil {
		return time.FixedZone("WIB", 7*3600)
	}
	return loc
}

// Today is the Asia/Jakarta date of now, "YYYY-MM-DD".
func Today(now time.Time) string { return now.In(jakarta).Format(time.DateOnly) }

// SchoolDays returns the last n school days (Monday to Friday) up to and
// including now's Asia/Jakarta date, oldest first.
func SchoolDays(now time.Time, n int) []string {
	d := now.In(jakarta)
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
