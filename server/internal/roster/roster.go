// Package roster holds departments, classes, students, their homeroom
// teachers and their parents' contacts, as the student-affairs sync
// (studentsync) leaves them, and serves them under /departments, /classes
// and /students.
package roster

import (
	"github.com/tatib/tatib/server/internal/app"
	"github.com/tatib/tatib/server/internal/httpx"
)

// Mount registers the roster routes.
func Mount(r *httpx.Router, d app.Deps) {
	h := &Handler{store: NewStore(d.DB), auth: d.Auth}
	h.Routes(r)
}
