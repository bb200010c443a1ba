package face_test

import (
	"context"
	"database/sql"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/lib/pq"

	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/server/internal/face/match"
	"github.com/tatib/tatib/server/internal/pg/pgtest"
)

const (
	benchStudents = 10000
	benchDim      = 1024
)

// enrolSchool fills a fresh database with benchStudents active students,
// each with a consent and 3–5 embeddings of benchDim (a random unit "face"
// plus noise per sample), written with COPY. It returns the database and a
// probe: a new sample of one enrolled student's face, and that student.
func enrolSchool(b *testing.B) (*apitest.Env, []float32, int64) {
	b.Helper()
	if pgtest.URL() == "" {
		b.Skip("no database server: set TATIB_TEST_DATABASE_URL")
	}
	env := apitest.New(b)
	db := env.DB
	db.MustExec(`INSERT INTO students (source_id, nisn, nis, full_name)
		SELECT 900000 + g, lpad(g::text, 10, '0'), g::text, 'Siswa Nomor ' || g FROM generate_series(1, $1::int) g`, benchStudents)
	db.MustExec(`INSERT INTO face_consents (student_id, guardian_name, relationship, method, given_on)
		SELECT id, 'Ibu Sari', 'mother', 'paper', date '2026-01-05' FROM students`)
	type pair struct{ student, consent int64 }
	var pairs []pair
	rows, err := db.Query(`SELECT student_id, id FROM face_consents ORDER BY student_id`)
	must(b, err)
	for rows.Next() {
		var p pair
		must(b, rows.Scan(&p.student, &p.consent))
		pairs = append(pairs, p)
	}
	must(b, rows.Err())
	if len(pairs) != benchStudents {
		b.Fatalf("%d consents", len(pairs))
	}

	tx, err := db.Begin()
	must(b, err)
	stmt, err := tx.Prepare(pq.CopyIn("face_embeddings", "student_id", "consent_id", "model", "dim", "vec"))
	must(b, err)
	r := rand.New(rand.NewPCG(16, 10000))
	face := make([]float32, benchDim)
	sample := make([]float32, benchDim)
	noisy := func() []float32 {
		s := 0.5 / math.Sqrt(benchDim)
		for i, f := range face {
			sample[i] = f + float32(r.NormFloat64()*s)
		}
		return sample
	}
	var probe []float32
	var want int64
	for i, p := range pairs {
		for k := range face {
			face[k] = float32(r.NormFloat64())
		}
		copy(face, match.Normalize(face))
		for range 3 + r.IntN(3) {
			_, err := stmt.Exec(p.student, p.consent, model, benchDim, match.Encode(noisy()))
			must(b, err)
		}
		if i == len(pairs)*2/3 {
			probe, want = match.Normalize(noisy()), p.student
		}
	}
	_, err = stmt.Exec()
	must(b, err)
	must(b, stmt.Close())
	must(b, tx.Commit())
	db.MustExec(`ANALYZE face_embeddings`)
	db.MustExec(`ANALYZE students`)
	return env, probe, want
}

// median of ds in ms: a burst of load on the (shared, two-core) machine
// moves a mean but hardly a median.
func median(ds []time.Duration) float64 {
	ds = slices.Clone(ds)
	slices.Sort(ds)
	n := len(ds)
	if n == 0 {
		return math.NaN()
	}
	return float64(ds[(n-1)/2]+ds[n/2]) / 2 / 1e6
}

// allocated is how many bytes and objects fn allocates (nothing else runs
// meanwhile, so the process's count is fn's).
func allocated(fn func()) (bytes, objects uint64) {
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	fn()
	runtime.ReadMemStats(&m1)
	return m1.TotalAlloc - m0.TotalAlloc, m1.Mallocs - m0.Mallocs
}

// rowsQuery is match.Load's statement (load.go), copied: query-ms reads it
// without the index building.
const rowsQuery = `
SELECT e.student_id, e.model, e.dim, e.vec
FROM face_embeddings e
JOIN students s ON s.id = e.student_id
WHERE s.active
ORDER BY e.model, e.dim, e.student_id, e.id`

