package face

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/attendance"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/server/internal/pg"
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

const scanSelect = `SELECT f.id, f.scanned_at, f.kiosk_name, f.outcome, f.student_id, COALESCE(s.full_name, '') AS student_name,
		COALESCE(c.name, '') AS class_name, f.score, f.runner_up_id, COALESCE(ru.full_name, '') AS runner_up_name, f.runner_up_score,
		f.margin, f.challenge_kind, f.challenge_passed, f.attendance, f.resolution, f.resolved_student_id,
		COALESCE(rs.full_name, '') AS resolved_student_name, f.resolved_by_name, f.resolved_at`

const scanFrom = ` FROM face_scans f
		LEFT JOIN students s ON s.id = f.student_id LEFT JOIN classes c ON c.id = s.class_id
		LEFT JOIN students ru ON ru.id = f.runner_up_id
		LEFT JOIN students rs ON rs.id = f.resolved_student_id`

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
	var rows []scanView
	if err := h.db.SelectContext(ctx, &rows, scanSelect+`, count(*) OVER () AS total`+scanFrom+`
		WHERE ($1 = '' OR f.outcome = $1)
		  AND ($2 = '' OR f.scanned_at >= ($2::date)::timestamp AT TIME ZONE 'Asia/Jakarta')
		  AND ($3 = '' OR f.scanned_at < ($3::date + 1)::timestamp AT TIME ZONE 'Asia/Jakarta')
		ORDER BY f.scanned_at DESC, f.id DESC LIMIT $4 OFFSET $5`, outcome, from, to, p.PerPage, p.Offset()); err != nil {
		return fmt.Errorf("face: scans: %w", err)
	}
	total := 0
	if len(rows) > 0 {
		total = rows[0].Total
	} else if p.Page > 1 {
		if err := h.db.GetContext(ctx, &total, `SELECT count(*) FROM face_scans f
			WHERE ($1 = '' OR f.outcome = $1)
			  AND ($2 = '' OR f.scanned_at >= ($2::date)::timestamp AT TIME ZONE 'Asia/Jakarta')
			  AND ($3 = '' OR f.scanned_at < ($3::date + 1)::timestamp AT TIME ZONE 'Asia/Jakarta')`, outcome, from, to); err != nil {
			return fmt.Errorf("face: scans: count: %w", err)
		}
	}
	return httpx.JSON(w, http.StatusOK, map[string]any{"data": wireScans(rows), "total": total})
}

// MaxQueue bounds the confirmation queue's answer.
const MaxQueue = 500

func (h *Handler) confirmations(w http.ResponseWriter, r *http.Request) error {
	var rows []scanView
	if err := h.db.SelectContext(r.Context(), &rows, scanSelect+`, 0 AS total`+scanFrom+`
		WHERE f.outcome = 'uncertain' AND f.resolution IS NULL ORDER BY f.scanned_at, f.id LIMIT $1`, MaxQueue); err != nil {
		return fmt.Errorf("face: confirmations: %w", err)
	}
	return httpx.JSON(w, http.StatusOK, map[string]any{"data": wireScans(rows)})
}

func getScan(ctx context.Context, q sqlx.QueryerContext, id int64) (scanView, error) {
	var v scanView
	err := sqlx.GetContext(ctx, q, &v, scanSelect+`, 0 AS total`+scanFrom+` WHERE f.id = $1`, id)
	if pgNoRows(err) {
		return v, apperr.New(apperr.NotFound, "face.scan_not_found")
	}
	if err != nil {
		return v, fmt.Errorf("face: scan: %w", err)
	}
	return v, nil
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
	scan, err := getScan(ctx, h.db, id)
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
	actor := h.auth.Actor(r)
	resolution := "rejected"
	if in.Action == "confirm" {
		resolution = "confirmed"
	}
	var out scanView
	err = pg.InTx(ctx, h.db, func(tx *sqlx.Tx) error {
		var won bool
		err := tx.GetContext(ctx, &won, `UPDATE face_scans SET resolution = $2, resolved_student_id = $3, resolved_by = $4,
			resolved_by_name = $5, resolved_at = now() WHERE id = $1 AND outcome = 'uncertain' AND resolution IS NULL RETURNING true`,
			id, resolution, nullID(in.StudentID), userRef(actor), actor.Display())
		if pgNoRows(err) {
			return apperr.New(apperr.Conflict, "face.already_resolved")
		}
		if err != nil {
			return fmt.Errorf("face: resolve: %w", err)
		}
		effect := api.ScanAttendanceNone
		name := ""
		if in.Action == "confirm" {
			settings, err := LoadSettings(ctx, tx)
			if err != nil {
				return err
			}
			kioskName := scan.KioskName
			if kioskName == "" {
				kioskName = "kiosk"
			}
			var st student
			st, effect, err = markArrival(ctx, tx, in.StudentID, scan.ScannedAt, settings,
				attendance.Origin{Kiosk: kioskName, UserID: actor.ID, Actor: actor})
			if err != nil {
				return err
			}
			name = st.Name
			if _, err := tx.ExecContext(ctx, `UPDATE face_scans SET attendance = $2 WHERE id = $1`, id, effect); err != nil {
				return fmt.Errorf("face: resolve attendance: %w", err)
			}
		}
		if err := audit.Record(ctx, tx, actor, "face.scan_resolve", "face_scan", strconv.FormatInt(id, 10), map[string]any{
			"resolution": resolution, "student_id": nullID(in.StudentID), "student": name, "attendance": effect,
			"candidate_id": scan.StudentID, "runner_up_id": scan.RunnerUpID, "scanned_at": scan.ScannedAt,
		}); err != nil {
			return err
		}
		out, err = getScan(ctx, tx, id)
		return err
	})
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, out.wire())
}

func eq(p *int64, v int64) bool { return p != nil && *p == v }
