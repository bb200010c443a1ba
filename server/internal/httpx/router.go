package httpx

import (
	"net/http"
	"sort"

	"github.com/go-chi/chi/v5"

	"github.com/tatib/tatib/shared/perm"
)

// Route is one registered API route and the permission it needs.
type Route struct {
	Method     string
	Pattern    string
	Permission perm.Name
}

// Guard returns the middleware that enforces permission p.
type Guard func(p perm.Name) func(http.Handler) http.Handler

// Router registers routes on a chi router, each with its permission, and
// remembers them for the OpenAPI check and the permission tests.
type Router struct {
	mux    chi.Router
	prefix string
	guard  Guard
	routes *[]Route
}

// NewRouter wraps mux; every route gets guard(permission) in front.
func NewRouter(mux chi.Router, prefix string, guard Guard) *Router {
	return &Router{mux: mux, prefix: prefix, guard: guard, routes: new([]Route)}
}

// Handle registers h for method and pattern behind permission p.
func (r *Router) Handle(method, pattern string, p perm.Name, h HandlerFunc) {
	*r.routes = append(*r.routes, Route{Method: method, Pattern: r.prefix + pattern, Permission: p})
	r.mux.With(r.guard(p)).Method(method, pattern, h)
}

// HandleHTTP registers a plain http.Handler (for streams and WebSockets).
func (r *Router) HandleHTTP(method, pattern string, p perm.Name, h http.Handler) {
	*r.routes = append(*r.routes, Route{Method: method, Pattern: r.prefix + pattern, Permission: p})
	r.mux.With(r.guard(p)).Method(method, pattern, h)
}

// Get registers a GET route.
func (r *Router) Get(pattern string, p perm.Name, h HandlerFunc) {
	r.Handle(http.MethodGet, pattern, p, h)
}

// Post registers a POST route.
func (r *Router) Post(pattern string, p perm.Name, h HandlerFunc) {
	r.Handle(http.MethodPost, pattern, p, h)
}

// Put registers a PUT route.
func (r *Router) Put(pattern string, p perm.Name, h HandlerFunc) {
	r.Handle(http.MethodPut, pattern, p, h)
}

// Patch registers a PATCH route.
func (r *Router) Patch(pattern string, p perm.Name, h HandlerFunc) {
	r.Handle(http.MethodPatch, pattern, p, h)
}

// Delete registers a DELETE route.
func (r *Router) Delete(pattern string, p perm.Name, h HandlerFunc) {
	r.Handle(http.MethodDelete, pattern, p, h)
}

// Routes returns every registered route, sorted.
func (r *Router) Routes() []Route {
	out := append([]Route(nil), *r.routes...)
	sort.Slice(out, func(i, j int) bool {
		if out[i].Pattern != out[j].Pattern {
			return out[i].Pattern < out[j].Pattern
		}
		return out[i].Method < out[j].Method
	})
	return out
}

func chiParam(r *http.Request, name string) string { return chi.URLParam(r, name) }
