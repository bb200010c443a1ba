// Package timing records how long the stages of one request took, for the
// request's Server-Timing header (which the benchmarks read to print where
// a journal push's time goes). A Recorder rides in the request's context;
// each stage marks its end with Mark. Without a Recorder in the context,
// Mark is one context lookup and nothing else, so shared code (the points
// ledger) can mark its stages whoever calls it.
package timing

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Stage is one stage and how long it took (summed when a stage ran more
// than once, as in a retried transaction).
type Stage struct {
	Name string
	Took time.Duration
}

// Recorder collects the stages of one request.
type Recorder struct {
	mu     sync.Mutex
	last   time.Time
	stages []Stage
}

type ctxKey struct{}

// Start returns a context carrying a new Recorder whose first stage begins
// at start.
func Start(ctx context.Context, start time.Time) (context.Context, *Recorder) {
	r := &Recorder{last: start}
	return context.WithValue(ctx, ctxKey{}, r), r
}

// Mark ends the stage name of the context's Recorder (the time since the
// previous mark); without a Recorder it does nothing.
func Mark(ctx context.Context, name string) {
	if r, ok := ctx.Value(ctxKey{}).(*Recorder); ok {
		r.Mark(name)
	}
}

// Mark ends the stage name: the time since the previous mark (or the
// start) is added to it.
func (r *Recorder) Mark(name string) {
	now := time.Now()
	r.mu.Lock()
	defer r.mu.Unlock()
	took := now.Sub(r.last)
	r.last = now
	for i := range r.stages {
		if r.stages[i].Name == name {
			r.stages[i].Took += took
			return
		}
	}
	r.stages = append(r.stages, Stage{Name: name, Took: took})
}

// Stages lists the stages in the order they first ended.
func (r *Recorder) Stages() []Stage {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Stage(nil), r.stages...)
}

// Header is the Server-Timing header value of the stages: "read;dur=1.25,
// decode;dur=20.4" (milliseconds).
func (r *Recorder) Header() string {
	var b strings.Builder
	for i, s := range r.Stages() {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(s.Name)
		b.WriteString(";dur=")
		b.WriteString(strconv.FormatFloat(float64(s.Took.Microseconds())/1000, 'f', -1, 64))
	}
	return b.String()
}

// Parse reads a Server-Timing header value as Header writes it.
func Parse(header string) ([]Stage, error) {
	var out []Stage
	for _, part := range strings.Split(header, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		name, params, _ := strings.Cut(part, ";")
		s := Stage{Name: strings.TrimSpace(name)}
		for _, p := range strings.Split(params, ";") {
			k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
			if !ok || k != "dur" {
				continue
			}
			ms, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return nil, fmt.Errorf("timing: %q: %w", part, err)
			}
			s.Took = time.Duration(ms * float64(time.Millisecond))
		}
		out = append(out, s)
	}
	return out, nil
}
