package demo

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/attendance"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/school"
	journalsim "github.com/tatib/tatib/server/internal/sim/journal"
	"github.com/tatib/tatib/shared/api"
)

// keyDemoAttendance marks, in settings, that the demo attendance was
// loaded: it never comes back once loaded.
const keyDemoAttendance = "demo_attendance"

// AttendanceDays is how many school days (Monday to Friday, up to today) the
// demo attendance covers.
const AttendanceDays = 10

// AttendanceOptions shape the demo attendance.
type AttendanceOptions struct {
	Seed uint64 // default Seed
	// Now fixes "today" (tests); default time.Now().
	Now time.Time
}

// AttendanceResult says what the demo attendance load did.
type AttendanceResult struct {
	Loaded  bool
	Days    []string
	Entries int
	Result  api.AttendanceResult
	Took    time.Duration
	// Figures are the whole demo school's once its attendance is in
	// (the attendance is the demo's last part), as logged.
	Figures Figures
}

// LoadAttendance stores the attendance the journal would have pushed for the
// demo school's active students over the last AttendanceDays school days, with
// the simulator's generator at a real school's rates (journalsim.TypicalDay:
// about 95 % of lesson hours present, alpha mostly from a few chronic
// absentees), through attendance.ApplyTx as a push would: the automatic
// alpha and late violations and the letters they reach follow the real
// rules. Once loaded it logs the demo school's figures (Figures). Only when the demo school is loaded,
// no attendance exists, no student-affairs connection is set and the demo
// attendance was never loaded; one transaction; a second call does
// nothing.
func LoadAttendance(ctx context.Context, db *sqlx.DB, log *slog.Logger, o AttendanceOptions) (AttendanceResult, error) {
	if o.Seed == 0 {
		o.Seed = Seed
	}
	if o.Now.IsZero() {
		o.Now = time.Now()
	}
	start := time.Now()
	var res AttendanceResult
	loaded, err := Once(ctx, db, keyDemoAttendance, "attendance", func(tx *sqlx.Tx) (any, error) {
		prof, err := school.LoadProfile(ctx, tx)
		if err != nil {
			return nil, err
		}
		var rows []struct {
			Source int64 `db:"source_id"`
			ID     int64 `db:"id"`
		}
		if err := tx.SelectContext(ctx, &rows, `SELECT source_id, id FROM students WHERE active ORDER BY id`); err != nil {
			return nil, fmt.Errorf("journal: demo students: %w", err)
		}
		students := make([]journalsim.Student, len(rows))
		ids := make(map[int64]int64, len(rows))
		for i, r := range rows {
			students[i] = journalsim.Student{SourceID: r.Source}
			ids[r.Source] = r.ID
		}
		res.Days = journalsim.SchoolDays(o.Now, AttendanceDays)
		var entries []attendance.Entry
		for _, day := range res.Days {
			for _, e := range journalsim.TypicalDay(students, day, o.Seed, prof.LessonHoursPerDay) {
				code, _ := attendance.ParseStatus(e.Status)
				notes := ""
				if e.Notes != nil {
					notes = *e.Notes
				}
				entries = append(entries, attendance.Entry{StudentID: ids[e.SourceStudentID], Date: e.Date, LessonHour: e.LessonHour, Status: code, Notes: notes})
			}
		}
		res.Entries = len(entries)
		if len(entries) > 0 {
			if res.Result, err = attendance.ApplyTx(ctx, tx, entries, attendance.Origin{Journal: true, Actor: audit.Actor{Name: "sistem (demo)"}}); err != nil {
				return nil, err
			}
			// The pushes' notifications date from their school day (the
			// afternoon the journal sent it); only the last few stay unread.
			if _, err := tx.ExecContext(ctx, `UPDATE notifications SET
				    created_at = ((params->>'date')::date + time '15:00') AT TIME ZONE 'Asia/Jakarta',
				    read_at = CASE WHEN (params->>'date')::date < (now() AT TIME ZONE 'Asia/Jakarta')::date - 3
				        THEN ((params->>'date')::date + time '17:00') AT TIME ZONE 'Asia/Jakarta' END
				WHERE kind = 'attendance' AND created_at = now()`); err != nil {
				return nil, fmt.Errorf("journal: demo notification times: %w", err)
			}
		}
		return map[string]any{"seed": o.Seed, "days": len(res.Days), "entries": res.Entries}, nil
	})
	res.Loaded = loaded
	if err != nil || !res.Loaded {
		return AttendanceResult{}, err
	}
	res.Took = time.Since(start)
	log.Info("loaded the demo attendance", "days", len(res.Days), "entries", res.Entries,
		"violations", res.Result.ViolationsCreated, "letters", res.Result.LettersIssued, "took", res.Took.Round(time.Millisecond))
	if len(res.Days) > 0 {
		if res.Figures, err = LoadFigures(ctx, db, res.Days[0], res.Days[len(res.Days)-1]); err != nil {
			return res, err
		}
		log.Info("the demo school's figures", "figures", res.Figures)
	}
	return res, nil
}
