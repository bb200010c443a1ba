package match

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tatib/tatib/shared/api"
)

func TestDecideBoundaries(t *testing.T) {
	const th, mg = 0.5, 0.08
	cases := []struct {
		best, runner float64
		want         string
	}{
		// matched: best ≥ threshold and lead ≥ margin
		{0.5, 0.42, api.ScanMatched}, // both exactly at the boundary
		{0.5, 0.0, api.ScanMatched},  // no runner-up
		{0.9, 0.82, api.ScanMatched}, // lead exactly the margin
		{0.9, 0.1, api.ScanMatched},  // clear
		{0.58, 0.5, api.ScanMatched}, // 0.58−0.5 is 0.0799999… in float64
		{1.0, -0.3, api.ScanMatched}, // negative runner-up
		{0.5000001, 0.4200001, api.ScanMatched},
		// uncertain: above the threshold, margin short
		{0.5, 0.4201, api.ScanUncertain},
		{0.9, 0.8201, api.ScanUncertain},
		{0.9, 0.9, api.ScanUncertain}, // a tie
		{0.7, 0.65, api.ScanUncertain},
		// uncertain: the band below the threshold, whatever the runner-up
		{0.4999, 0.0, api.ScanUncertain},
		{0.45, 0.0, api.ScanUncertain}, // the band's lower edge
		{0.46, 0.45, api.ScanUncertain},
		{0.48, 0.1, api.ScanUncertain},
		// unknown: below the band
		{0.4499, 0.0, api.ScanUnknown},
		{0.3, 0.0, api.ScanUnknown},
		{-0.2, -0.5, api.ScanUnknown},
		{0, 0, api.ScanUnknown},
		{math.NaN(), 0, api.ScanUnknown},
	}
	for _, c := range cases {
		if got := Decide(c.best, c.runner, th, mg); got != c.want {
			t.Errorf("Decide(%v, %v, %v, %v) = %s, want %s", c.best, c.runner, th, mg, got, c.want)
		}
	}
	// Settings as PostgreSQL's real gives them back (float32 widened).
	th32, mg32 := float64(float32(0.62)), float64(float32(0.1))
	if got := Decide(0.62, 0.52, th32, mg32); got != api.ScanMatched {
		t.Errorf("float32 settings at the boundary: %s", got)
	}
	if got := Decide(float64(float32(0.57)), 0, th32, mg32); got != api.ScanUncertain {
		t.Errorf("float32 band edge: %s", got)
	}
	if got := Decide(0.5699, 0, th32, mg32); got != api.ScanUnknown {
		t.Errorf("below the float32 band edge: %s", got)
	}
	// margin 0 (allowed by the settings): any lead, even a tie, matches.
	if got := Decide(0.6, 0.6, 0.5, 0); got != api.ScanMatched {
		t.Errorf("margin 0 tie: %s", got)
	}
}

func TestEncodeDecode(t *testing.T) {
	v := []float32{0, 1, -1, 0.5, float32(math.Pi), math.MaxFloat32, -math.SmallestNonzeroFloat32, 1e-20}
	b := Encode(v)
	if len(b) != 4*len(v) {
		t.Fatalf("len %d", len(b))
	}
	// little-endian: 1.0 is 0x3f800000
	if !slices.Equal(b[4:8], []byte{0x00, 0x00, 0x80, 0x3f}) {
		t.Errorf("1.0 encoded as % x", b[4:8])
	}
	got, err := Decode(b, len(v))
	if err != nil || !slices.Equal(got, v) {
		t.Fatalf("round trip: %v %v", got, err)
	}
	if _, err := Decode(b, len(v)+1); err == nil {
		t.Error("short bytes decoded")
	}
	if _, err := Decode(b[:len(b)-1], len(v)); err == nil {
		t.Error("ragged bytes decoded")
	}
	if _, err := Decode(b, -1); err == nil {
		t.Error("negative dim decoded")
	}
	if got, err := Decode(nil, 0); err != nil || len(got) != 0 {
		t.Errorf("empty: %v %v", got, err)
	}
	// NaN survives bit for bit (Validate, not Decode, refuses it).
	nan := Encode([]float32{float32(math.NaN())})
	if d, _ := Decode(nan, 1); !math.IsNaN(float64(d[0])) {
		t.Error("NaN lost")
	}
}

