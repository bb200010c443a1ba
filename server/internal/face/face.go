// Package face is Face-ID's server side (issue 16, docs/face-id.md): a
// parent's consent per student, enrolment of face embeddings (never
// images), gate kiosks with device tokens, one-time liveness challenges,
// the scan that marks a recognised arrival present or late through
// attendance.ApplyTx, the scan log with its confirmation queue, the
// school's face settings and the retention sweep. Matching itself is
// package match.
package face

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/app"
	"github.com/tatib/tatib/server/internal/auth"
	"github.com/tatib/tatib/server/internal/face/match"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/schoolday"
	"github.com/tatib/tatib/shared/perm"
)

// now is the package's clock: scan times, challenge expiry, today's date.
// Tests replace it (export_test.go) to scan before or after the start
// time; everything else uses time.Now.
var now = time.Now

var jakarta = schoolday.Zone

// Handler serves the Face-ID routes. One per process: it holds the
// in-memory index cache every scan and enrolment is matched against.
type Handler struct {
	db    *sqlx.DB
	auth  *auth.Service
	cache *match.Cache
	trust bool // take the kiosk's address from X-Forwarded-For
}

// NewHandler returns a Handler with its own index cache.
func NewHandler(db *sqlx.DB, a *auth.Service, trustProxy bool) *Handler {
	return &Handler{db: db, auth: a, cache: match.NewCache(), trust: trustProxy}
}

// Mount registers the routes.
func Mount(r *httpx.Router, d app.Deps) { NewHandler(d.DB, d.Auth, d.Config.TrustProxy).Routes(r) }

// Routes registers the routes. The three kiosk routes are public: they
// check the kiosk's device token themselves, and a session opens none of
// them.
func (h *Handler) Routes(r *httpx.Router) {
	r.Get("/students/{id}/face", perm.StudentsView, h.getStatus)
	r.Put("/students/{id}/face-consent", perm.FaceConsent, h.putConsent)
	r.Delete("/students/{id}/face-consent", perm.FaceConsent, h.withdrawConsent)
	r.Post("/students/{id}/face-enrolments", perm.FaceEnrol, h.enrol)
	r.Delete("/students/{id}/face-enrolments", perm.FaceEnrol, h.deleteSamples)

	r.Get("/face/kiosk", perm.Public, h.kioskInfo)
	r.Post("/face/challenge", perm.Public, h.challenge)
	r.Post("/face/scan", perm.Public, h.scan)

	r.Get("/face/scans", perm.FaceReview, h.listScans)
	r.Get("/face/confirmations", perm.FaceReview, h.confirmations)
	r.Post("/face/scans/{id}/resolve", perm.FaceReview, h.resolve)

	r.Get("/settings/kiosks", perm.FaceManage, h.listKiosks)
	r.Post("/settings/kiosks", perm.FaceManage, h.createKiosk)
	r.Delete("/settings/kiosks/{id}", perm.FaceManage, h.revokeKiosk)
	r.Get("/settings/face", perm.FaceManage, h.getSettings)
	r.Put("/settings/face", perm.FaceManage, h.putSettings)
}

// scopeSQL is the homeroom teacher's WHERE clause on students s joined to
// classes c: everyone else (0) sees every student.
func scopeSQL(n int) string {
	return fmt.Sprintf(`($%d::bigint = 0 OR c.homeroom_teacher_id = $%d)`, n, n)
}

// student is the little a Face-ID answer needs of a student.
type student struct {
	ID        int64  `db:"id"`
	Name      string `db:"full_name"`
	ClassName string `db:"class_name"`
	Active    bool   `db:"active"`
}

// lockStudent takes the student's row lock (the one attendance.ApplyTx
// and violation.RecordTx take) within the caller's scope: a student out of
// a homeroom teacher's class is NotFound, as one that does not exist.
func lockStudent(ctx context.Context, tx *sqlx.Tx, homeroom, id int64) (student, error) {
	var st student
	err := tx.GetContext(ctx, &st, `SELECT s.id, s.full_name, COALESCE(c.name, '') AS class_name, s.active
		FROM students s LEFT JOIN classes c ON c.id = s.class_id
		WHERE s.id = $1 AND `+scopeSQL(2)+` FOR UPDATE OF s`, id, homeroom)
	if errors.Is(err, sql.ErrNoRows) {
		return st, pg.Error(err, "entity.student")
	}
	if err != nil {
		return st, fmt.Errorf("face: lock student: %w", err)
	}
	return st, nil
}

// getStudent reads a student within the caller's scope.
func getStudent(ctx context.Context, q sqlx.QueryerContext, homeroom, id int64) (student, error) {
	var st student
	err := sqlx.GetContext(ctx, q, &st, `SELECT s.id, s.full_name, COALESCE(c.name, '') AS class_name, s.active
		FROM students s LEFT JOIN classes c ON c.id = s.class_id
		WHERE s.id = $1 AND `+scopeSQL(2), id, homeroom)
	if errors.Is(err, sql.ErrNoRows) {
		return st, pg.Error(err, "entity.student")
	}
	if err != nil {
		return st, fmt.Errorf("face: student: %w", err)
	}
	return st, nil
}

// studentID reads the {id} path parameter.
func studentID(r *http.Request) (int64, error) { return httpx.IDParam(r, "id") }

// jakartaDay is t's school day and time of day in Asia/Jakarta.
func jakartaDay(t time.Time) (date string, minutes int) {
	j := t.In(jakarta)
	return j.Format(time.DateOnly), j.Hour()*60 + j.Minute()
}

func pgNoRows(err error) bool { return errors.Is(err, sql.ErrNoRows) }
