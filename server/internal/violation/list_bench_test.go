package violation_test

import (
	"context"
	"io"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/tatib/tatib/server/internal/locale"
	"github.com/tatib/tatib/server/internal/violation"
	"github.com/tatib/tatib/server/internal/violation/vltest"
)

const benchRows = 100000

// peak samples the heap in use while fn runs and returns the highest value
// seen above what was in use before, in MB.
func peak(fn func()) (float64, time.Duration) {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapInuse
	var top atomic.Uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			if m.HeapInuse > top.Load() {
				top.Store(m.HeapInuse)
			}
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	start := time.Now()
	fn()
	d := time.Since(start)
	close(stop)
	wg.Wait()
	p := top.Load()
	if p < base {
		return 0, d
	}
	return float64(p-base) / (1 << 20), d
}

// BenchmarkExport writes 100,000 violations to xlsx from the database and,
// in the same run, the floor: excelize's StreamWriter writing the same
// cells with no database. It reports both times, the ratio and the peak
// heap of each.
func BenchmarkExport(b *testing.B) {
	s := vltest.New(b)
	db := s.Env.DB
	db.MustExec(`INSERT INTO students (source_id, full_name, nisn, nis, class_id)
		SELECT 800000 + g, 'Siswa Nomor ' || g, lpad(g::text, 10, '0'), g::text,
			CASE g % 3 WHEN 0 THEN $1::bigint WHEN 1 THEN $2::bigint ELSE $3::bigint END
		FROM generate_series(1, 1000) g`, s.ClassA, s.ClassB, s.ClassC)
	db.MustExec(`INSERT INTO violations (student_id, class_id, class_name, violation_type_id, occurred_at, occurred_on, points,
			sanction, location, description, recorded_by, handling_status)
		SELECT st.id, st.class_id, c.name, CASE WHEN g % 2 = 0 THEN $1::bigint ELSE $2::bigint END, ts,
			(ts AT TIME ZONE 'Asia/Jakarta')::date, 5, 'Teguran lisan', 'Kelas',
			'Terlambat masuk kelas setelah istirahat kedua', CASE WHEN g % 10 = 0 THEN NULL ELSE $3::bigint END,
			CASE WHEN g % 10 = 1 THEN 'in_progress' ELSE 'unhandled' END
		FROM generate_series(1, $4::int) g
		JOIN students st ON st.source_id = 800001 + g % 1000
		LEFT JOIN classes c ON c.id = st.class_id
		CROSS JOIN LATERAL (SELECT timestamptz '2025-07-14 07:00+07' + g * interval '2 minutes' AS ts) t`,
		s.TypeLight1, s.TypeLight2, s.BK.UserID, benchRows)
	db.MustExec(`INSERT INTO handlings (violation_id, handling_type_id, handled_on, created_by)
		SELECT v.id, (SELECT id FROM handling_types ORDER BY id LIMIT 1), v.occurred_on, $1 FROM violations v WHERE v.handling_status = 'in_progress'`, s.BK.UserID)
	db.MustExec(`INSERT INTO handling_participants (handling_id, name, role) SELECT id, 'Pak Joko', 'Wali Kelas' FROM handlings`)
	db.MustExec(`ANALYZE`)
	store := violation.NewListStore(db)
	ctx := context.Background()

	at := time.Date(2025, 7, 14, 7, 0, 0, 0, time.UTC)
	floor := func() {
		f := excelize.NewFile()
		defer f.Close()
		sw, err := f.NewStreamWriter("Sheet1")
		if err != nil {
			b.Fatal(err)
		}
		row := make([]any, 19)
		for i := 1; i <= benchRows+1; i++ {
			row[0], row[1], row[2], row[3], row[4] = i, 45852.0, 0.3, "0000000001", "Siswa Nomor 1"
			row[5], row[6], row[7], row[8], row[9] = "X RPL 1", "Rekayasa Perangkat Lunak", "Alpha", "Ringan", 5
			row[10], row[11], row[12], row[13], row[14] = "Teguran lisan", "Kelas", "Terlambat masuk kelas setelah istirahat kedua", "Pengguna bk1", "Belum Diverifikasi"
			row[15], row[16], row[17], row[18] = "Belum Ditangani", "", "", at
			cell, _ := excelize.CoordinatesToCellName(1, i)
			if err := sw.SetRow(cell, row); err != nil {
				b.Fatal(err)
			}
		}
		if err := sw.Flush(); err != nil {
			b.Fatal(err)
		}
		if _, err := f.WriteTo(io.Discard); err != nil {
			b.Fatal(err)
		}
	}
	export := func() {
		st, err := store.Export(ctx, violation.Scope{}, violation.Filter{}, locale.ID)
		if err != nil {
			b.Fatal(err)
		}
		defer st.Close()
		if st.Rows() != benchRows {
			b.Fatalf("%d rows", st.Rows())
		}
		if _, err := st.WriteTo(io.Discard); err != nil {
			b.Fatal(err)
		}
	}

	var floorT, exportT time.Duration
	var floorPeak, exportPeak float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p, d := peak(floor)
		floorT += d
		floorPeak = max(floorPeak, p)
		p, d = peak(export)
		exportT += d
		exportPeak = max(exportPeak, p)
	}
	b.StopTimer()
	n := float64(b.N)
	b.ReportMetric(exportT.Seconds()*1000/n, "export-ms")
	b.ReportMetric(floorT.Seconds()*1000/n, "floor-ms")
	b.ReportMetric(exportT.Seconds()/floorT.Seconds(), "ratio")
	b.ReportMetric(exportPeak, "export-peak-MB")
	b.ReportMetric(floorPeak, "floor-peak-MB")
}