func TestValidate(t *testing.T) {
	ok := make([]float32, 128)
	ok[3] = 0.25
	if err := Validate(ok); err != nil {
		t.Errorf("valid: %v", err)
	}
	for _, n := range []int{MinDim, MaxDim} {
		v := make([]float32, n)
		v[0] = 1
		if err := Validate(v); err != nil {
			t.Errorf("len %d: %v", n, err)
		}
	}
	for _, n := range []int{0, 1, MinDim - 1, MaxDim + 1} {
		v := make([]float32, n)
		if n > 0 {
			v[0] = 1
		}
		if err := Validate(v); !errors.Is(err, ErrDims) {
			t.Errorf("len %d: %v", n, err)
		}
	}
	for _, bad := range []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1))} {
		v := slices.Clone(ok)
		v[100] = bad
		if err := Validate(v); !errors.Is(err, ErrNotFinite) {
			t.Errorf("%v: %v", bad, err)
		}
	}
	if err := Validate(make([]float32, 64)); !errors.Is(err, ErrZero) {
		t.Errorf("zeros: %v", err)
	}
	// Huge but finite values do not overflow the length.
	big := make([]float32, 64)
	for i := range big {
		big[i] = math.MaxFloat32
	}
	if err := Validate(big); err != nil {
		t.Errorf("huge: %v", err)
	}
	if n := Normalize(big); math.Abs(float64(dot(n, n))-1) > 1e-5 {
		t.Errorf("huge normalised to length² %v", dot(n, n))
	}
}

func TestNormalize(t *testing.T) {
	v := []float32{3, 4, 0, 0}
	n := Normalize(v)
	if !slices.Equal(v, []float32{3, 4, 0, 0}) {
		t.Error("Normalize changed its argument")
	}
	if math.Abs(float64(n[0])-0.6) > 1e-7 || math.Abs(float64(n[1])-0.8) > 1e-7 {
		t.Errorf("normalised %v", n)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		x := randVec(r, 1024)
		for i := range x {
			x[i] *= 37
		}
		u := Normalize(x)
		if d := math.Abs(float64(dot(u, u)) - 1); d > 1e-5 {
			t.Fatalf("length² off by %v", d)
		}
		// Round trip through the wire format keeps it.
		w, _ := Decode(Encode(u), len(u))
		if !slices.Equal(w, u) {
			t.Fatal("encode/decode changed a normalised vector")
		}
	}
	if z := Normalize(make([]float32, 8)); !slices.Equal(z, make([]float32, 8)) {
		t.Errorf("zero vector became %v", z)
	}
	if got := Normalize(nil); len(got) != 0 {
		t.Errorf("nil: %v", got)
	}
}

func TestDotMatchesNaive(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 3, 4, 5, 7, 16, 17, 127, 128, 1023, 1024} {
		a, b := randVec(r, n), randVec(r, n)
		var want float64
		for i := range a {
			want += float64(a[i]) * float64(b[i])
		}
		if got := dot(a, b); math.Abs(float64(got)-want) > 1e-4 {
			t.Errorf("n=%d: dot %v, naive %v", n, got, want)
		}
	}
}

// row is one sample for buildIndex.
type row struct {
	student int64
	model   string
	vec     []float32
}

// buildIndex makes an Index the way Load does, from rows in any order.
func buildIndex(version int64, rows []row) *Index {
	rows = slices.Clone(rows)
	slices.SortStableFunc(rows, func(a, b row) int {
		if a.model != b.model {
			if a.model < b.model {
				return -1
			}
			return 1
		}
		if len(a.vec) != len(b.vec) {
			return len(a.vec) - len(b.vec)
		}
		switch {
		case a.student < b.student:
			return -1
		case a.student > b.student:
			return 1
		}
		return 0
	})
	b := newBuilder(version)
	for i, r := range rows {
		b.add(r.student, []byte(r.model), len(r.vec), len(rows)-i, func(dst []float32) { copy(dst, r.vec) })
	}
	return b.done()
}

