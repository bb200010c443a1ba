package violation

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/auth"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/schoolday"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

// Actors names the audit actor of a request (auth.Service does).
type Actors interface {
	Actor(r *http.Request) audit.Actor
}

// Handler serves recording, correction, points, deletion, verification,
// photos and the point audit.
type Handler struct {
	store *Store
	auth  Actors
}

// NewHandler returns a Handler.
func NewHandler(s *Store, a Actors) *Handler { return &Handler{store: s, auth: a} }

// Routes registers the routes.
func (h *Handler) Routes(r *httpx.Router) {
	r.Post("/violations", perm.ViolationsRecord, h.create)
	r.Patch("/violations/{id}", perm.ViolationsRecord, h.correct)
	r.Delete("/violations/{id}", perm.ViolationsDelete, h.delete)
	r.Post("/violations/{id}/verify", perm.ViolationsVerify, h.verify)
	r.Get("/violations/{id}/photos/{photo_id}", perm.ViolationsView, h.photo(false))
	r.Get("/violations/{id}/photos/{photo_id}/thumbnail", perm.ViolationsView, h.photo(true))
	r.Get("/students/{id}/points", perm.ViolationsView, h.points)
	r.Get("/students/{id}/years", perm.ViolationsView, h.years)
	r.Get("/point-audit", perm.PointAuditView, h.pointAudit)
}

// photoForm reads POST /violations: the JSON in "data" and up to MaxPhotos
// "photos".
var photoForm = PhotoForm{
	DataPart: "data", PhotoPart: "photos", MaxPhotos: MaxPhotos, MaxData: 64 << 10, FileNames: true,
	Unreadable:  "violation.request.multipart_unreadable",
	UnknownPart: "violation.request.unknown_part",
	TooMany:     "violation.photo.too_many",
	DataMissing: "violation.request.data_missing",
}

func (h *Handler) create(w http.ResponseWriter, r *http.Request) error {
	var req api.CreateViolationsRequest
	f := apperr.Fields{}
	photos, err := photoForm.Read(r, &req, f)
	if err != nil {
		return err
	}
	u := auth.UserFrom(r.Context())
	in := Record{
		StudentID: req.StudentID, Location: req.Location, Description: req.Description, Sanction: req.Sanction,
		Source: api.SourceManual, RecordedByName: u.Name, Scope: ScopeOf(r.Context()), Photos: photos,
	}
	if u.ID != 0 {
		id := u.ID
		in.RecordedBy = &id
	}
	if req.OccurredAt != nil {
		in.OccurredAt = *req.OccurredAt
	}
	for _, id := range req.TypeIDs {
		in.Items = append(in.Items, Item{TypeID: id})
	}
	in.Validate(f)
	if len(f) > 0 {
		return invalid(f)
	}
	out, err := h.store.Record(r.Context(), in, h.auth.Actor(r))
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusCreated, out)
}

// Record records in one transaction and answers what was created.
func (s *Store) Record(ctx context.Context, in Record, actor audit.Actor) (api.CreateViolationsResponse, error) {
	var out api.CreateViolationsResponse
	err := pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		if in.Before != nil {
			if err := in.Before(ctx, tx); err != nil {
				return err
			}
		}
		res, err := RecordTx(ctx, tx, in, actor)
		if err != nil {
			return err
		}
		out.Violations = res.Violations
		if out.Violations == nil { // with photos
			if out.Violations, err = loadViolations(ctx, tx, res.ViolationIDs); err != nil {
				return err
			}
		}
		out.Letters = res.Letters
		for i := range out.Letters {
			if len(out.Violations) > 0 {
				out.Letters[i].StudentName, out.Letters[i].StudentNISN = out.Violations[0].StudentName, out.Violations[0].StudentNISN
			}
		}
		// The answer's standing is today's; the recording's own year
		// total is already known when that is the current year.
		if today := schoolday.DateOf(in.now()); !today.Before(res.YearStart) && today.Before(res.YearStart.AddDate(1, 0, 0)) {
			out.Points = standing(in.StudentID, res.After, res.Lifetime, res.YearStart, res.Thresholds)
			return nil
		}
		out.Points, err = Points(ctx, tx, in.StudentID, in.now())
		return err
	})
	return out, err
}

func (h *Handler) delete(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	if err := h.store.Delete(r.Context(), ScopeOf(r.Context()), h.auth.Actor(r), id); err != nil {
		return err
	}
	return httpx.NoContent(w)
}

func (h *Handler) verify(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	v, err := h.store.Verify(r.Context(), ScopeOf(r.Context()), h.auth.Actor(r), id)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, v)
}

func (h *Handler) photo(thumbnail bool) httpx.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		id, err := httpx.IDParam(r, "id")
		if err != nil {
			return err
		}
		photoID, err := httpx.IDParam(r, "photo_id")
		if err != nil {
			return err
		}
		b, err := h.store.Photo(r.Context(), ScopeOf(r.Context()), id, photoID, thumbnail)
		if err != nil {
			return err
		}
		hd := w.Header()
		hd.Set("Content-Type", "image/jpeg")
		hd.Set("Content-Length", strconv.Itoa(len(b)))
		// A photo never changes under its id; private: only this user's
		// browser may keep it (another user of the same computer may not
		// see that violation).
		hd.Set("Cache-Control", "private, max-age="+strconv.Itoa(photoCacheSeconds))
		hd.Set("X-Content-Type-Options", "nosniff")
		w.WriteHeader(http.StatusOK)
		_, err = w.Write(b)
		return err
	}
}

func (h *Handler) points(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	p, err := h.store.StudentPoints(r.Context(), ScopeOf(r.Context()), id, time.Now())
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, p)
}

func (h *Handler) pointAudit(w http.ResponseWriter, r *http.Request) error {
	pgg, err := httpx.PageParams(r)
	if err != nil {
		return err
	}
	var studentID int64
	if v := strings.TrimSpace(r.URL.Query().Get("student_id")); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n <= 0 {
			return invalid(apperr.Fields{"student_id": apperr.M("violation.filter.student_id")})
		}
		studentID = n
	}
	rows, total, err := h.store.PointAudit(r.Context(), ScopeOf(r.Context()), studentID, pgg.PerPage, pgg.Offset())
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, api.Page[api.PointAuditEntry]{Data: rows, Meta: pgg.Meta(total)})
}
