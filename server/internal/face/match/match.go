// Package match is Face-ID's matcher (issue 16, docs/face-id.md): the
// decision rule, the embedding wire format, and an in-memory index of every
// active student's enrolled embeddings that a scan is matched against by
// brute-force cosine similarity.
//
// Vectors are L2-normalised when they enter the index, so cosine similarity
// is a plain dot product. Each (model, dimension) group keeps its students'
// samples in one contiguous []float32, a student's samples next to each
// other, so a scan is one pass over memory with no allocation per student.
package match

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/tatib/tatib/shared/api"
)

// Vector length limits (the migration's CHECK on face_embeddings.dim).
const (
	MinDim = 16
	MaxDim = 4096
)

// UncertainBand is how far below the threshold a best score still counts
// as uncertain (sent to the confirmation queue) rather than unknown.
const UncertainBand = 0.05

// eps absorbs float32 rounding at the decision boundaries: scores are
// float32 dot products and the settings are stored as real, so 0.58−0.5
// must count as a margin of 0.08. Far below anything a cosine can tell.
const eps = 1e-6

// Validation errors; the caller maps them to field codes.
var (
	ErrDims      = errors.New("match: vector length must be 16–4096")
	ErrNotFinite = errors.New("match: vector has a NaN or infinite value")
	ErrZero      = errors.New("match: vector is all zeros")
)

// Candidate is one student's best score for a probe.
type Candidate struct {
	StudentID int64
	Score     float64
}

// Result of Match: Best and RunnerUp (a different student; the zero
// Candidate when there is none); Enrolled is how many students of the
// probe's model (and dimension) are in the index — 0 means the model is not
// enrolled at all (outcome not_enrolled_model). An excluded student still
// counts in Enrolled, so Best.StudentID == 0 with Enrolled > 0 means every
// enrolled student was excluded.
type Result struct {
	Best, RunnerUp Candidate
	Enrolled       int
}

// Decide applies the decision rule to a best score and the runner-up's
// score (pass 0 when there is no runner-up): matched when best ≥ threshold
// and best − runnerUp ≥ margin; uncertain when best ≥ threshold but the
// margin falls short, or when threshold − UncertainBand ≤ best < threshold;
// else unknown.
func Decide(best, runnerUp, threshold, margin float64) string {
	if math.IsNaN(best) || math.IsNaN(runnerUp) {
		return api.ScanUnknown
	}
	if best >= threshold-eps {
		if best-runnerUp >= margin-eps {
			return api.ScanMatched
		}
		return api.ScanUncertain
	}
	if best >= threshold-UncertainBand-eps {
		return api.ScanUncertain
	}
	return api.ScanUnknown
}

// Encode writes v as little-endian float32s (face_embeddings.vec).
func Encode(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, f := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
	}
	return b
}

// Decode reads dim little-endian float32s; b must be exactly 4·dim bytes.
func Decode(b []byte, dim int) ([]float32, error) {
	if dim < 0 || len(b) != 4*dim {
		return nil, fmt.Errorf("match: %d bytes is not %d float32s", len(b), dim)
	}
	v := make([]float32, dim)
	decodeInto(v, b)
	return v, nil
}

