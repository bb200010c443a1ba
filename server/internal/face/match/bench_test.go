package match

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// benchDim is the length of the kiosk model's embedding (human-faceres-1024).
const benchDim = 1024

const benchModel = "human-faceres-1024"

// benchIndex builds, the way Load does (rows sorted by student), an index of
// n students with 3–5 samples each: every student a random unit "face" and
// their samples that face plus noise (cosine ≈ 0.9 to it), so the scores are
// what a real index gives. It also returns a fresh sample of one enrolled
// student as the probe.
func benchIndex(b *testing.B, n int) (*Index, []float32) {
	b.Helper()
	r := rand.New(rand.NewPCG(16, uint64(n)))
	bl := newBuilder(1)
	face := make([]float32, benchDim)
	left := n * 5
	var probe []float32
	for id := int64(1); id <= int64(n); id++ {
		for i := range face {
			face[i] = float32(r.NormFloat64())
		}
		normalizeInto(face, face)
		k := 3 + r.IntN(3)
		for range k {
			bl.add(id, []byte(benchModel), benchDim, left, func(dst []float32) { noisy(r, dst, face, 0.5) })
			left--
		}
		if id == int64(n)*2/3 {
			probe = make([]float32, benchDim)
			noisy(r, probe, face, 0.5)
		}
	}
	ix := bl.done()
	if g := ix.group(benchModel, benchDim); g == nil || len(g.students) != n {
		b.Fatalf("index of %d students not built", n)
	}
	return ix, probe
}

// noisy writes face plus Gaussian noise of total length size to dst.
func noisy(r *rand.Rand, dst, face []float32, size float64) {
	s := size / math.Sqrt(float64(len(face)))
	for i, f := range face {
		dst[i] = f + float32(r.NormFloat64()*s)
	}
}

// floorScan is the floor: the bare brute-force cosine loop over the same
// flat, already normalised []float32 — a dot product with every sample
// (four accumulators, indexed so the compiler proves every access in
// bounds: the tightest loop plain Go gives), keeping the highest. No
// per-student bookkeeping, no runner-up, no probe normalisation, no
// allocation.
func floorScan(p, vecs []float32) float32 {
	best := float32(math.Inf(-1))
	dim := len(p)
	for k := 0; k+dim <= len(vecs); k += dim {
		v := vecs[k : k+dim : k+dim]
		var s0, s1, s2, s3 float32
		for i := 0; i+4 <= dim; i += 4 {
			a, b := p[i:i+4:i+4], v[i:i+4:i+4]
			s0 += a[0] * b[0]
			s1 += a[1] * b[1]
			s2 += a[2] * b[2]
			s3 += a[3] * b[3]
		}
		if s := (s0 + s1) + (s2 + s3); s > best {
			best = s
		}
	}
	return best
}

// benchMatch times one scan — Index.Match, the call scan.go makes once the
// cached index is current — against n enrolled students, and the floor in
// the same run, alternating which goes first so neither always finds the
// other's data in cache. Reported: ms per scan, the floor's ms, their ratio,
// and (via -benchmem) Match's allocations: the floor allocates nothing.
func benchMatch(b *testing.B, n int) {
	ix, probe := benchIndex(b, n)
	g := ix.group(benchModel, benchDim)
	pn := Normalize(probe) // the floor gets the probe already normalised
	// Sanity: both find the probe's student with a score ≈ 0.8.
	res := ix.Match(benchModel, probe, 0)
	if res.Best.StudentID != int64(n)*2/3 || res.Best.Score < 0.6 || res.Best.Score-res.RunnerUp.Score < 0.3 {
		b.Fatalf("unexpected match: %+v", res)
	}
	if f := floorScan(pn, g.vecs); math.Abs(float64(f)-res.Best.Score) > 1e-4 {
		b.Fatalf("floor best %v, Match best %v", f, res.Best.Score)
	}

	var ours, floor time.Duration
	var sink float32
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		for j := range 2 {
			start := time.Now()
			if (i+j)%2 == 0 {
				res = ix.Match(benchModel, probe, 0)
				ours += time.Since(start)
			} else {
				sink += floorScan(pn, g.vecs)
				floor += time.Since(start)
			}
		}
		i++
	}
	if res.Best.StudentID == 0 || math.IsNaN(float64(sink)) {
		b.Fatal("lost the result")
	}
	iters := float64(i)
	b.ReportMetric(float64(ours)/1e6/iters, "ms/scan")
	b.ReportMetric(float64(floor)/1e6/iters, "floor-ms/scan")
	b.ReportMetric(float64(ours)/float64(floor), "ratio")
	b.ReportMetric(float64(len(g.vecs)/benchDim), "samples")
	b.ReportMetric(float64(len(g.vecs))*4/(1<<20), "index-MB")
}

// BenchmarkMatch1500 is one scan against a school of 1,500 enrolled students.
func BenchmarkMatch1500(b *testing.B) { benchMatch(b, 1500) }

// BenchmarkMatch10000 is one scan against 10,000 enrolled students.
func BenchmarkMatch10000(b *testing.B) { benchMatch(b, 10000) }
