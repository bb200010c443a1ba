package violationtype

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/server/internal/locale"
	"github.com/tatib/tatib/server/internal/xlsximport"
	"github.com/tatib/tatib/shared/perm"
)

// Actors names the audit actor of a request (auth.Service does).
type Actors interface {
	Actor(r *http.Request) audit.Actor
}

// Handler serves the violation master data.
type Handler struct {
	store *Store
	auth  Actors
}

// NewHandler returns a Handler.
func NewHandler(s *Store, a Actors) *Handler { return &Handler{store: s, auth: a} }

// multipartSlack is room for the multipart envelope around the file.
const multipartSlack = 64 << 10

// Routes registers the routes.
func (h *Handler) Routes(r *httpx.Router) {
	r.Get("/violation-categories", perm.ViolationTypesView, h.listCategories)
	r.Post("/violation-categories", perm.ViolationTypesManage, h.createCategory)
	r.Patch("/violation-categories/{id}", perm.ViolationTypesManage, h.updateCategory)
	r.Delete("/violation-categories/{id}", perm.ViolationTypesManage, h.deleteCategory)

	r.Get("/violation-types", perm.ViolationTypesView, h.listTypes)
	r.Post("/violation-types", perm.ViolationTypesManage, h.createType)
	r.Get("/violation-types/import-template", perm.ViolationTypesView, xlsximport.TemplateHandler(TemplateFilename, Template))
	r.Post("/violation-types/import", perm.ViolationTypesManage, h.importTypes)
	r.Patch("/violation-types/{id}", perm.ViolationTypesManage, h.updateType)
	r.Delete("/violation-types/{id}", perm.ViolationTypesManage, h.deleteType)

	r.Get("/sp-thresholds", perm.ViolationTypesView, h.listThresholds)
	r.Put("/sp-thresholds", perm.ViolationTypesManage, h.replaceThresholds)

	r.Get("/handling-types", perm.ViolationTypesView, h.listHandlingTypes)
	r.Post("/handling-types", perm.ViolationTypesManage, h.createHandlingType)
	r.Patch("/handling-types/{id}", perm.ViolationTypesManage, h.updateHandlingType)
	r.Delete("/handling-types/{id}", perm.ViolationTypesManage, h.deleteHandlingType)
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
	default:
		return nil, apperr.New(apperr.Invalid, "violationtype.filter.invalid").WithField(name, "violationtype.filter.boolean")
	}
}

// ---- categories ----

func (h *Handler) listCategories(w http.ResponseWriter, r *http.Request) error {
	cats, err := h.store.ListCategories(r.Context())
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, list[Category]{cats})
}

func (h *Handler) createCategory(w http.ResponseWriter, r *http.Request) error {
	var in CategoryInput
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
	var in CategoryInput
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

// TypeList is the type list with every category, so a screen can group the
// types under their categories (with colours), empty categories included.
type TypeList struct {
	Data       []Type     `json:"data"`
	Categories []Category `json:"categories"`
}

func (h *Handler) listTypes(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	f := TypeFilter{Q: strings.TrimSpace(q.Get("q"))}
	if r := []rune(NormalizeName(f.Q)); len(r) > 100 {
		f.Q = string(r[:100])
	} else {
		f.Q = string(r)
	}
	if v := q.Get("category_id"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n <= 0 {
			return apperr.New(apperr.Invalid, "violationtype.filter.invalid").WithField("category_id", "violationtype.filter.category_id")
		}
		f.CategoryID = n
	}
	active, err := boolParam(r, "active")
	if err != nil {
		return err
	}
	f.Active = active
	types, err := h.store.ListTypes(r.Context(), f)
	if err != nil {
		return err
	}
	cats, err := h.store.ListCategories(r.Context())
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, TypeList{Data: types, Categories: cats})
}

