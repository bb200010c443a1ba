package portal

import (
	"context"
	"strings"
	"time"

	"github.com/tatib/tatib/server/internal/app"
	"github.com/tatib/tatib/server/internal/netguard"
)

// Background starts the portal's push worker.
func Background(ctx context.Context, d app.Deps) {
	subject := "mailto:tatib@localhost"
	if strings.HasPrefix(d.Config.BaseURL, "https://") {
		subject = d.Config.BaseURL
	}
	p := &Pusher{DB: d.DB, Client: netguard.Client(15*time.Second, netguard.LocalAllowed()), Subject: subject, Now: time.Now, Log: d.Log}
	go p.Run(ctx)
}
