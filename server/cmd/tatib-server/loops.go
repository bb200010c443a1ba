package main

import (
	"context"
	"slices"
	"sync"
	"time"
)

// loops runs the server's background loops (the listener, schedules,
// sweeps, outboxes) under one context and waits for every one of them on
// shutdown.
type loops struct {
	wg      sync.WaitGroup
	mu      sync.Mutex
	running map[string]int
}

func newLoops() *loops { return &loops{running: map[string]int{}} }

// Go runs fn(ctx) in its own goroutine; fn must return once ctx ends.
func (g *loops) Go(ctx context.Context, name string, fn func(context.Context)) {
	g.mu.Lock()
	g.running[name]++
	g.mu.Unlock()
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		defer func() {
			g.mu.Lock()
			if g.running[name]--; g.running[name] == 0 {
				delete(g.running, name)
			}
			g.mu.Unlock()
		}()
		fn(ctx)
	}()
}

// Wait returns once every loop has returned (nil), or after limit with
// the names of those still running.
func (g *loops) Wait(limit time.Duration) []string {
	done := make(chan struct{})
	go func() { g.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-time.After(limit):
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	var left []string
	for name := range g.running {
		left = append(left, name)
	}
	slices.Sort(left)
	return left
}
