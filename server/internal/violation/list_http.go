package violation

import (
	"net/http"
	"time"

	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/server/internal/locale"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

// XLSXContentType is the media type of .xlsx files.
const XLSXContentType = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

// ListHandler serves the violation list, one violation and the export.
type ListHandler struct {
	store *ListStore
	now   func() time.Time
}

// NewListHandler returns a ListHandler.
func NewListHandler(s *ListStore) *ListHandler { return &ListHandler{store: s, now: time.Now} }

// Routes registers the routes. The export is registered before {id} reads
// as a pattern, though chi prefers the fixed segment either way.
func (h *ListHandler) Routes(r *httpx.Router) {
	r.Get("/violations", perm.ViolationsView, h.list)
	r.Get("/violations/export", perm.ViolationsExport, h.export)
	r.Get("/violations/{id}", perm.ViolationsView, h.get)
}

func (h *ListHandler) list(w http.ResponseWriter, r *http.Request) error {
	f, err := ParseFilter(r.URL.Query())
	if err != nil {
		return err
	}
	p, err := httpx.PageParams(r)
	if err != nil {
		return err
	}
	list, total, err := h.store.List(r.Context(), ScopeOf(r.Context()), f, p)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, api.Page[api.Violation]{Data: list, Meta: p.Meta(total)})
}

func (h *ListHandler) get(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	v, err := h.store.Get(r.Context(), h.store.db, ScopeOf(r.Context()), id)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, v)
}

func (h *ListHandler) export(w http.ResponseWriter, r *http.Request) error {
	f, err := ParseFilter(r.URL.Query())
	if err != nil {
		return err
	}
	st, err := h.store.Export(r.Context(), ScopeOf(r.Context()), f, locale.FromContext(r.Context()))
	if err != nil {
		return err
	}
	defer st.Close()
	w.Header().Set("Content-Type", XLSXContentType)
	w.Header().Set("Content-Disposition", `attachment; filename="`+FileName(h.now())+`"`)
	w.Header().Set("Cache-Control", "no-store")
	_, err = st.WriteTo(w)
	return err
}
