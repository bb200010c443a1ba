package violation_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"
)

const benchRequests = 1000

// BenchmarkRecordThreeTypes records one violation of three types (10, 40
// and 60 points) 1,000 times through the whole HTTP handler (auth,
// permission, validation, the student lock, the totals, the point audit,
// the audit log and the SP check, which issues letters as students cross
// thresholds), over 100 students. Beside it, the floor from the same run:
// the bare INSERT of three violation rows in a transaction. It reports
// p50/p99 of both and their ratio.
func BenchmarkRecordThreeTypes(b *testing.B) {
	s := newSchool(b)
	students := make([]int64, 100)
	for i := range students {
		students[i] = s.student(b, s.classA)
	}
	types := []int64{s.t10, s.t40, s.t60}
	ctx := context.Background()
	var rec, floor []time.Duration
	for b.Loop() {
		rec, floor = rec[:0], floor[:0]
		for i := range benchRequests {
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
		for i := range benchRequests {
			start := time.Now()
			tx, err := s.env.DB.BeginTx(ctx, nil)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO violations (student_id, class_id, violation_type_id, occurred_at, occurred_on, points)
				VALUES ($1, $2, $3, now(), current_date, 10), ($1, $2, $4, now(), current_date, 40), ($1, $2, $5, now(), current_date, 60)`,
				students[i%len(students)], s.classA, types[0], types[1], types[2]); err != nil {
				b.Fatal(err)
			}
			if err := tx.Commit(); err != nil {
				b.Fatal(err)
			}
			floor = append(floor, time.Since(start))
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
	b.ReportMetric(p(rec, 0.50)/p(floor, 0.50), "x-floor-p50")
	b.ReportMetric(p(rec, 0.99)/p(floor, 0.99), "x-floor-p99")
}
