// Package app holds what every feature is built from, so feature packages
// can be wired by the api package without importing each other.
package app

import (
	"log/slog"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/auth"
	"github.com/tatib/tatib/server/internal/config"
	"github.com/tatib/tatib/server/internal/pg/listen"
)

// Deps are the server's shared dependencies.
type Deps struct {
	DB     *sqlx.DB
	Config config.Config
	Log    *slog.Logger
	Auth   *auth.Service
	// Listen is the process's one LISTEN connection (on the direct URL);
	// nil: nothing is heard live (tests that need no other replica).
	Listen *listen.Listener
}
