package face

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"math"
	"math/big"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/face/match"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/server/internal/locale"
	"github.com/tatib/tatib/shared/api"
)

// ChallengeTTL is how long a kiosk has to send the scan of a challenge.
const ChallengeTTL = 60 * time.Second

// Liveness limits the server re-checks a passed challenge's observations
// against (docs/face-id.md).
const (
	// A blink is judged against the person's own open eyes (eye shapes, glasses
	// and lids differ; an absolute level would favour wide eyes): the eyes must
	// have been seen open (openness ≈ 1 for an average open eye) and the lowest
	// openness must come down to this share of the highest.
	blinkOpenMin  = 0.5
	blinkRatioMax = 0.8
	turnPeakMin   = 15.0 // degrees the head turns at its extreme
	turnStartMax  = 12.0 // degrees off frontal at the start, at most
	minFrames     = 3
)

func (h *Handler) challenge(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	k, err := h.kioskOf(ctx, r)
	if err != nil {
		return err
	}
	s, err := h.store.Settings(ctx)
	if err != nil {
		return err
	}
	kinds := s.Challenges
	if len(kinds) == 0 {
		kinds = Kinds
	}
	n, err := rand.Int(rand.Reader, big.NewInt(int64(len(kinds))))
	if err != nil {
		return fmt.Errorf("face: challenge kind: %w", err)
	}
	b := make([]byte, 24)
	_, _ = rand.Read(b)
	at := now()
	out := api.FaceChallenge{ID: base64.RawURLEncoding.EncodeToString(b), Kind: kinds[n.Int64()], ExpiresAt: at.Add(ChallengeTTL).UTC()}
	// One kiosk asks for at most KioskChallengesPerMinute challenges a
	// minute: every scan needs one, so a stolen token cannot be used to
	// scan at machine speed.
	issued, err := h.store.IssueChallenge(ctx, k.ID, out, at)
	if err != nil {
		return err
	}
	if !issued {
		e := apperr.New(apperr.RateLimited, "face.kiosk.rate_limited", "max", KioskChallengesPerMinute)
		e.RetryAfter = 10
		return e
	}
	return httpx.JSON(w, http.StatusCreated, out)
}

type scanInput struct {
	Model     string                  `json:"model"`
	Embedding rawVector               `json:"embedding"`
	Challenge api.FaceChallengeResult `json:"challenge"`
}

// liveness re-checks what the kiosk observed for a passed challenge.
func liveness(c api.FaceChallengeResult) bool {
	if !c.Passed || c.Frames < minFrames {
		return false
	}
	fin := func(p *float64) bool { return p != nil && !math.IsNaN(*p) && !math.IsInf(*p, 0) }
	switch c.Kind {
	case api.ChallengeBlink:
		return fin(c.OpenMin) && fin(c.OpenMax) && *c.OpenMax >= blinkOpenMin && *c.OpenMin >= 0 &&
			*c.OpenMin <= blinkRatioMax**c.OpenMax
	case api.ChallengeTurnLeft:
		return fin(c.YawStart) && fin(c.YawPeak) && *c.YawPeak <= -turnPeakMin && math.Abs(*c.YawStart) <= turnStartMax
	case api.ChallengeTurnRight:
		return fin(c.YawStart) && fin(c.YawPeak) && *c.YawPeak >= turnPeakMin && math.Abs(*c.YawStart) <= turnStartMax
	}
	return false
}

// scanRow is a face_scans row to write.
type scanRow struct {
	KioskID       int64
	KioskName     string
	At            time.Time
	Outcome       string
	Model         string
	StudentID     int64
	Score         *float64
	RunnerUpID    int64
	RunnerUpScore *float64
	Margin        *float64
	Kind          string
	Passed        bool
	Attendance    string
}

func nullID(id int64) *int64 {
	if id == 0 {
		return nil
	}
	return &id
}

func ptr(f float64) *float64 { f = round(f); return &f }

