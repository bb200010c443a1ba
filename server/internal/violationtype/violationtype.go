// Package violationtype holds violation categories and types, warning-letter
// thresholds, handling types and the xlsx import.
package violationtype

import (
	"context"

	"github.com/tatib/tatib/server/internal/app"
	"github.com/tatib/tatib/server/internal/httpx"
)

// Mount registers the violation master-data routes.
func Mount(r *httpx.Router, d app.Deps) {}

// Boot runs after migration, before serving (loads the demo types).
func Boot(ctx context.Context, d app.Deps) error { return nil }
