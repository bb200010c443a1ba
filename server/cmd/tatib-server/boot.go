package main

import (
	"context"
	"log/slog"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/config"
)

// boot runs start-up steps of features after migration and before serving
// (the demo school, for one). Each feature adds one call here.
func boot(ctx context.Context, db *sqlx.DB, cfg config.Config, log *slog.Logger) error {
	return nil
}

// background starts features' long-running workers (schedules, outboxes).
func background(ctx context.Context, db *sqlx.DB, cfg config.Config, log *slog.Logger) {
}