// scan matches a kiosk's probe after its liveness challenge, and marks a
// recognised arrival present or late.
func (h *Handler) scan(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	k, err := h.kioskOf(ctx, r)
	if err != nil {
		return err
	}
	var in scanInput
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	f := apperr.Fields{}
	model := validModel(f, in.Model)
	in.Challenge.ID = strings.TrimSpace(in.Challenge.ID)
	if in.Challenge.ID == "" || len(in.Challenge.ID) > 64 {
		f.Add("challenge.id", "face.challenge.id_required")
	}
	if !slices.Contains(Kinds, in.Challenge.Kind) {
		f.Add("challenge.kind", "face.challenge.kind")
	}
	var probe []float32
	if len(in.Embedding) > 0 || in.Challenge.Passed {
		var problem string
		if probe, problem = in.Embedding.parse(); problem != "" {
			f.Add("embedding", problem, "min", match.MinDim, "max", match.MaxDim, "sample", 1)
		}
	}
	if err := f.Err(); err != nil {
		return err
	}
	at := now()
	kind, err := h.store.consume(ctx, k.ID, in.Challenge.ID, at)
	if err != nil {
		return err
	}
	row := scanRow{KioskID: k.ID, KioskName: k.Name, At: at, Model: model, Kind: kind, Attendance: api.ScanAttendanceNone,
		Passed: in.Challenge.Kind == kind && liveness(in.Challenge)}
	out := api.FaceScanResult{ScannedAt: at.UTC(), Attendance: api.ScanAttendanceNone}
	if !row.Passed {
		row.Outcome = api.ScanLivenessFailed
		if out.ScanID, err = h.store.LogScan(ctx, row); err != nil {
			return err
		}
		out.Outcome, out.Greeting = row.Outcome, locale.T(ctx, "face.greeting.liveness_failed")
		return httpx.JSON(w, http.StatusOK, out)
	}

	settings, err := h.store.Settings(ctx)
	if err != nil {
		return err
	}
	ix, err := h.store.Index(ctx)
	if err != nil {
		return err
	}
	res := ix.Match(model, probe, 0)
	if res.Enrolled == 0 || res.Best.StudentID == 0 {
		row.Outcome = api.ScanModelMismatch
	} else {
		row.Outcome = match.Decide(res.Best.Score, res.RunnerUp.Score, settings.Threshold, settings.Margin)
		row.StudentID, row.Score = res.Best.StudentID, ptr(res.Best.Score)
		row.Margin = ptr(res.Best.Score - res.RunnerUp.Score)
		if res.RunnerUp.StudentID != 0 {
			row.RunnerUpID, row.RunnerUpScore = res.RunnerUp.StudentID, ptr(res.RunnerUp.Score)
		}
	}
	out.Outcome = row.Outcome
	if row.Outcome != api.ScanMatched {
		if out.ScanID, err = h.store.LogScan(ctx, row); err != nil {
			return err
		}
		greeting := "face.greeting.unknown"
		if row.Outcome == api.ScanUncertain {
			greeting = "face.greeting.uncertain"
		}
		out.Greeting = locale.T(ctx, greeting)
		return httpx.JSON(w, http.StatusOK, out)
	}

	actor := h.kioskActor(r, k)
	scanID, st, err := h.store.RecordMatch(ctx, k, &row, settings, actor, map[string]any{
		"score": row.Score, "runner_up_id": nullID(row.RunnerUpID), "runner_up_score": row.RunnerUpScore, "margin": row.Margin,
		"model": model, "challenge": kind,
		"observations": map[string]any{"open_min": in.Challenge.OpenMin, "open_max": in.Challenge.OpenMax,
			"yaw_start": in.Challenge.YawStart, "yaw_peak": in.Challenge.YawPeak, "real_score": in.Challenge.RealScore,
			"live_score": in.Challenge.LiveScore, "frames": in.Challenge.Frames, "millis": in.Challenge.Millis},
	})
	if err != nil {
		return err
	}
	out.ScanID = scanID
	out.Attendance = row.Attendance
	out.Student = &api.FaceScanStudent{ID: st.ID, Name: st.Name, ClassName: st.ClassName}
	out.Greeting = greeting(ctx, row.Attendance, st.Name)
	return httpx.JSON(w, http.StatusOK, out)
}

// greeting is the kiosk's message for a matched arrival.
func greeting(ctx context.Context, effect, name string) string {
	switch effect {
	case api.ScanAttendanceLate:
		return locale.T(ctx, "face.greeting.late", "name", name)
	case api.ScanAttendanceKept:
		return locale.T(ctx, "face.greeting.kept", "name", name)
	}
	return locale.T(ctx, "face.greeting.present", "name", name)
}

// KioskChallengesPerMinute bounds the challenges one kiosk may ask for in a
// minute (a person needs a few seconds at the camera; 40 is a gate's busiest
// morning with room to spare). A variable so tests can lower it.
var KioskChallengesPerMinute = 40

// FastMatchWindow is the least time between two different students matched
// at one kiosk that people stepping up to a camera can achieve; a kiosk
// matching faster is sending something other than faces in front of it.
const FastMatchWindow = 1500 * time.Millisecond
