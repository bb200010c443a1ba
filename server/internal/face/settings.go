package face

import (
	"math"
	"net/http"
	"slices"
	"time"

	"github.com/lib/pq"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/shared/api"
)

// Kinds are the liveness challenges there are.
var Kinds = []string{api.ChallengeBlink, api.ChallengeTurnLeft, api.ChallengeTurnRight}

// Settings are the school's face settings as stored.
type Settings struct {
	SchoolStart      string         `db:"school_start"` // HH:MM
	LateGraceMinutes int            `db:"late_grace_minutes"`
	Threshold        float64        `db:"threshold"`
	Margin           float64        `db:"margin"`
	RetentionDays    int            `db:"retention_days"`
	Challenges       pq.StringArray `db:"challenges"`
	UpdatedAt        *time.Time     `db:"updated_at"`
}

// Wire is the settings as the API answers them.
func (s Settings) Wire() api.FaceSettings {
	return api.FaceSettings{SchoolStart: s.SchoolStart, LateGraceMinutes: s.LateGraceMinutes, Threshold: round(s.Threshold),
		Margin: round(s.Margin), RetentionDays: s.RetentionDays, Challenges: append([]string{}, s.Challenges...), UpdatedAt: s.UpdatedAt}
}

// round drops the float32 noise of a real column (0.5 stays 0.5, 0.08
// reads 0.08 rather than 0.07999999821186066).
func round(f float64) float64 { return math.Round(f*1e6) / 1e6 }

// lateAfter is the last minute of the day (Jakarta) that is still H.
func (s Settings) lateAfter() int {
	t, err := time.Parse("15:04", s.SchoolStart)
	if err != nil {
		return 7 * 60
	}
	return t.Hour()*60 + t.Minute() + s.LateGraceMinutes
}

// validateSettings checks a PUT field by field.
func validateSettings(in api.FaceSettings) error {
	f := apperr.Fields{}
	if t, err := time.Parse("15:04", in.SchoolStart); err != nil || t.Format("15:04") != in.SchoolStart {
		f.Add("school_start", "face.settings.time")
	}
	if in.LateGraceMinutes < 0 || in.LateGraceMinutes > 120 {
		f.Add("late_grace_minutes", "request.field_range", "min", 0, "max", 120)
	}
	if !(in.Threshold > 0 && in.Threshold < 1) {
		f.Add("threshold", "face.settings.threshold")
	}
	if !(in.Margin >= 0 && in.Margin < 1) {
		f.Add("margin", "face.settings.margin")
	}
	if in.RetentionDays < 0 || in.RetentionDays > 365 {
		f.Add("retention_days", "request.field_range", "min", 0, "max", 365)
	}
	switch {
	case len(in.Challenges) == 0:
		f.Add("challenges", "face.settings.challenges_empty")
	default:
		for i, c := range in.Challenges {
			if !slices.Contains(Kinds, c) {
				f.Add("challenges", "face.settings.challenge_unknown", "kind", c)
			} else if slices.Contains(in.Challenges[:i], c) {
				f.Add("challenges", "face.settings.challenge_twice", "kind", c)
			}
		}
	}
	return f.Err()
}

func (h *Handler) getSettings(w http.ResponseWriter, r *http.Request) error {
	s, err := h.store.Settings(r.Context())
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, s.Wire())
}

func (h *Handler) putSettings(w http.ResponseWriter, r *http.Request) error {
	var in api.FaceSettings
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	if err := validateSettings(in); err != nil {
		return err
	}
	out, err := h.store.SaveSettings(r.Context(), h.auth.Actor(r), in)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, out.Wire())
}