func (h *Handler) createType(w http.ResponseWriter, r *http.Request) error {
	var in TypeInput
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
	var in TypeInput
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

// TemplateFilename is the download name of the import template.
const TemplateFilename = "templat-jenis-pelanggaran.xlsx"

// Imports running at once. Each holds its upload and the parts it reads
// (docs/violation-types.md gives the figures); a request that finds every
// slot taken waits up to importWait for one, then is refused with 503.
// Tests change both through export_test.go.
var (
	importSlots = make(chan struct{}, 2)
	importWait  atomic.Int64 // a time.Duration; 5s unless a test sets it
)

func init() { importWait.Store(int64(5 * time.Second)) }

// acquireImport takes an import slot; release gives it back.
func acquireImport(ctx context.Context) (release func(), err error) {
	slots := importSlots
	t := time.NewTimer(time.Duration(importWait.Load()))
	defer t.Stop()
	select {
	case slots <- struct{}{}:
		return func() { <-slots }, nil
	case <-t.C:
		return nil, apperr.New(apperr.Unavailable, "violationtype.import.busy")
	case <-ctx.Done():
		return nil, apperr.New(apperr.Unavailable, "violationtype.import.busy")
	}
}

// importUpload is the upload of an import file (the multipart field "file",
// at most MaxImportBytes).
var importUpload = xlsximport.Upload{
	MaxBytes: MaxImportBytes, Slack: multipartSlack,
	Unreadable:   "violationtype.request.multipart_unreadable",
	Incomplete:   "violationtype.request.file_incomplete",
	BodyTooLarge: func(int64) error { return tooLarge() },
	Name: func(name string) string {
		if r := []rune(cleanText(name)); len(r) > 200 {
			return string(r[:200])
		}
		return cleanText(name)
	},
}

// importTypes reads the import file and imports it; with ?dry_run=1 it only
// answers what the import would do (the preview), saving nothing.
func (h *Handler) importTypes(w http.ResponseWriter, r *http.Request) error {
	dryRun, err := boolParam(r, "dry_run")
	if err != nil {
		return err
	}
	if r.ContentLength > MaxImportBytes+multipartSlack {
		return tooLarge()
	}
	// Take the slot before reading the body: a waiting upload holds no memory.
	release, err := acquireImport(r.Context())
	if err != nil {
		return err
	}
	defer release()
	filename, data, err := importUpload.Read(w, r)
	if err != nil {
		return err
	}
	rows, err := ParseImport(data)
	if err != nil {
		return err
	}
	data = nil //nolint:ineffassign // the rows are all the import needs now
	res, err := h.store.Import(r.Context(), h.auth.Actor(r), filename, rows, dryRun != nil && *dryRun)
	if err != nil {
		return err
	}
	res.Render(locale.FromContext(r.Context()))
	return httpx.JSON(w, http.StatusOK, res)
}

// ---- thresholds ----

func (h *Handler) listThresholds(w http.ResponseWriter, r *http.Request) error {
	t, err := h.store.ListThresholds(r.Context())
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, list[Threshold]{t})
}

func (h *Handler) replaceThresholds(w http.ResponseWriter, r *http.Request) error {
	var in ThresholdsInput
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	t, err := h.store.ReplaceThresholds(r.Context(), h.auth.Actor(r), in)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, list[Threshold]{t})
}

// ---- handling types ----

func (h *Handler) listHandlingTypes(w http.ResponseWriter, r *http.Request) error {
	active, err := boolParam(r, "active")
	if err != nil {
		return err
	}
	ht, err := h.store.ListHandlingTypes(r.Context(), active)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, list[HandlingType]{ht})
}

func (h *Handler) createHandlingType(w http.ResponseWriter, r *http.Request) error {
	var in HandlingTypeInput
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	ht, err := h.store.CreateHandlingType(r.Context(), h.auth.Actor(r), in)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusCreated, ht)
}

func (h *Handler) updateHandlingType(w http.ResponseWriter, r *http.Request) error {
	htID, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	var in HandlingTypeInput
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	ht, err := h.store.UpdateHandlingType(r.Context(), h.auth.Actor(r), htID, in)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, ht)
}

func (h *Handler) deleteHandlingType(w http.ResponseWriter, r *http.Request) error {
	htID, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	if err := h.store.DeleteHandlingType(r.Context(), h.auth.Actor(r), htID); err != nil {
		return err
	}
	return httpx.NoContent(w)
}