func randVec(r *rand.Rand, n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(r.NormFloat64())
	}
	return v
}

// near returns v plus noise of the given size relative to v's length.
func near(r *rand.Rand, v []float32, noise float64) []float32 {
	u := Normalize(v)
	out := make([]float32, len(u))
	s := noise / math.Sqrt(float64(len(u)))
	for i := range u {
		out[i] = u[i] + float32(r.NormFloat64()*s)
	}
	return out
}

func cosine(a, b []float32) float64 { return float64(dot(Normalize(a), Normalize(b))) }

func TestMatch(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	const dim = 256
	const model = "human-faceres-1024@3.3.6"
	faces := map[int64][]float32{}
	var rows []row
	for id := int64(1); id <= 6; id++ {
		faces[id] = randVec(r, dim)
		for range 3 {
			rows = append(rows, row{id, model, near(r, faces[id], 0.6)})
		}
	}
	// Student 7 has one sample that is a near copy of the probe below and
	// two far ones: best-of-samples must find it.
	probe := near(r, faces[3], 0.6)
	rows = append(rows,
		row{7, model, randVec(r, dim)},
		row{7, model, near(r, probe, 0.05)},
		row{7, model, randVec(r, dim)},
	)
	// Another model holds an exact copy of the probe: it must never count.
	rows = append(rows, row{8, "other-model", slices.Clone(probe)})
	// The same model name with another length is another group.
	rows = append(rows, row{9, model, randVec(r, 128)})
	// Student 10's samples: scaled copies (normalisation makes them equal).
	x := randVec(r, dim)
	rows = append(rows, row{10, model, x}, row{10, model, scale(x, 100)})
	ix := buildIndex(42, rows)

	if ix.Version() != 42 {
		t.Errorf("version %d", ix.Version())
	}
	if got := ix.Models(); !slices.Equal(got, []string{model, "other-model"}) {
		t.Errorf("models %v", got)
	}

	res := ix.Match(model, probe, 0)
	if res.Enrolled != 8 {
		t.Errorf("enrolled %d, want 8", res.Enrolled)
	}
	if res.Best.StudentID != 7 {
		t.Fatalf("best %+v, want student 7 (its one close sample)", res.Best)
	}
	if want := cosine(probe, near(r, probe, 0)); res.Best.Score < 0.95 || res.Best.Score > want+1e-5 {
		t.Errorf("best score %v", res.Best.Score)
	}
	if res.RunnerUp.StudentID != 3 {
		t.Errorf("runner-up %+v, want student 3 (a different student)", res.RunnerUp)
	}
	// The runner-up's score is its best sample's cosine.
	var want float64 = -2
	for _, rw := range rows {
		if rw.student == 3 {
			want = max(want, cosine(probe, rw.vec))
		}
	}
	if math.Abs(res.RunnerUp.Score-want) > 1e-5 {
		t.Errorf("runner-up score %v, want %v", res.RunnerUp.Score, want)
	}

	// Excluding the best moves the runner-up up.
	ex := ix.Match(model, probe, 7)
	if ex.Best.StudentID != 3 || ex.RunnerUp.StudentID == 7 || ex.RunnerUp.StudentID == 3 || ex.RunnerUp.StudentID == 0 {
		t.Errorf("exclude 7: %+v", ex)
	}
	if ex.Enrolled != 8 {
		t.Errorf("exclude changed Enrolled: %d", ex.Enrolled)
	}

	// Each enrolled face finds itself.
	for id, f := range faces {
		res := ix.Match(model, near(r, f, 0.3), 0)
		if res.Best.StudentID != id || res.RunnerUp.StudentID == id {
			t.Errorf("student %d: %+v", id, res)
		}
		if res.Best.Score <= res.RunnerUp.Score {
			t.Errorf("student %d: best %v ≤ runner-up %v", id, res.Best.Score, res.RunnerUp.Score)
		}
	}
	// Scale does not matter.
	if res := ix.Match(model, scale(x, 0.001), 0); res.Best.StudentID != 10 || res.Best.Score < 0.9999 {
		t.Errorf("scaled probe: %+v", res)
	}

	// The other model: only its own student; no runner-up.
	o := ix.Match("other-model", probe, 0)
	if o.Enrolled != 1 || o.Best.StudentID != 8 || o.RunnerUp != (Candidate{}) || o.Best.Score < 0.9999 {
		t.Errorf("other model: %+v", o)
	}
	if o := ix.Match("other-model", probe, 8); o.Enrolled != 1 || o.Best != (Candidate{}) {
		t.Errorf("other model, its only student excluded: %+v", o)
	}
	// The other length of the same model: its own group.
	if g := ix.Match(model, randVec(r, 128), 0); g.Enrolled != 1 || g.Best.StudentID != 9 {
		t.Errorf("128-long probe: %+v", g)
	}
	// Unknown model, unknown length, empty or nil index: nothing enrolled.
	for name, got := range map[string]Result{
		"unknown model":  ix.Match("nope", probe, 0),
		"unknown length": ix.Match(model, randVec(r, 64), 0),
		"empty index":    buildIndex(0, nil).Match(model, probe, 0),
		"nil index":      (*Index)(nil).Match(model, probe, 0),
	} {
		if got != (Result{}) {
			t.Errorf("%s: %+v", name, got)
		}
	}
	if m := buildIndex(0, nil).Models(); len(m) != 0 {
		t.Errorf("empty index models %v", m)
	}
	// Match does not change the probe.
	p2 := slices.Clone(probe)
	ix.Match(model, p2, 0)
	if !slices.Equal(p2, probe) {
		t.Error("Match changed the probe")
	}
}

