package face

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/base64"
	"errors"
	"fmt"
	"math"
	"math/big"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/attendance"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/face/match"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/server/internal/locale"
	"github.com/tatib/tatib/server/internal/pg"
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
	s, err := LoadSettings(ctx, h.db)
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
	r2, err := h.db.ExecContext(ctx, `INSERT INTO face_challenges (id, kiosk_id, kind, issued_at, expires_at)
		SELECT $1, $2, $3, $4, $5
		WHERE (SELECT count(*) FROM face_challenges WHERE kiosk_id = $2 AND issued_at > $4::timestamptz - interval '1 minute') < $6`,
		out.ID, k.ID, out.Kind, at, out.ExpiresAt, KioskChallengesPerMinute)
	if err != nil {
		return fmt.Errorf("face: challenge: %w", err)
	}
	if n, err := r2.RowsAffected(); err != nil {
		return fmt.Errorf("face: challenge: %w", err)
	} else if n == 0 {
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

// consume marks the kiosk's challenge used, atomically; a challenge that
// is another kiosk's or unknown, used or expired is refused (409).
func consume(ctx context.Context, db *sqlx.DB, kioskID int64, id string, at time.Time) (string, error) {
	var kind string
	err := db.GetContext(ctx, &kind, `UPDATE face_challenges SET used_at = $3
		WHERE id = $1 AND kiosk_id = $2 AND used_at IS NULL AND expires_at > $3 RETURNING kind`, id, kioskID, at)
	if err == nil {
		return kind, nil
	}
	if !pgNoRows(err) {
		return "", fmt.Errorf("face: consume challenge: %w", err)
	}
	var c struct {
		Used    bool `db:"used"`
		Expired bool `db:"expired"`
	}
	err = db.GetContext(ctx, &c, `SELECT used_at IS NOT NULL AS used, expires_at <= $3 AS expired
		FROM face_challenges WHERE id = $1 AND kiosk_id = $2`, id, kioskID, at)
	switch {
	case pgNoRows(err):
		return "", apperr.New(apperr.Conflict, "face.challenge_unknown")
	case err != nil:
		return "", fmt.Errorf("face: challenge: %w", err)
	case c.Used:
		return "", apperr.New(apperr.Conflict, "face.challenge_used")
	default:
		return "", apperr.New(apperr.Conflict, "face.challenge_expired")
	}
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

func (s scanRow) insert(ctx context.Context, q sqlx.QueryerContext) (int64, error) {
	var id int64
	err := sqlx.GetContext(ctx, q, &id, `INSERT INTO face_scans (kiosk_id, kiosk_name, scanned_at, outcome, model, student_id, score,
		runner_up_id, runner_up_score, margin, challenge_kind, challenge_passed, attendance)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING id`,
		s.KioskID, s.KioskName, s.At, s.Outcome, s.Model, nullID(s.StudentID), s.Score, nullID(s.RunnerUpID), s.RunnerUpScore,
		s.Margin, s.Kind, s.Passed, s.Attendance)
	if err != nil {
		return 0, fmt.Errorf("face: log scan: %w", err)
	}
	return id, nil
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
	kind, err := consume(ctx, h.db, k.ID, in.Challenge.ID, at)
	if err != nil {
		return err
	}
	row := scanRow{KioskID: k.ID, KioskName: k.Name, At: at, Model: model, Kind: kind, Attendance: api.ScanAttendanceNone,
		Passed: in.Challenge.Kind == kind && liveness(in.Challenge)}
	out := api.FaceScanResult{ScannedAt: at.UTC(), Attendance: api.ScanAttendanceNone}
	if !row.Passed {
		row.Outcome = api.ScanLivenessFailed
		if out.ScanID, err = row.insert(ctx, h.db); err != nil {
			return err
		}
		out.Outcome, out.Greeting = row.Outcome, locale.T(ctx, "face.greeting.liveness_failed")
		return httpx.JSON(w, http.StatusOK, out)
	}

	settings, err := LoadSettings(ctx, h.db)
	if err != nil {
		return err
	}
	ix, err := h.cache.Get(ctx, h.db)
	if err != nil {
		return fmt.Errorf("face: index: %w", err)
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
		if out.ScanID, err = row.insert(ctx, h.db); err != nil {
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
	var st student
	err = pg.InTx(ctx, h.db, func(tx *sqlx.Tx) error {
		var err error
		if st, row.Attendance, err = markArrival(ctx, tx, row.StudentID, at, settings, attendance.Origin{Kiosk: k.Name, Actor: actor}); err != nil {
			return err
		}
		if err := fastMatchAlarm(ctx, tx, k, row.StudentID, at, actor); err != nil {
			return err
		}
		if out.ScanID, err = row.insert(ctx, tx); err != nil {
			return err
		}
		return audit.Record(ctx, tx, actor, "face.scan_match", "face_scan", strconv.FormatInt(out.ScanID, 10), map[string]any{
			"kiosk_id": k.ID, "kiosk": k.Name, "student_id": st.ID, "student": st.Name, "score": row.Score,
			"runner_up_id": nullID(row.RunnerUpID), "runner_up_score": row.RunnerUpScore, "margin": row.Margin,
			"model": model, "challenge": kind, "attendance": row.Attendance,
			"observations": map[string]any{"open_min": in.Challenge.OpenMin, "open_max": in.Challenge.OpenMax,
				"yaw_start": in.Challenge.YawStart, "yaw_peak": in.Challenge.YawPeak, "real_score": in.Challenge.RealScore,
				"live_score": in.Challenge.LiveScore, "frames": in.Challenge.Frames, "millis": in.Challenge.Millis},
		})
	})
	if err != nil {
		return err
	}
	out.Attendance = row.Attendance
	out.Student = &api.FaceScanStudent{ID: st.ID, Name: st.Name, ClassName: st.ClassName}
	out.Greeting = greeting(ctx, row.Attendance, st.Name)
	return httpx.JSON(w, http.StatusOK, out)
}

// markArrival records the student's arrival at time at (one transaction,
// the student's row locked): the first lesson hour of that Jakarta day is
// left alone when it is already filled ("kept"); else H up to the start
// time plus grace, T after it, through attendance.ApplyTx (a T makes the
// automatic late violation exactly as the class form does).
func markArrival(ctx context.Context, tx *sqlx.Tx, studentID int64, at time.Time, s Settings, o attendance.Origin) (student, string, error) {
	st, err := lockStudent(ctx, tx, 0, studentID)
	if err != nil {
		return st, "", err
	}
	day, minute := jakartaDay(at)
	var filled bool
	if err := tx.GetContext(ctx, &filled, `SELECT EXISTS (SELECT 1 FROM attendance WHERE student_id = $1 AND date = $2::date AND lesson_hour = 1)`,
		studentID, day); err != nil {
		return st, "", fmt.Errorf("face: attendance: %w", err)
	}
	if filled {
		return st, api.ScanAttendanceKept, nil
	}
	status := api.AttendancePresent
	if minute > s.lateAfter() {
		status = api.AttendanceLate
	}
	if _, err := attendance.ApplyTx(ctx, tx, []attendance.Entry{{StudentID: studentID, Date: day, LessonHour: 1, Status: status}}, o); err != nil {
		return st, "", err
	}
	return st, status, nil
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

// fastMatchAlarm raises the kiosk's alarm when it matched another student
// less than FastMatchWindow before at: the kiosk's alarm count and time go
// up (Settings → Kiosks shows them) and the audit log says which scans.
// The arrival still stands: the alarm asks a person to look.
func fastMatchAlarm(ctx context.Context, tx *sqlx.Tx, k kiosk, studentID int64, at time.Time, actor audit.Actor) error {
	var prev struct {
		ID        int64     `db:"id"`
		StudentID *int64    `db:"student_id"`
		At        time.Time `db:"scanned_at"`
	}
	err := tx.GetContext(ctx, &prev, `SELECT id, student_id, scanned_at FROM face_scans
		WHERE kiosk_id = $1 AND outcome = 'matched' AND scanned_at <= $2 ORDER BY scanned_at DESC LIMIT 1`, k.ID, at)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("face: previous match: %w", err)
	}
	gap := at.Sub(prev.At)
	if prev.StudentID == nil || *prev.StudentID == studentID || gap >= FastMatchWindow {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `UPDATE kiosks SET alarm_count = alarm_count + 1, alarm_at = $2 WHERE id = $1`, k.ID, at); err != nil {
		return fmt.Errorf("face: kiosk alarm: %w", err)
	}
	return audit.Record(ctx, tx, actor, "face.kiosk_alarm", "kiosk", strconv.FormatInt(k.ID, 10), map[string]any{
		"kiosk": k.Name, "previous_scan_id": prev.ID, "previous_student_id": *prev.StudentID, "student_id": studentID,
		"gap_ms": gap.Milliseconds(), "window_ms": FastMatchWindow.Milliseconds()})
}
