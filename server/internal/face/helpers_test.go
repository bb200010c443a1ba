package face_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/server/internal/violationtype"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

const model = "human-faceres-1024"

// school is a small school: class A with its homeroom teacher, class B,
// the default violation types, a BK counsellor and the admin.
type school struct {
	env            *apitest.Env
	admin, bk      *apitest.Client
	wali           *apitest.Client // homeroom teacher of class A
	classA, classB int64
	rng            *rand.Rand
}

func newSchool(t *testing.T) *school {
	t.Helper()
	env := apitest.New(t)
	if err := violationtype.Boot(context.Background(), env.Deps); err != nil {
		t.Fatal(err)
	}
	s := &school{env: env, admin: env.As(perm.Admin), bk: env.As(perm.BK), wali: env.As(perm.WaliKelas), rng: rand.New(rand.NewPCG(1, 2))}
	must(t, env.DB.Get(&s.classA, `INSERT INTO classes (name, grade, homeroom_teacher_id) VALUES ('X IPA 1', 10, $1) RETURNING id`, s.wali.UserID))
	must(t, env.DB.Get(&s.classB, `INSERT INTO classes (name, grade) VALUES ('X IPA 2', 10) RETURNING id`))
	return s
}

var seq atomic.Int64

// student adds an active student to class and returns its id and name.
func (s *school) student(t *testing.T, class int64) (int64, string) {
	t.Helper()
	n := seq.Add(1) + 1000
	name := fmt.Sprintf("Siswa %06d", n)
	var id int64
	must(t, s.env.DB.Get(&id, `INSERT INTO students (source_id, nisn, nis, full_name, class_id) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
		n, fmt.Sprintf("00%08d", n), fmt.Sprint(n), name, class))
	return id, name
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func consentInput() api.FaceConsentInput {
	return api.FaceConsentInput{GuardianName: "Ibu Sari", Relationship: api.FaceRelMother, Method: api.FaceMethodPaper,
		GivenOn: "2026-01-05", Reference: "F-001"}
}

// consent records a consent for student id as BK.
func (s *school) consent(t *testing.T, id int64) {
	t.Helper()
	s.bk.Do("PUT", fmt.Sprintf("/api/v1/students/%d/face-consent", id), consentInput()).Want(200)
}

// unit is a random unit vector of dim 128.
func (s *school) unit() []float32 {
	v := make([]float32, 128)
	for i := range v {
		v[i] = float32(s.rng.NormFloat64())
	}
	return normal(v)
}

func normal(v []float32) []float32 {
	var n float64
	for _, f := range v {
		n += float64(f) * float64(f)
	}
	n = math.Sqrt(n)
	out := make([]float32, len(v))
	for i, f := range v {
		out[i] = float32(float64(f) / n)
	}
	return out
}

// near is the same face: v plus a little noise (cosine ≈ 0.99).
func (s *school) near(v []float32) []float32 {
	out := make([]float32, len(v))
	for i, f := range v {
		out[i] = f + float32(s.rng.NormFloat64()*0.01)
	}
	return out
}

// mix is a probe whose cosine with a is exactly wa and whose component
// along b (made orthogonal to a) is wb; the rest of its length points in
// a fresh direction orthogonal to both.
func (s *school) mix(a []float32, wa float64, b []float32, wb float64) []float32 {
	dot := func(x, y []float64) float64 {
		var d float64
		for i := range x {
			d += x[i] * y[i]
		}
		return d
	}
	f64s := func(v []float32) []float64 {
		out := make([]float64, len(v))
		for i, f := range v {
			out[i] = float64(f)
		}
		return out
	}
	orth := func(v []float64, basis ...[]float64) []float64 {
		for _, e := range basis {
			d := dot(v, e)
			for i := range v {
				v[i] -= d * e[i]
			}
		}
		n := math.Sqrt(dot(v, v))
		for i := range v {
			v[i] /= n
		}
		return v
	}
	e1 := f64s(a)
	basis := [][]float64{e1}
	var e2 []float64
	if b != nil {
		e2 = orth(f64s(b), e1)
		basis = append(basis, e2)
	}
	e3 := orth(f64s(s.unit()), basis...)
	rest := math.Sqrt(1 - wa*wa - wb*wb)
	out := make([]float32, len(a))
	for i := range a {
		x := wa*e1[i] + rest*e3[i]
		if e2 != nil {
			x += wb * e2[i]
		}
		out[i] = float32(x)
	}
	return out
}

// samples are n samples of the face v.
func (s *school) samples(v []float32, n int) [][]float32 {
	out := make([][]float32, n)
	for i := range out {
		out[i] = s.near(v)
	}
	return out
}

func (s *school) enrol(t *testing.T, id int64, v []float32) {
	t.Helper()
	s.bk.Do("POST", fmt.Sprintf("/api/v1/students/%d/face-enrolments", id),
		api.FaceEnrolmentInput{Model: model, Embeddings: s.samples(v, 3)}).Want(http.StatusCreated)
}

// kiosk creates a kiosk and returns a client using its token.
func (s *school) kiosk(t *testing.T, name string) (*apitest.Client, api.KioskCreated) {
	t.Helper()
	var k api.KioskCreated
	s.admin.Do("POST", "/api/v1/settings/kiosks", api.KioskInput{Name: name}).Want(http.StatusCreated).JSON(&k)
	c := s.env.Anonymous()
	c.Token = k.Token
	return c, k
}

func f64(v float64) *float64 { return &v }

// blink is what a kiosk observes for a real blink.
func blink(id string) api.FaceChallengeResult {
	return api.FaceChallengeResult{ID: id, Kind: api.ChallengeBlink, Passed: true, OpenMin: f64(0.45), OpenMax: f64(1.05), Frames: 8, Millis: 700}
}

// blinkOnly makes every challenge a blink.
func (s *school) blinkOnly(t *testing.T, start string) {
	t.Helper()
	s.admin.Do("PUT", "/api/v1/settings/face", api.FaceSettings{SchoolStart: start, Threshold: 0.5, Margin: 0.08, RetentionDays: 30,
		Challenges: []string{api.ChallengeBlink}}).Want(200)
}

// scan asks kiosk k for a challenge and sends the probe with a blink.
func scan(t *testing.T, k *apitest.Client, probe []float32) api.FaceScanResult {
	t.Helper()
	var ch api.FaceChallenge
	k.Do("POST", "/api/v1/face/challenge", nil).Want(http.StatusCreated).JSON(&ch)
	var out api.FaceScanResult
	k.Do("POST", "/api/v1/face/scan", api.FaceScanInput{Model: model, Embedding: probe, Challenge: blink(ch.ID)}).Want(200).JSON(&out)
	return out
}

// jakarta returns the instant of a Jakarta wall-clock time.
func jakarta(t *testing.T, s string) time.Time {
	t.Helper()
	loc, err := time.LoadLocation("Asia/Jakarta")
	must(t, err)
	at, err := time.ParseInLocation("2006-01-02 15:04:05", s, loc)
	must(t, err)
	return at
}

func fieldCode(t *testing.T, r *apitest.Response, field string) string {
	t.Helper()
	e := r.Err()
	return e.Error.FieldCodes[field].Code
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }
