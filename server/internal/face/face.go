// Package face is Face-ID's server side (issue 16, docs/face-id.md): a
// parent's consent per student, enrolment of face embeddings (never
// images), gate kiosks with device tokens, one-time liveness challenges,
// the scan that marks a recognised arrival present or late through
// attendance.ApplyTx, the scan log with its confirmation queue, the
// school's face settings and the retention sweep. Matching itself is
// package match.
package face

import (
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/tatib/tatib/server/internal/app"
	"github.com/tatib/tatib/server/internal/auth"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/server/internal/schoolday"
	"github.com/tatib/tatib/shared/perm"
)

// now is the package's clock: scan times, challenge expiry, today's date.
// Tests replace it (export_test.go) to scan before or after the start
// time; everything else uses time.Now.
var now = time.Now

// Handler serves the Face-ID routes over a Store. One per process (its
// store holds the index cache).
type Handler struct {
	store *Store
	auth  *auth.Service
	trust bool // take the kiosk's address from X-Forwarded-For
}

// NewHandler returns a Handler.
func NewHandler(s *Store, a *auth.Service, trustProxy bool) *Handler {
	return &Handler{store: s, auth: a, trust: trustProxy}
}

// Mount registers the routes.
func Mount(r *httpx.Router, d app.Deps) {
	NewHandler(NewStore(d.DB), d.Auth, d.Config.TrustProxy).Routes(r)
}

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

// studentID reads the {id} path parameter.
func studentID(r *http.Request) (int64, error) { return httpx.IDParam(r, "id") }

// jakartaDay is t's school day and time of day in Asia/Jakarta.
func jakartaDay(t time.Time) (date string, minutes int) {
	h, m := schoolday.Clock(t)
	return schoolday.Of(t), h*60 + m
}

func pgNoRows(err error) bool { return errors.Is(err, sql.ErrNoRows) }
