package violation_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/server/internal/pg/pgcount"
)

const benchRequests = 1000

// BenchmarkRecordThreeTypes records one violation of three types (10, 40
// and 60 points) 1,000 times through the whole HTTP handler (auth,
// permission, validation, the student lock, the totals, the point audit,
// the audit log and the SP check, which issues letters as students cross
// thresholds), over 100 students. Beside it, the floor from the same run:
// the bare INSERT of three violation rows in a transaction (for 100 other
// students, so the recordings' totals are the same as without it), in
// turns of 100 with the recordings so that both see the same load of a
// shared machine. It reports p50/p99 of both, their ratio, the round trips
// per recording (queries/op) and, in the log, each statement's share.
//
// The round trips of one recording (no letter changing, no photo, parents'
// messages off), counted by pgcount:
//
//	before issue 25 (12):               now (5):
//	 1 session + user (auth)             1 session + user (auth: session_principal())
//	 2 BEGIN                             2 BEGIN
//	 3 lock the student (points.Lock)    3 record_violations_read(): lock the student,
//	 4 the types                           read it, the types and the profile, insert
//	 5 the school profile                  the violations and answer them as the API
//	 6 INSERT violations                   shows them; then, in a statement of its own,
//	 7 ledger read (totals, letters,       the ledger's read (totals, letters,
//	   thresholds, messaging)              thresholds, messaging settings)
//	 8 INSERT point_audit                4 point_audit_notify(): INSERT point_audit,
//	 9 INSERT notifications                INSERT audit_log (the recording's entry)
//	10 INSERT audit_log                    and notify_violations()
//	11 read the violations back          5 COMMIT
//	12 COMMIT
//
// A letter issued or raised adds its statements (the letter with its
// history, its audit entry, the letter read for the answer) and the point
// audit and the recording's entry are then written before it, each on its
// own (the audit log keeps its order); parents told add their messages
// and the point audit before them; a session last seen over a minute ago
// adds its touch; a role's permissions are re-read at most every 5 s
// (auth.PermissionTTL).
func BenchmarkRecordThreeTypes(b *testing.B) {
	db, counter := pgcount.New(b)
	s := newSchoolOn(b, apitest.NewOn(b, db))
	students := make([]int64, 100)
	others := make([]int64, 100)
	for i := range students {
		students[i] = s.student(b, s.classA)
		others[i] = s.student(b, s.classA)
	}
	types := []int64{s.t10, s.t40, s.t60}
	ctx := context.Background()
	var rec, floor []time.Duration
	var queries int64
	var stmts []pgcount.Statement
	const turn = 100
	for b.Loop() {
		rec, floor, queries, stmts = rec[:0], floor[:0], 0, stmts[:0]
		for t := 0; t < benchRequests; t += turn {
			before := counter.Count()
			counter.Record()
			for i := t; i < t+turn; i++ {
				body, _ := json.Marshal(map[string]any{"student_id": students[i%len(students)], "type_ids": types, "location": "Kantin"})
				req := httptest.NewRequest("POST", "/api/v1/violations", bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Authorization", "Bearer "+s.bk.Token)
				w := httptest.NewRecorder()
				start := time.Now()
				s.env.API.ServeHTTP(w, req)
				rec = append(rec, time.Since(start))
				if w.Code != http.StatusCreated {
					b.Fatalf("status %d: %s", w.Code, w.Body)
				}
			}
			stmts = append(stmts, counter.Stop()...)
			queries += counter.Count() - before
			for i := t; i < t+turn; i++ {
				start := time.Now()
				tx, err := s.env.DB.BeginTx(ctx, nil)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := tx.ExecContext(ctx, `INSERT INTO violations (student_id, class_id, violation_type_id, occurred_at, occurred_on, points)
					VALUES ($1, $2, $3, now(), current_date, 10), ($1, $2, $4, now(), current_date, 40), ($1, $2, $5, now(), current_date, 60)`,
					others[i%len(others)], s.classA, types[0], types[1], types[2]); err != nil {
					b.Fatal(err)
				}
				if err := tx.Commit(); err != nil {
					b.Fatal(err)
				}
				floor = append(floor, time.Since(start))
			}
		}
	}
	p := func(d []time.Duration, q float64) float64 {
		s := slices.Clone(d)
		slices.Sort(s)
		return float64(s[int(q*float64(len(s)-1))]) / float64(time.Millisecond)
	}
	b.ReportMetric(p(rec, 0.50), "p50-ms")
	b.ReportMetric(p(rec, 0.99), "p99-ms")
	b.ReportMetric(p(floor, 0.50), "floor-p50-ms")
	b.ReportMetric(p(floor, 0.99), "floor-p99-ms")
	b.ReportMetric(float64(queries)/benchRequests, "queries/op")
	b.ReportMetric(p(rec, 0.50)/p(floor, 0.50), "x-floor-p50")
	b.ReportMetric(p(rec, 0.99)/p(floor, 0.99), "x-floor-p99")
	// The breakdown: each statement's round trips per recording and its
	// p50 (from sending it to reading its last row), most first.
	times := map[string][]time.Duration{}
	var order []string
	for _, st := range stmts {
		q := st.SQL
		if len(q) > 90 {
			q = q[:90] + "…"
		}
		if _, ok := times[q]; !ok {
			order = append(order, q)
		}
		times[q] = append(times[q], st.Took)
	}
	slices.SortStableFunc(order, func(a, b string) int { return len(times[b]) - len(times[a]) })
	var sb strings.Builder
	for _, q := range order {
		fmt.Fprintf(&sb, "\n%5.2f/op  p50 %6.3f ms  %s", float64(len(times[q]))/benchRequests, p(times[q], 0.5), q)
	}
	// Printed, not logged: a benchmark's log is cut at ten lines.
	// The host's load matters here: on an idle virtual machine each
	// round trip wakes a halted core, which the floor (three round trips
	// in a tight loop) pays less often than a recording (docs/violations.md).
	load := "?"
	if la, err := os.ReadFile("/proc/loadavg"); err == nil {
		load = strings.Join(strings.Fields(string(la))[:3], " ")
	}
	fmt.Printf("BenchmarkRecordThreeTypes: round trips of a recording (%.2f), floor p50 %.3f ms, load average %s:%s\n",
		float64(queries)/benchRequests, p(floor, 0.5), load, sb.String())
}
