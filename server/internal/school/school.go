// Package school holds the school profile (name, principal, academic year,
// lesson hours) and its logo. Departments, classes and students are in
// roster; the student-affairs sync is in studentsync.
package school

import (
	"github.com/tatib/tatib/server/internal/app"
	"github.com/tatib/tatib/server/internal/httpx"
)

// Mount registers the profile and logo routes.
func Mount(r *httpx.Router, d app.Deps) {
	h := &Handler{db: d.DB, auth: d.Auth}
	h.Routes(r)
}
