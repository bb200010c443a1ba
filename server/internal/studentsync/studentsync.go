// Package studentsync brings departments, classes and students in from the
// school's student-affairs (kesiswaan) system: the connection settings, the
// sync (on demand and on schedule) and its history. The roster package
// serves what it stores.
package studentsync

import (
	"context"
	"time"

	"github.com/tatib/tatib/server/internal/app"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/server/internal/schoolday"
)

// Mount registers the sync and connection routes; syncer is the process's
// (the server runs its schedule, RunSchedule).
func Mount(r *httpx.Router, d app.Deps, syncer *Syncer) {
	h := &Handler{db: d.DB, syncer: syncer, auth: d.Auth}
	h.Routes(r)
}

// RunSchedule runs the scheduled student sync until ctx ends.
func (s *Syncer) RunSchedule(ctx context.Context) { s.schedule(ctx, time.Minute) }

// scheduleActor is the audit actor of scheduled syncs.
var scheduleActor = audit.Actor{Name: "sistem (jadwal)"}

// schedule checks every tick whether today's scheduled time (Asia/Jakarta)
// has passed without a sync since; then it runs one. Replicas race
// harmlessly: the database lets one sync run at a time, and the check
// looks at every replica's runs.
func (s *Syncer) schedule(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if err := s.scheduledTick(ctx, time.Now()); err != nil {
			s.log.Warn("scheduled student sync", "err", err)
		}
	}
}

func (s *Syncer) scheduledTick(ctx context.Context, now time.Time) error {
	cfg, err := LoadStudentAffairs(ctx, s.db)
	if err != nil || cfg.URL == "" || cfg.Schedule == "" {
		return err
	}
	due, ok := scheduledSlot(cfg.Schedule, now)
	if !ok {
		return nil
	}
	var ran bool
	if err := s.db.GetContext(ctx, &ran, `SELECT EXISTS (SELECT 1 FROM student_syncs WHERE started_at >= $1)`, due); err != nil {
		return err
	}
	if ran {
		return nil
	}
	_, err = s.RunNow(ctx, scheduleActor, TriggerSchedule)
	return err
}

// scheduledSlot is today's scheduled instant when it has passed (within
// the last 12 hours, so a server started in the evening does not sync for
// a morning slot it missed long ago).
func scheduledSlot(hhmm string, now time.Time) (time.Time, bool) {
	t, err := time.Parse("15:04", hhmm)
	if err != nil {
		return time.Time{}, false
	}
	n := schoolday.In(now)
	slot := schoolday.DateOf(now).At(t.Hour(), t.Minute())
	if n.Before(slot) || n.Sub(slot) > 12*time.Hour {
		return time.Time{}, false
	}
	return slot, true
}
