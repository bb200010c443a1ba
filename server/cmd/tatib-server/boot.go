package main

import (
	"context"
	"time"

	"github.com/tatib/tatib/server/internal/api"
	"github.com/tatib/tatib/server/internal/app"
	"github.com/tatib/tatib/server/internal/demo"
	"github.com/tatib/tatib/server/internal/erasure"
	"github.com/tatib/tatib/server/internal/face"
	"github.com/tatib/tatib/server/internal/parentmsg/worker"
	"github.com/tatib/tatib/server/internal/pointspolicy"
	"github.com/tatib/tatib/server/internal/portal"
	"github.com/tatib/tatib/server/internal/violationtype"
)

// boot runs features' start-up steps after migration and before serving
// (the demo school, for one).
func boot(ctx context.Context, d app.Deps) error {
	if err := violationtype.Boot(ctx, d); err != nil {
		return err
	}
	if d.Config.Demo {
		return demo.Load(ctx, d)
	}
	return nil
}

// background runs features' long-running loops (the listener, schedules,
// sweeps, outboxes) in g until ctx ends. The server waits for all of them
// before it exits, at most ShutdownWait: the parent-message worker
// finishes and records a send in flight first.
func background(ctx context.Context, g *loops, d app.Deps, srv *api.Server) {
	g.Go(ctx, "listener", d.Listen.Run)
	g.Go(ctx, "permissions", func(ctx context.Context) { d.Auth.Listen(ctx, d.Listen) })
	g.Go(ctx, "sessions", func(ctx context.Context) {
		every(ctx, time.Hour, func() {
			if err := d.Auth.PruneSessions(ctx); err != nil {
				d.Log.Warn("prune sessions", "err", err)
			}
		})
	})
	g.Go(ctx, "notifications", srv.Hub.Run)
	g.Go(ctx, "student sync", srv.Syncer.RunSchedule)
	g.Go(ctx, "erasure ledger", func(ctx context.Context) { erasure.Background(ctx, d.DB, d.Config.DataDir, d.Log) })
	g.Go(ctx, "face", func(ctx context.Context) { face.Background(ctx, d) })
	g.Go(ctx, "points policy", func(ctx context.Context) { pointspolicy.Background(ctx, d) })
	g.Go(ctx, "portal", func(ctx context.Context) { portal.Background(ctx, d) })
	g.Go(ctx, "parent messages", func(ctx context.Context) { worker.Background(ctx, d) })
}

// ShutdownWait is how long a stopping server waits for its loops: the
// parent-message worker's sends in flight may take the longest gateway
// timeout a school can set.
const ShutdownWait = worker.ShutdownWait
