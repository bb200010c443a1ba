package main

import (
	"context"
	"time"

	"github.com/tatib/tatib/server/internal/app"
	"github.com/tatib/tatib/server/internal/demo"
	"github.com/tatib/tatib/server/internal/erasure"
	"github.com/tatib/tatib/server/internal/face"
	"github.com/tatib/tatib/server/internal/notify"
	"github.com/tatib/tatib/server/internal/parentmsg/worker"
	"github.com/tatib/tatib/server/internal/pointspolicy"
	"github.com/tatib/tatib/server/internal/portal"
	"github.com/tatib/tatib/server/internal/studentsync"
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

// background starts features' long-running workers (schedules, outboxes).
// wait blocks until the parent-message sends in flight when ctx ended are
// recorded, or ShutdownWait has passed.
func background(ctx context.Context, d app.Deps) (wait func()) {
	studentsync.Background(ctx, d)
	erasure.Background(ctx, d.DB, d.Config.DataDir, d.Log)
	notify.Background(ctx, d)
	face.Background(ctx, d)
	pointspolicy.Background(ctx, d)
	portal.Background(ctx, d)
	sending := worker.Background(ctx, d)
	return func() {
		select {
		case <-sending:
		case <-time.After(worker.ShutdownWait):
			d.Log.Warn("parent messages: stopped without waiting for a send in flight")
		}
	}
}
