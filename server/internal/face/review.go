package face

import (
	"net/http"
	"slices"
	"time"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/shared/api"
)

var outcomes = []string{api.ScanMatched, api.ScanUncertain, api.ScanUnknown, api.ScanLivenessFailed, api.ScanModelMismatch}

type scanView struct {
	ID                  int64      `db:"id"`
	ScannedAt           time.Time  `db:"scanned_at"`
	KioskName           string     `db:"kiosk_name"`
	Outcome             string     `db:"outcome"`
	StudentID           *int64     `db:"student_id"`
	StudentName         string     `db:"student_name"`
	ClassName           string     `db:"class_name"`
	Score               *float64   `db:"score"`
	RunnerUpID          *int64     `db:"runner_up_id"`
	RunnerUpName        string     `db:"runner_up_name"`
	RunnerUpScore       *float64   `db:"runner_up_score"`
	Margin              *float64   `db:"margin"`
	ChallengeKind       string     `db:"challenge_kind"`
	ChallengePassed     bool       `db:"challenge_passed"`
	Attendance          string     `db:"attendance"`
	Resolution          *string    `db:"resolution"`
	ResolvedStudentID   *int64     `db:"resolved_student_id"`
	ResolvedStudentName string     `db:"resolved_student_name"`
	ResolvedByName      string     `db:"resolved_by_name"`
	ResolvedAt          *time.Time `db:"resolved_at"`
	Total               int        `db:"total"`
}

func roundPtr(p *float64) *float64 {
	if p == nil {
		return nil
	}
	return ptr(*p)
}

func (v scanView) wire() api.FaceScan {
	return api.FaceScan{ID: v.ID, ScannedAt: v.ScannedAt, KioskName: v.KioskName, Outcome: v.Outcome, StudentID: v.StudentID,
		StudentName: v.StudentName, ClassName: v.ClassName, Score: roundPtr(v.Score), RunnerUpID: v.RunnerUpID,
		RunnerUpName: v.RunnerUpName, RunnerUpScore: roundPtr(v.RunnerUpScore), Margin: roundPtr(v.Margin),
		ChallengeKind: v.ChallengeKind, ChallengePassed: v.ChallengePassed, Attendance: v.Attendance, Resolution: v.Resolution,
		ResolvedStudentID: v.ResolvedStudentID, ResolvedStudentName: v.ResolvedStudentName, ResolvedByName: v.ResolvedByName,
		ResolvedAt: v.ResolvedAt}
}

func wireScans(rows []scanView) []api.FaceScan {
	out := make([]api.FaceScan, 0, len(rows))
	for _, v := range rows {
		out = append(out, v.wire())
	}
	return out
}

// listScans is the scan log, newest first: ?outcome=, ?from=/?to= (Jakarta
// days, inclusive), paging.
func (h *Handler) listScans(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	p, err := httpx.PageParams(r)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	f := apperr.Fields{}
	outcome := q.Get("outcome")
	if outcome != "" && !slices.Contains(outcomes, outcome) {
		f.Add("outcome", "face.scans.outcome")
	}
	day := func(name string) string {
		v := q.Get(name)
		if v == "" {
			return ""
		}
		if d, err := time.Parse(time.DateOnly, v); err != nil || d.Format(time.DateOnly) != v {
			f.Add(name, "face.scans.date")
		}
		return v
	}
	from, to := day("from"), day("to")
	if from != "" && to != "" && from > to {
		f.Add("to", "face.scans.range")
	}
	if err := f.Err(); err != nil {
		return err
	}
	rows, total, err := h.store.Scans(ctx, outcome, from, to, p)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, map[string]any{"data": wireScans(rows), "total": total})
}

// MaxQueue bounds the confirmation queue's answer.
const MaxQueue = 500

func (h *Handler) confirmations(w http.ResponseWriter, r *http.Request) error {
	rows, err := h.store.Confirmations(r.Context())
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, map[string]any{"data": wireScans(rows)})
}

// resolve confirms an uncertain scan as its candidate or runner-up (the
// attendance is recorded as of the scan's time) or rejects it. The
// conditional UPDATE lets one of two racing resolutions win; the other is
// 409 face.already_resolved.
func (h *Handler) resolve(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	var in api.FaceScanResolution
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	f := apperr.Fields{}
	switch in.Action {
	case "confirm":
	case "reject":
		in.StudentID = 0
	default:
		f.Add("action", "face.resolve.action")
	}
	if err := f.Err(); err != nil {
		return err
	}
	scan, err := h.store.Scan(ctx, id)
	if err != nil {
		return err
	}
	if scan.Outcome != api.ScanUncertain {
		return apperr.New(apperr.Conflict, "face.not_uncertain")
	}
	if scan.Resolution != nil {
		return apperr.New(apperr.Conflict, "face.already_resolved")
	}
	if in.Action == "confirm" && (in.StudentID == 0 || !(eq(scan.StudentID, in.StudentID) || eq(scan.RunnerUpID, in.StudentID))) {
		return apperr.Fields{"student_id": apperr.M("face.resolve.not_candidate")}.Err()
	}
	out, err := h.store.Resolve(ctx, h.auth.Actor(r), scan, in.StudentID)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, out.wire())
}

func eq(p *int64, v int64) bool { return p != nil && *p == v }
