package achievement

import (
	"net/http"
	"strconv"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/auth"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/server/internal/locale"
	"github.com/tatib/tatib/server/internal/schoolday"
	"github.com/tatib/tatib/server/internal/violation"
	"github.com/tatib/tatib/server/internal/violationtype"
	"github.com/tatib/tatib/server/internal/xlsximport"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

// MaxRequestBytes is the largest body POST /achievements accepts: the
// violation form's five photos and the form (api.New raises the upload
// limit to it for that route).
const MaxRequestBytes = violation.MaxRequestBytes

// Routes registers the routes.
func (h *Handler) Routes(r *httpx.Router) {
	r.Get("/achievement-categories", perm.AchievementTypesView, h.listCategories)
	r.Post("/achievement-categories", perm.AchievementTypesManage, h.createCategory)
	r.Patch("/achievement-categories/{id}", perm.AchievementTypesManage, h.updateCategory)
	r.Delete("/achievement-categories/{id}", perm.AchievementTypesManage, h.deleteCategory)

	r.Get("/achievement-types", perm.AchievementTypesView, h.listTypes)
	r.Post("/achievement-types", perm.AchievementTypesManage, h.createType)
	r.Get("/achievement-types/import-template", perm.AchievementTypesView, xlsximport.TemplateHandler(TemplateFilename, Template))
	r.Post("/achievement-types/import", perm.AchievementTypesManage, h.importTypes)
	r.Patch("/achievement-types/{id}", perm.AchievementTypesManage, h.updateType)
	r.Delete("/achievement-types/{id}", perm.AchievementTypesManage, h.deleteType)

	r.Get("/achievements", perm.AchievementsView, h.list)
	r.Get("/achievements/export", perm.AchievementsView, h.export)
	r.Post("/achievements", perm.AchievementsRecord, h.create)
	r.Get("/achievements/{id}", perm.AchievementsView, h.get)
	r.Post("/achievements/{id}/verify", perm.AchievementsVerify, h.verify)
	r.Get("/achievements/{id}/certificate.pdf", perm.AchievementsView, h.certificate)
	r.Get("/students/{id}/achievements/certificate.pdf", perm.AchievementsView, h.termCertificate)
	r.Get("/achievements/{id}/photos/{photo_id}", perm.AchievementsView, h.photo(false))
	r.Get("/achievements/{id}/photos/{photo_id}/thumbnail", perm.AchievementsView, h.photo(true))
}

type list[T any] struct {
	Data []T `json:"data"`
}

func boolParam(r *http.Request, name string) (*bool, error) {
	switch v := r.URL.Query().Get(name); v {
	case "":
		return nil, nil
	case "true", "1":
		t := true
		return &t, nil
	case "false", "0":
		f := false
		return &f, nil
	}
	return nil, apperr.New(apperr.Invalid, "achievement.invalid").WithField(name, "achievement.filter.boolean")
}

func idParam(r *http.Request, name string) (int64, error) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n <= 0 {
		return 0, apperr.New(apperr.Invalid, "achievement.invalid").WithField(name, "achievement.filter.id")
	}
	return n, nil
}

// ---- categories ----

func (h *Handler) listCategories(w http.ResponseWriter, r *http.Request) error {
	cats, err := h.store.ListCategories(r.Context())
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, list[api.AchievementCategory]{cats})
}

func (h *Handler) createCategory(w http.ResponseWriter, r *http.Request) error {
	var in api.AchievementCategoryInput
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	c, err := h.store.CreateCategory(r.Context(), h.auth.Actor(r), in)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusCreated, c)
}

func (h *Handler) updateCategory(w http.ResponseWriter, r *http.Request) error {
	catID, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	var in api.AchievementCategoryInput
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	c, err := h.store.UpdateCategory(r.Context(), h.auth.Actor(r), catID, in)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, c)
}

func (h *Handler) deleteCategory(w http.ResponseWriter, r *http.Request) error {
	catID, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	if err := h.store.DeleteCategory(r.Context(), h.auth.Actor(r), catID); err != nil {
		return err
	}
	return httpx.NoContent(w)
}

// ---- types ----

func (h *Handler) listTypes(w http.ResponseWriter, r *http.Request) error {
	f := TypeFilter{Q: violationtype.NormalizeName(r.URL.Query().Get("q"))}
	if rs := []rune(f.Q); len(rs) > 100 {
		f.Q = string(rs[:100])
	}
	var err error
	if f.CategoryID, err = idParam(r, "category_id"); err != nil {
		return err
	}
	if f.Active, err = boolParam(r, "active"); err != nil {
		return err
	}
	types, err := h.store.ListTypes(r.Context(), f)
	if err != nil {
		return err
	}
	cats, err := h.store.ListCategories(r.Context())
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, api.AchievementTypeList{Data: types, Categories: cats})
}

func (h *Handler) createType(w http.ResponseWriter, r *http.Request) error {
	var in api.AchievementTypeInput
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	t, err := h.store.CreateType(r.Context(), h.auth.Actor(r), in)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusCreated, t)
}

