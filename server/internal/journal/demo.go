package journal

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/app"
	"github.com/tatib/tatib/server/internal/attendance"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/journal/journalsim"
	"github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/shared/api"
)

// keyDemoAttendance marks, in settings, that the demo attendance was
// loaded: it never comes back once loaded.
const keyDemoAttendance = "demo_attendance"

// DemoDays is how many school days (Monday to Friday, up to today) the
// demo attendance covers.
const DemoDays = 10

// DemoOptions shape the demo attendance.
type DemoOptions struct {
	Seed uint64 // default school.DemoSeed
	// Now fixes "today" (tests); default time.Now().
	Now time.Time
}

// DemoResult says what the demo attendance load did.
type DemoResult struct {
	Loaded  bool
	Days    []string
	Entries int
	Result  api.AttendanceResult
	Took    time.Duration
	// Figures are the whole demo school's once its attendance is in
	// (the attendance is the demo's last part), as logged.
	Figures school.DemoFigures
}

// BootDemo gives the demo school the journal's attendance of the last
// school days (see LoadDemo) unless TATIB_DEMO=0.
func BootDemo(ctx context.Context, d app.Deps) error {
	if !d.Config.Demo {
		return nil
	}
	_, err := LoadDemo(ctx, d.DB, d.Log, DemoOptions{})
	return err
}

// LoadDemo stores the attendance the journal would have pushed for the
// demo school's active students over the last DemoDays school days, with
// the simulator's generator at a real school's rates (journalsim.TypicalDay:
// about 95 % of lesson hours present, alpha mostly from a few chronic
// absentees), through attendance.ApplyTx as a push would: the automatic
// alpha and late violations and the letters they reach follow the real
// rules. Once loaded it logs the demo school's figures (DemoFigures). Only when the demo school is loaded,
// no attendance exists, no student-affairs connection is set and the demo
// attendance was never loaded; one transaction; a second call does
// nothing.
func LoadDemo(ctx context.Context, db *sqlx.DB, log *slog.Logger, o DemoOptions) (DemoResult, error) {
	if o.Seed == 0 {
		o.Seed = school.DemoSeed
	}
	if o.Now.IsZero() {
		o.Now = time.Now()
	}
	start := time.Now()
	var res DemoResult
	loaded, err := school.DemoOnce(ctx, db, keyDemoAttendance, "attendance", func(tx *sqlx.Tx) (any, error) {
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
		res.Days = journalsim.SchoolDays(o.Now, DemoDays)
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
		return DemoResult{}, err
	}
	res.Took = time.Since(start)
	log.Info("loaded the demo attendance", "days", len(res.Days), "entries", res.Entries,
		"violations", res.Result.ViolationsCreated, "letters", res.Result.LettersIssued, "took", res.Took.Round(time.Millisecond))
	if len(res.Days) > 0 {
		if res.Figures, err = school.LoadDemoFigures(ctx, db, res.Days[0], res.Days[len(res.Days)-1]); err != nil {
			return res, err
		}
		log.Info("the demo school's figures", "figures", res.Figures)
	}
	return res, nil
}
