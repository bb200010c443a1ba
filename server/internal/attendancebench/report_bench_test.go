package attendancebench_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/server/internal/pdfdoc"
	"github.com/tatib/tatib/server/internal/report"
	"github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/shared/perm"
)

// reportReps: each figure is the median of this many runs.
const reportReps = 3

// BenchmarkReportYear measures the violation recap report's PDF of the
// whole generated school year (about 30,000 violations, every class):
// the store's own render (time, bytes allocated, peak live heap, pages)
// and GET /reports/violation-recap.pdf end to end, beside two floors from
// the same run: the bare SQL reading the same detail rows, and fpdf
// writing the same number of rows of plain single-line cells on the same
// paper. Plus the JSON report of the year. No figure is asserted: the
// issue's target ("a few seconds, bounded memory") is printed beside them.
func BenchmarkReportYear(b *testing.B) {
	env := apitest.New(b)
	ctx := context.Background()
	bk := env.As(perm.BK)
	y, err := generate(ctx, env.DB, bk.UserID, time.Now())
	if err != nil {
		b.Fatal(err)
	}
	from, to := y.Days[0], y.Days[len(y.Days)-1]
	fmt.Printf("report year: %d violations, %d letters, %s..%s; generated in %.1f s\n",
		y.Counts.Violations, y.Counts.Letters, from, to, y.Took.Seconds())
	prof, err := school.LoadProfile(ctx, env.DB)
	if err != nil {
		b.Fatal(err)
	}
	prof.Name, prof.PrincipalName, prof.PrincipalNIP, prof.BKCoordinatorName = "SMA Negeri Bench", "Kepala", "197203152000031002", "Koordinator"
	q, err := report.ParseQuery(map[string][]string{"from": {from}, "to": {to}}, time.Now(), prof)
	if err != nil {
		b.Fatal(err)
	}
	store := report.NewStore(env.DB)

	// The render in process: time, allocation, peak heap, pages, size.
	type run struct {
		took         time.Duration
		alloc, peak  uint64
		pages, bytes int
	}
	measure := func(fn func(w io.Writer) (int, error)) run {
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		var peak atomic.Uint64
		stop := make(chan struct{})
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			var m runtime.MemStats
			for {
				runtime.ReadMemStats(&m)
				if m.HeapAlloc > peak.Load() {
					peak.Store(m.HeapAlloc)
				}
				select {
				case <-stop:
					return
				case <-time.After(20 * time.Millisecond):
				}
			}
		}()
		cw := &countWriter{}
		start := time.Now()
		pages, err := fn(cw)
		took := time.Since(start)
		close(stop)
		wg.Wait()
		if err != nil {
			b.Fatal(err)
		}
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		p := peak.Load()
		if p > before.HeapAlloc {
			p -= before.HeapAlloc
		} else {
			p = 0
		}
		return run{took: took, alloc: after.TotalAlloc - before.TotalAlloc, peak: p, pages: pages, bytes: cw.n}
	}
	medianRun := func(fn func(w io.Writer) (int, error)) run {
		var runs []run
		for range reportReps {
			runs = append(runs, measure(fn))
		}
		sort.Slice(runs, func(i, j int) bool { return runs[i].took < runs[j].took })
		return runs[len(runs)/2]
	}
	now := time.Now()
	pdfRun := medianRun(func(w io.Writer) (int, error) {
		return store.PDF(ctx, report.Scope{}, q, prof, nil, now, w)
	})

	// Floor 1: the bare SQL of the same rows, read and scanned.
	sqlFloor := medianRun(func(io.Writer) (int, error) {
		rows, err := env.DB.QueryxContext(ctx, `SELECT v.id, v.occurred_on, s.full_name, v.class_name, vt.name, vc.name,
				v.description, v.points, v.handling_status
			FROM violations v JOIN students s ON s.id = v.student_id
			JOIN violation_types vt ON vt.id = v.violation_type_id JOIN violation_categories vc ON vc.id = vt.category_id
			WHERE v.occurred_on BETWEEN $1::date AND $2::date ORDER BY v.occurred_at, v.id`, from, to)
		if err != nil {
			return 0, err
		}
		defer rows.Close()
		n := 0
		var (
			id, points                          int64
			on                                  time.Time
			name, class, typ, cat, desc, status string
		)
		for rows.Next() {
			if err := rows.Scan(&id, &on, &name, &class, &typ, &cat, &desc, &points, &status); err != nil {
				return 0, err
			}
			n++
		}
		return n, rows.Err()
	})

	// Floor 2: fpdf writing as many rows of seven plain one-line cells,
	// landscape on the same paper, with no measuring, no header repeat,
	// no database.
	paper := pdfdoc.PaperByName(prof.PaperSize)
	cellFloor := medianRun(func(w io.Writer) (int, error) {
		d := pdfdoc.New(pdfdoc.Options{Paper: pdfdoc.Paper{Name: paper.Name, Width: paper.Height, Height: paper.Width},
			PageLabel: pdfdoc.PageFooterID, Created: now})
		d.SetFont(pdfdoc.Font, "", 8)
		widths := []float64{10, 30, 50, 28, 97, 12, 30}
		cells := []string{"", "12 November 2026", "Ahmad Pratama Putra", "XI MIPA 2", "Atribut seragam tidak lengkap", "5", "Belum ditangani"}
		for i := range y.Counts.Violations {
			cells[0] = strconv.Itoa(i + 1)
			for j, c := range cells {
				ln := 0
				if j == len(cells)-1 {
					ln = 1
				}
				d.CellFormat(widths[j], 5, c, "1", ln, "L", false, 0, "")
			}
		}
		err := d.Write(w)
		return d.PageCount(), err
	})

	// End to end over HTTP, as the counselor.
	path := "/api/v1/reports/violation-recap.pdf?from=" + from + "&to=" + to
	var httpTimes []time.Duration
	size := 0
	for range reportReps {
		start := time.Now()
		res := bk.Do("GET", path, nil).Want(http.StatusOK)
		httpTimes = append(httpTimes, time.Since(start))
		size = len(res.Body)
	}
	sort.Slice(httpTimes, func(i, j int) bool { return httpTimes[i] < httpTimes[j] })

	// The JSON report of the year (summary and the first 100 rows).
	jsonPath := "/api/v1/reports/violation-recap?from=" + from + "&to=" + to
	var jsonTimes []time.Duration
	for range 7 {
		start := time.Now()
		bk.Do("GET", jsonPath, nil).Want(http.StatusOK)
		jsonTimes = append(jsonTimes, time.Since(start))
	}
	sort.Slice(jsonTimes, func(i, j int) bool { return jsonTimes[i] < jsonTimes[j] })

	mb := func(n uint64) float64 { return float64(n) / (1 << 20) }
	msOf := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	fmt.Printf("\nviolation recap report, whole school year (%d violations, %s paper, landscape; load %s):\n", y.Counts.Violations, paper.Name, loadAverage())
	fmt.Printf("  %-44s %9s %11s %10s %7s %9s\n", "", "time ms", "alloc MB", "peak MB", "pages", "file MB")
	fmt.Printf("  %-44s %9.0f %11.1f %10.1f %7d %9.1f\n", "PDF render (store, streamed rows)", msOf(pdfRun.took), mb(pdfRun.alloc), mb(pdfRun.peak), pdfRun.pages, mb(uint64(pdfRun.bytes)))
	fmt.Printf("  %-44s %9.0f %11.1f %10.1f %7s %9s\n", "floor: bare SQL of the same rows", msOf(sqlFloor.took), mb(sqlFloor.alloc), mb(sqlFloor.peak), "-", "-")
	fmt.Printf("  %-44s %9.0f %11.1f %10.1f %7d %9.1f\n", "floor: fpdf, same rows of plain cells", msOf(cellFloor.took), mb(cellFloor.alloc), mb(cellFloor.peak), cellFloor.pages, mb(uint64(cellFloor.bytes)))
	fmt.Printf("  %-44s %9.0f %11s %10s %7s %9.1f\n", "GET …/violation-recap.pdf (HTTP, median)", msOf(httpTimes[len(httpTimes)/2]), "", "", "", mb(uint64(size)))
	fmt.Printf("  %-44s %9.1f\n", "GET …/violation-recap (JSON, median)", msOf(jsonTimes[len(jsonTimes)/2]))
	fmt.Printf("  ratios: render / (SQL + fpdf floors) = %.2f; render / fpdf floor = %.2f; peak heap / file = %.1f; target: a few seconds\n",
		float64(pdfRun.took)/float64(sqlFloor.took+cellFloor.took), float64(pdfRun.took)/float64(cellFloor.took), float64(pdfRun.peak)/float64(max(1, pdfRun.bytes)))
}

// countWriter counts what is written and keeps none of it.
type countWriter struct{ n int }

func (c *countWriter) Write(p []byte) (int, error) { c.n += len(p); return len(p), nil }