// decodeInto fills dst from len(dst)·4 little-endian bytes of b.
func decodeInto(dst []float32, b []byte) {
	b = b[:4*len(dst)]
	for i := range dst {
		dst[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
}

// Validate checks an embedding a client sent: 16–4096 finite numbers, not
// all zero (and not so small that its length underflows).
func Validate(v []float32) error {
	if len(v) < MinDim || len(v) > MaxDim {
		return ErrDims
	}
	for _, f := range v {
		if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
			return ErrNotFinite
		}
	}
	if norm(v) == 0 {
		return ErrZero
	}
	return nil
}

// norm is v's Euclidean length, summed in float64 so that large float32s
// do not overflow.
func norm(v []float32) float64 {
	var s float64
	for _, f := range v {
		s += float64(f) * float64(f)
	}
	return math.Sqrt(s)
}

// Normalize returns a copy of v scaled to unit length (a zero vector stays
// zero).
func Normalize(v []float32) []float32 {
	out := make([]float32, len(v))
	normalizeInto(out, v)
	return out
}

// normalizeInto writes v/|v| to dst (len(dst) == len(v); may alias) and
// reports whether v had a usable, finite length.
func normalizeInto(dst, v []float32) bool {
	n := norm(v)
	if n == 0 || math.IsInf(n, 0) || math.IsNaN(n) {
		copy(dst, v)
		return false
	}
	inv := 1 / n
	for i, f := range v {
		dst[i] = float32(float64(f) * inv)
	}
	return true
}

// group is the index of one (model, dimension): students[i]'s samples are
// vecs[off[i]*dim : off[i+1]*dim], each one unit length.
type group struct {
	dim      int
	students []int64
	off      []int32 // len(students)+1 sample offsets
	vecs     []float32
}

// Index is an immutable snapshot of the enrolled embeddings of active
// students at one face_index_state version. Safe for concurrent use.
type Index struct {
	version int64
	models  map[string][]*group // by model, one group per dimension
	names   []string            // sorted
}

// Version is the face_index_state.version the index was loaded at.
func (ix *Index) Version() int64 {
	if ix == nil {
		return 0
	}
	return ix.version
}

// Models lists the models with at least one enrolled student, sorted.
func (ix *Index) Models() []string {
	if ix == nil {
		return nil
	}
	return slices.Clone(ix.names)
}

func (ix *Index) group(model string, dim int) *group {
	if ix == nil {
		return nil
	}
	for _, g := range ix.models[model] {
		if g.dim == dim {
			return g
		}
	}
	return nil
}

// Match scores probe against every enrolled student of model: cosine
// similarity of the normalised vectors, a student's score the best of
// their samples. exclude (0 = none) leaves one student out (the enrolment
// duplicate check excludes the student being enrolled). A probe whose
// length no enrolment of model has matches nothing (Enrolled 0).
func (ix *Index) Match(model string, probe []float32, exclude int64) Result {
	g := ix.group(model, len(probe))
	if g == nil || len(g.students) == 0 {
		return Result{}
	}
	p := Normalize(probe)
	bi, ri, bs, rs := g.scan(p, exclude)
	res := Result{Enrolled: len(g.students)}
	if bi >= 0 {
		res.Best = Candidate{StudentID: g.students[bi], Score: float64(bs)}
	}
	if ri >= 0 {
		res.RunnerUp = Candidate{StudentID: g.students[ri], Score: float64(rs)}
	}
	return res
}

// scan is the hot loop: the best and second-best student (indexes, -1 when
// none) and their scores.
func (g *group) scan(p []float32, exclude int64) (bi, ri int, bs, rs float32) {
	bi, ri = -1, -1
	bs, rs = float32(math.Inf(-1)), float32(math.Inf(-1))
	dim := g.dim
	vecs := g.vecs
	off := g.off
	for i, id := range g.students {
		if id == exclude {
			continue
		}
		lo, hi := int(off[i])*dim, int(off[i+1])*dim
		s := float32(math.Inf(-1))
		for k := lo; k < hi; k += dim {
			if d := dot(p, vecs[k:k+dim]); d > s {
				s = d
			}
		}
		if s > bs {
			ri, rs = bi, bs
			bi, bs = i, s
		} else if s > rs {
			ri, rs = i, s
		}
	}
	return bi, ri, bs, rs
}

// dot is the dot product of two equally long vectors, four lanes at a time.
// Indexed rather than reslicing a and b each step: a[4:] makes the compiler
// mask the new pointer (in case the slice became empty) on every step, which
// cost about a third of a scan (BenchmarkMatch10000); with the index the
// loop is the loads, multiplies and adds and two compares. Same sums, in
// the same order.
func dot(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		x, y := a[i:i+4:i+4], b[i:i+4:i+4]
		s0 += x[0] * y[0]
		s1 += x[1] * y[1]
		s2 += x[2] * y[2]
		s3 += x[3] * y[3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}