func (h *Handler) updateType(w http.ResponseWriter, r *http.Request) error {
	typeID, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	var in api.AchievementTypeInput
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	t, err := h.store.UpdateType(r.Context(), h.auth.Actor(r), typeID, in)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, t)
}

func (h *Handler) deleteType(w http.ResponseWriter, r *http.Request) error {
	typeID, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	if err := h.store.DeleteType(r.Context(), h.auth.Actor(r), typeID); err != nil {
		return err
	}
	return httpx.NoContent(w)
}

// importUpload is the upload of an import file: the multipart field "file"
// of at most violationtype.MaxImportBytes.
var importUpload = xlsximport.Upload{
	MaxBytes: violationtype.MaxImportBytes, Slack: 64 << 10,
	Unreadable: "achievement.request.multipart_unreadable",
}

// importTypes reads the import file and imports it; ?dry_run=1 previews.
func (h *Handler) importTypes(w http.ResponseWriter, r *http.Request) error {
	dryRun, err := boolParam(r, "dry_run")
	if err != nil {
		return err
	}
	filename, data, err := importUpload.Read(w, r)
	if err != nil {
		return err
	}
	res, err := h.store.Import(r.Context(), h.auth.Actor(r), locale.FromContext(r.Context()), filename, data, dryRun != nil && *dryRun)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, res)
}

// ---- achievements ----

func (h *Handler) list(w http.ResponseWriter, r *http.Request) error {
	p, err := httpx.PageParams(r)
	if err != nil {
		return err
	}
	f, err := filterOf(r)
	if err != nil {
		return err
	}
	f.Limit, f.Offset = p.PerPage, p.Offset()
	out, total, err := h.store.List(r.Context(), ScopeOf(r), f)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, struct {
		Data []api.Achievement `json:"data"`
		Meta api.PageMeta      `json:"meta"`
	}{out, p.Meta(total)})
}

// filterOf reads the list's and the export's filter.
func filterOf(r *http.Request) (Filter, error) {
	var f Filter
	var err error
	if f.StudentID, err = idParam(r, "student_id"); err != nil {
		return f, err
	}
	if f.ClassID, err = idParam(r, "class_id"); err != nil {
		return f, err
	}
	if f.Verified, err = boolParam(r, "verified"); err != nil {
		return f, err
	}
	for _, d := range []struct {
		name string
		to   *string
	}{{"from", &f.From}, {"to", &f.To}} {
		v := r.URL.Query().Get(d.name)
		if v != "" && !validDay(v) {
			return f, apperr.New(apperr.Invalid, "achievement.invalid").WithField(d.name, "achievement.filter.date")
		}
		*d.to = v
	}
	return f, nil
}

func validDay(s string) bool {
	_, err := schoolday.ParseDate(s)
	return err == nil
}

// photoForm reads POST /achievements: JSON, or multipart with the JSON in
// "data" and up to violation.MaxPhotos "photos", each through the
// violations' photo pipeline (re-encoded, no EXIF, the same limits).
var photoForm = violation.PhotoForm{
	DataPart: "data", PhotoPart: "photos", MaxPhotos: violation.MaxPhotos, MaxData: 64 << 10, FileNames: true,
	Unreadable:  "achievement.request.multipart_unreadable",
	UnknownPart: "achievement.request.unknown_part",
	TooMany:     "violation.photo.too_many",
	DataMissing: "achievement.request.data_missing",
}

func (h *Handler) create(w http.ResponseWriter, r *http.Request) error {
	var in Record
	f := apperr.Fields{}
	photos, err := photoForm.Read(r, &in.CreateAchievementRequest, f)
	if err != nil {
		return err
	}
	if err := invalid(f); err != nil {
		return err
	}
	in.Photos = photos
	u := auth.UserFrom(r.Context())
	in.RecordedBy, in.RecordedByName, in.Scope = u.ID, u.Name, ScopeOf(r)
	a, err := h.store.Create(r.Context(), h.auth.Actor(r), in)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusCreated, a)
}

func (h *Handler) get(w http.ResponseWriter, r *http.Request) error {
	achID, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	a, err := h.store.Get(r.Context(), ScopeOf(r), achID)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, a)
}

func (h *Handler) verify(w http.ResponseWriter, r *http.Request) error {
	achID, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	a, err := h.store.Verify(r.Context(), ScopeOf(r), h.auth.Actor(r), achID)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, a)
}

func (h *Handler) photo(thumbnail bool) httpx.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		achID, err := httpx.IDParam(r, "id")
		if err != nil {
			return err
		}
		photoID, err := httpx.IDParam(r, "photo_id")
		if err != nil {
			return err
		}
		b, err := h.store.Photo(r.Context(), ScopeOf(r), achID, photoID, thumbnail)
		if err != nil {
			return err
		}
		w.Header().Set("Content-Type", "image/jpeg")
		w.Header().Set("Cache-Control", "private, max-age=86400")
		_, err = w.Write(b)
		return err
	}
}