// BenchmarkIndex10000 is the face index of a school of 10,000 enrolled
// students (about 40,000 embeddings of 1024 floats, 156 MB) in PostgreSQL;
// the data is written once, outside the timers.
//
// load: match.Load, the full reload a replica does when face_index_state
// moves (after any enrolment or withdrawal), against its floor measured in
// the same run: the bare `SELECT vec FROM face_embeddings` read to the end
// into sql.RawBytes. Also Load's own statement read the same bare way
// (query-ms), which splits Load's time into PostgreSQL's (the join and sort)
// and Go's (decoding and normalising). Three rounds per iteration, rotating
// which goes first. Reported: the median of each in ms, the ratio load/floor,
// and what load and floor allocate per call.
//
// scan: what a kiosk scan costs once the index is loaded, as scan.go does
// it — Cache.Get (one version query, no reload) then Index.Match — against
// Index.Match alone as its floor; medians and their ratio, and the median
// of Cache.Get alone (the version query) for scale.
func BenchmarkIndex10000(b *testing.B) {
	env, probe, want := enrolSchool(b)
	db := env.DB
	ctx := context.Background()

	b.Run("load", func(b *testing.B) {
		var ix *match.Index
		load := func() {
			var err error
			ix, err = match.Load(ctx, db)
			must(b, err)
		}
		var vecBytes int
		floor := func() {
			rows, err := db.QueryContext(ctx, `SELECT vec FROM face_embeddings`)
			must(b, err)
			defer rows.Close()
			var vec sql.RawBytes
			n := 0
			for rows.Next() {
				must(b, rows.Scan(&vec))
				n += len(vec)
			}
			must(b, rows.Err())
			vecBytes = n
		}
		// query reads Load's own statement the way floor reads its one:
		// what the join and sort cost in PostgreSQL, with no decoding.
		query := func() {
			rows, err := db.QueryContext(ctx, rowsQuery)
			must(b, err)
			defer rows.Close()
			var id, dim int64
			var m, vec sql.RawBytes
			for rows.Next() {
				must(b, rows.Scan(&id, &m, &dim, &vec))
			}
			must(b, rows.Err())
		}
		var ours, bare, qs []time.Duration
		var oursB, oursN, bareB, bareN uint64
		round := 0
		b.ReportAllocs()
		for b.Loop() {
			for range 3 {
				for j := range 3 {
					start := time.Now()
					switch (round + j) % 3 {
					case 0:
						ab, an := allocated(load)
						ours = append(ours, time.Since(start))
						oursB, oursN = oursB+ab, oursN+an
					case 1:
						ab, an := allocated(floor)
						bare = append(bare, time.Since(start))
						bareB, bareN = bareB+ab, bareN+an
					default:
						query()
						qs = append(qs, time.Since(start))
					}
				}
				round++
			}
		}
		b.ReportMetric(median(qs), "query-ms")
		if res := ix.Match(model, probe, 0); res.Enrolled != benchStudents || res.Best.StudentID != want {
			b.Fatalf("loaded index: %+v", res)
		}
		n := float64(round)
		b.ReportMetric(median(ours), "load-ms")
		b.ReportMetric(median(bare), "floor-ms")
		b.ReportMetric(median(ours)/median(bare), "ratio")
		b.ReportMetric(float64(vecBytes)/(1<<20), "vec-MB")
		b.ReportMetric(float64(oursB)/(1<<20)/n, "load-alloc-MB")
		b.ReportMetric(float64(bareB)/(1<<20)/n, "floor-alloc-MB")
		b.ReportMetric(float64(oursN)/n, "load-allocs")
		b.ReportMetric(float64(bareN)/n, "floor-allocs")
	})

	b.Run("scan", func(b *testing.B) {
		cache := match.NewCache()
		ix, err := cache.Get(ctx, db) // the first Get loads; not timed
		must(b, err)
		var ours, bare, gets []time.Duration
		var res match.Result
		i := 0
		b.ReportAllocs()
		for b.Loop() {
			for j := range 3 {
				start := time.Now()
				switch (i + j) % 3 {
				case 0:
					cur, err := cache.Get(ctx, db)
					must(b, err)
					res = cur.Match(model, probe, 0)
					ours = append(ours, time.Since(start))
				case 1:
					res = ix.Match(model, probe, 0)
					bare = append(bare, time.Since(start))
				default:
					_, err := cache.Get(ctx, db)
					must(b, err)
					gets = append(gets, time.Since(start))
				}
			}
			i++
		}
		if res.Best.StudentID != want {
			b.Fatalf("scan: %+v", res)
		}
		b.ReportMetric(median(ours), "ms/scan")
		b.ReportMetric(median(bare), "match-ms/scan")
		b.ReportMetric(median(ours)/median(bare), "ratio")
		b.ReportMetric(median(gets), "get-ms")
	})
}
