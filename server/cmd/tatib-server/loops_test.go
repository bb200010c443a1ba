package main

import (
	"context"
	"slices"
	"sync/atomic"
	"testing"
	"time"
)

// Wait returns only once every loop has returned after the context ended,
// the slowest included; a loop that outlives the limit is named.
func TestLoopsAwaitedOnShutdown(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	g := newLoops()
	var exited atomic.Int32
	for _, d := range []time.Duration{0, 50 * time.Millisecond, 200 * time.Millisecond} {
		g.Go(ctx, "loop", func(ctx context.Context) {
			<-ctx.Done()
			time.Sleep(d) // finishing what is in flight
			exited.Add(1)
		})
	}
	cancel()
	if left := g.Wait(5 * time.Second); left != nil {
		t.Fatalf("still running: %v", left)
	}
	if n := exited.Load(); n != 3 {
		t.Fatalf("Wait returned after %d of 3 loops exited", n)
	}

	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	g = newLoops()
	stuck := make(chan struct{})
	defer close(stuck)
	g.Go(ctx, "quick", func(ctx context.Context) { <-ctx.Done() })
	g.Go(ctx, "stuck", func(context.Context) { <-stuck })
	cancel()
	if left := g.Wait(100 * time.Millisecond); !slices.Equal(left, []string{"stuck"}) {
		t.Fatalf("still running: %v, want [stuck]", left)
	}
}
