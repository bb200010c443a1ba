// Package achievement holds positive behaviour (issue 28): achievement
// categories and types with points per level (master data like the
// violation types', with an xlsx import), and achievements recorded for one
// or several students, with evidence photos, verified by a counselor.
package achievement

import (
	"net/http"
	"strconv"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/app"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/auth"
	"github.com/tatib/tatib/server/internal/httpx"
)

// Limits of the forms and the import.
const (
	MaxPoints       = 1000
	maxTypeName     = 150
	maxCategoryName = 50
	maxDescription  = 2000
	// MaxStudents bounds one recording (a team, a class's choir).
	MaxStudents = 60
)

// Actors names the audit actor of a request (auth.Service does).
type Actors interface {
	Actor(r *http.Request) audit.Actor
}

// Scope narrows what a caller reads and writes: a homeroom teacher
// (HomeroomID, their user id) only their own class's students.
type Scope struct{ HomeroomID int64 }

// ScopeOf is the caller's scope.
func ScopeOf(r *http.Request) Scope { return Scope{HomeroomID: auth.HomeroomID(r.Context())} }

// studentInScope is the SQL condition that student s (achievement_students
// x) is the caller's: $n is the homeroom id (0: everyone).
func studentInScope(n int) string {
	p := "$" + strconv.Itoa(n)
	return `(` + p + `::bigint = 0 OR EXISTS (SELECT 1 FROM classes hc WHERE hc.homeroom_teacher_id = ` + p +
		` AND (hc.id = x.class_id OR hc.id = s.class_id)))`
}

// Store reads and writes achievement types and achievements.
type Store struct {
	db *sqlx.DB
}

// NewStore returns a Store.
func NewStore(db *sqlx.DB) *Store { return &Store{db: db} }

// Handler serves the achievement routes.
type Handler struct {
	store *Store
	auth  Actors
}

// Mount registers the routes.
func Mount(r *httpx.Router, d app.Deps) {
	h := &Handler{store: NewStore(d.DB), auth: d.Auth}
	h.Routes(r)
}

func id(n int64) string { return strconv.FormatInt(n, 10) }