func TestMatchDropsUnusableSamples(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	good := randVec(r, 32)
	bad := make([]float32, 32)
	nan := randVec(r, 32)
	nan[5] = float32(math.NaN())
	ix := buildIndex(1, []row{
		{1, "m", bad}, {1, "m", good},
		{2, "m", bad},
		{3, "m", nan},
	})
	res := ix.Match("m", good, 0)
	if res.Enrolled != 1 || res.Best.StudentID != 1 || res.RunnerUp != (Candidate{}) {
		t.Errorf("%+v", res)
	}
	if math.IsNaN(res.Best.Score) {
		t.Error("NaN score")
	}
}

func TestMatchTieAndSingle(t *testing.T) {
	v := []float32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}
	ix := buildIndex(1, []row{{5, "m", v}, {6, "m", scale(v, 2)}})
	res := ix.Match("m", v, 0)
	if res.Best.StudentID == res.RunnerUp.StudentID || res.RunnerUp.StudentID == 0 {
		t.Fatalf("tie: %+v", res)
	}
	if Decide(res.Best.Score, res.RunnerUp.Score, 0.5, 0.08) != api.ScanUncertain {
		t.Errorf("two identical faces must not match: %+v", res)
	}
}

func scale(v []float32, k float32) []float32 {
	out := make([]float32, len(v))
	for i := range v {
		out[i] = v[i] * k
	}
	return out
}

func TestMatchDoesNotAllocatePerStudent(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	var rows []row
	for id := int64(1); id <= 200; id++ {
		for range 3 {
			rows = append(rows, row{id, "m", randVec(r, 64)})
		}
	}
	ix := buildIndex(1, rows)
	probe := randVec(r, 64)
	if n := testing.AllocsPerRun(20, func() { ix.Match("m", probe, 0) }); n > 1 {
		t.Errorf("%v allocations per Match, want ≤ 1 (the normalised probe)", n)
	}
}
