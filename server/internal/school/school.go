// Package school holds departments, classes and students, brought in from
// the school's student-affairs system, and the demo school.
package school

import (
	"context"

	"github.com/tatib/tatib/server/internal/app"
	"github.com/tatib/tatib/server/internal/httpx"
)

// Mount registers the school-data routes.
func Mount(r *httpx.Router, d app.Deps) {}

// Boot runs after migration, before serving (loads the demo school).
func Boot(ctx context.Context, d app.Deps) error { return nil }

// Background starts the scheduled student sync.
func Background(ctx context.Context, d app.Deps) {}
