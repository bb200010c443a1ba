package pointspolicy

import (
	"context"
	"net/http"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/app"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/server/internal/locale"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

// Actors names the audit actor of a request (auth.Service does).
type Actors interface {
	Actor(r *http.Request) audit.Actor
}

// Handler serves the policy and the simulator.
type Handler struct {
	db   *sqlx.DB
	auth Actors
}

// Mount registers the routes.
func Mount(r *httpx.Router, d app.Deps) {
	h := &Handler{db: d.DB, auth: d.Auth}
	r.Get("/points-policy", perm.ViolationTypesView, h.get)
	r.Put("/points-policy", perm.PointsPolicyManage, h.put)
	r.Post("/points-policy/simulate", perm.PointsPolicyManage, h.simulate)
}

func (h *Handler) simulate(w http.ResponseWriter, r *http.Request) error {
	var in api.SimulateRequest
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	out, err := Simulate(r.Context(), h.db, locale.FromContext(r.Context()), in, time.Now())
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, out)
}

func (h *Handler) get(w http.ResponseWriter, r *http.Request) error {
	p, err := Load(r.Context(), h.db)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, p)
}

func (h *Handler) put(w http.ResponseWriter, r *http.Request) error {
	var in Policy
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	p, err := Save(r.Context(), h.db, h.auth.Actor(r), in)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, p)
}

// SweepEvery is how often the server looks for students due an amnesty.
const SweepEvery = 15 * time.Minute

// Background runs the amnesty sweep now and every SweepEvery; it returns
// when ctx ends. Replicas race harmlessly: a period's reduction is unique.
func Background(ctx context.Context, d app.Deps) {
	t := time.NewTicker(SweepEvery)
	defer t.Stop()
	for {
		if n, err := Sweep(ctx, d.DB, time.Now()); err != nil {
			if ctx.Err() == nil {
				d.Log.Warn("points policy: amnesty sweep", "err", err)
			}
		} else if n > 0 {
			d.Log.Info("points policy: amnesty", "students", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
