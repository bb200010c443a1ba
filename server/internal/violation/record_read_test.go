package violation_test

import (
	"strings"
	"testing"
	"time"

	"github.com/lib/pq"

	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/server/internal/parentmsg"
	"github.com/tatib/tatib/server/internal/pg/pgcount"
	schoolpkg "github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/server/internal/schoolday"
	"github.com/tatib/tatib/server/internal/violation"
)

// TestRecordReadsTheLedger: a recording's first statement
// (record_violations_read, migration 00196) makes the ledger's read too,
// so the ledger sends none of its own; the years it reads are those Go
// counts from the profile, and what it reads is ledger_read's; a profile
// its rule does not cover is read as before, by the ledger.
func TestRecordReadsTheLedger(t *testing.T) {
	t.Parallel()
	db, counter := pgcount.New(t)
	s := newSchoolOn(t, apitest.NewOn(t, db))
	// recorded records and returns the statements of the recording's
	// transaction, BEGIN and COMMIT left out.
	recorded := func(t *testing.T, student int64, types ...int64) (out struct {
		Points  int
		Letters int
		Stmts   []string
	}) {
		t.Helper()
		counter.Record()
		res := record(t, s.bk, student, types...)
		in := false
		for _, st := range counter.Stop() {
			switch {
			case st.SQL == "BEGIN":
				in = true
			case st.SQL == "COMMIT":
				in = false
			case in:
				out.Stmts = append(out.Stmts, st.SQL)
			}
		}
		out.Points, out.Letters = res.Points.Total, len(res.Letters)
		return out
	}
	count := func(stmts []string, part string) int {
		n := 0
		for _, q := range stmts {
			if strings.Contains(q, part) {
				n++
			}
		}
		return n
	}

	t.Run("OKOneRead", func(t *testing.T) {
		st := s.student(t, s.classA)
		first := recorded(t, st, s.t10)
		if first.Points != 10 || first.Letters != 0 || len(first.Stmts) != 2 || count(first.Stmts, "record_violations_read(") != 1 ||
			count(first.Stmts, "ledger_read(") != 0 {
			t.Fatalf("first recording: %+v", first)
		}
		// A letter issued: the read is still the first statement's.
		second := recorded(t, st, s.t40)
		if second.Points != 50 || second.Letters != 1 || count(second.Stmts, "ledger_read(") != 0 {
			t.Fatalf("second recording: %+v", second)
		}
		var audit []int
		must(t, s.env.DB.Select(&audit, `SELECT points_after FROM point_audit WHERE student_id = $1 ORDER BY id`, st))
		if len(audit) != 2 || audit[0] != 10 || audit[1] != 50 {
			t.Fatalf("point audit: %v", audit)
		}
	})

	t.Run("OKYears", func(t *testing.T) {
		defer s.env.DB.MustExec(`DELETE FROM settings WHERE key = 'school'`)
		st := s.student(t, s.classA)
		today := schoolday.Today()
		for _, mmdd := range []string{"", "07-01", "01-01", "12-31", "03-15"} {
			if mmdd == "" {
				s.env.DB.MustExec(`DELETE FROM settings WHERE key = 'school'`)
			} else {
				s.env.DB.MustExec(`INSERT INTO settings (key, value) VALUES ('school', jsonb_build_object('academic_year_start', $1::text))
					ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`, mmdd)
			}
			p := schoolpkg.Profile{AcademicYearStart: mmdd}
			start := p.YearStartOf(today)
			for _, day := range []schoolday.Date{today, start, start.AddDays(-1), start.AddDays(1), start.AddDate(-1, 0, -1)} {
				tx := s.env.DB.MustBegin()
				var got struct {
					Start, Current, Totals, Letters, Thresholds, Messaging *string
				}
				must(t, tx.QueryRowx(`SELECT to_char(r_year_start, 'YYYY-MM-DD'), to_char(r_current, 'YYYY-MM-DD'), r_totals::text,
						r_letters::text, r_thresholds::text, r_messaging::text
					FROM record_violations_read($1, $2, $3, $4, '', $5, $6, '', '', NULL, 'uji', 'manual', NULL, $7, $8, $9, $10)`,
					st, pq.Array([]int64{s.t10}), pq.Array([]int64{-1}), pq.Array([]string{""}), day.Start().Add(3*time.Hour),
					day.String(), schoolpkg.ProfileKey, today.String(), violation.WithdrawReason,
					parentmsg.SettingsKey).Scan(&got.Start, &got.Current, &got.Totals, &got.Letters, &got.Thresholds, &got.Messaging))
				want := p.YearStartOf(day).String()
				if got.Start == nil || *got.Start != want || got.Current == nil || *got.Current != start.String() {
					tx.Rollback()
					t.Fatalf("start %q, day %s: years %v %v, want %s %s", mmdd, day.String(), got.Start, got.Current,
						want, start.String())
				}
				// The read is ledger_read's of those years (the ledger's
				// query: TestReadFunctionIsReadSQL in package points).
				var read struct{ Totals, Letters, Thresholds, Messaging *string }
				must(t, tx.QueryRowx(`SELECT r_totals::text, r_letters::text, r_thresholds::text, r_messaging::text
					FROM ledger_read(ARRAY[$1::bigint], ARRAY[$2::date], $3, $4, true, $5)`,
					st, want, start.String(), violation.WithdrawReason, parentmsg.SettingsKey).
					Scan(&read.Totals, &read.Letters, &read.Thresholds, &read.Messaging))
				tx.Rollback()
				if got.Totals == nil || *got.Totals != *read.Totals || *got.Letters != *read.Letters ||
					*got.Thresholds != *read.Thresholds || (got.Messaging == nil) != (read.Messaging == nil) {
					t.Fatalf("start %q, day %s: read %v, ledger_read %v", mmdd, day.String(), got, read)
				}
				if !strings.Contains(*got.Totals, `"t" : 10`) {
					t.Fatalf("start %q, day %s: totals %s", mmdd, day.String(), *got.Totals)
				}
			}
		}
	})

	t.Run("OKProfileOutOfRule", func(t *testing.T) {
		// A start no year has (the form refuses it; a hand-edited row):
		// Go counts 1 July, the statement reads nothing, the ledger reads.
		s.env.DB.MustExec(`INSERT INTO settings (key, value) VALUES ('school', '{"academic_year_start":"02-30"}')
			ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`)
		defer s.env.DB.MustExec(`DELETE FROM settings WHERE key = 'school'`)
		st := s.student(t, s.classA)
		first := recorded(t, st, s.t40)
		second := recorded(t, st, s.t10)
		if first.Points != 40 || second.Points != 50 || second.Letters != 1 || count(second.Stmts, "ledger_read(") != 1 {
			t.Fatalf("recordings: %+v, %+v", first, second)
		}
	})
}
