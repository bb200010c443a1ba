package portal

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/tatib/tatib/server/internal/app"
	"github.com/tatib/tatib/server/internal/netguard"
)

// Background runs the portal's push worker and its notices (digests,
// "belum hadir"); it returns when both have, after ctx ends.
func Background(ctx context.Context, d app.Deps) {
	subject := "mailto:tatib@localhost"
	if strings.HasPrefix(d.Config.BaseURL, "https://") {
		subject = d.Config.BaseURL
	}
	p := &Pusher{DB: d.DB, Client: netguard.Client(15*time.Second, netguard.LocalAllowed()), Subject: subject, Now: time.Now, Log: d.Log}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); p.Run(ctx) }()
	go func() { defer wg.Done(); runNotices(ctx, d) }()
	wg.Wait()
}

// NoticeInterval is how often the digest and "belum hadir" are looked for.
const NoticeInterval = time.Minute

// runNotices queues the daily digests and the "belum hadir" notices when
// their time has come; every replica runs it, the advisory locks and
// unique indexes keep it to one message each.
func runNotices(ctx context.Context, d app.Deps) {
	t := time.NewTicker(NoticeInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if _, err := Digests(ctx, d.DB, time.Now()); err != nil && ctx.Err() == nil {
			d.Log.Error("portal digests", "err", err)
		}
		if _, err := AbsentNotices(ctx, d.DB, time.Now()); err != nil && ctx.Err() == nil {
			d.Log.Error("portal absent notices", "err", err)
		}
	}
}
