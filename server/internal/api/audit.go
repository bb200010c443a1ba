package api

import (
	"net/http"

	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

func auditRoutes(r *httpx.Router, d Deps) {
	r.Get("/audit-log", perm.AuditView, func(w http.ResponseWriter, r *http.Request) error {
		p, err := httpx.PageParams(r)
		if err != nil {
			return err
		}
		list, total, err := audit.List(r.Context(), d.DB, r.URL.Query().Get("entity"), r.URL.Query().Get("entity_id"), p.PerPage, p.Offset())
		if err != nil {
			return err
		}
		return httpx.JSON(w, http.StatusOK, api.Page[api.AuditEntry]{Data: list, Meta: p.Meta(total)})
	})
}
