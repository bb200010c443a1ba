package timing

import (
	"context"
	"testing"
	"time"
)

func TestRecorder(t *testing.T) {
	Mark(context.Background(), "nothing") // no recorder: nothing happens
	start := time.Now().Add(-30 * time.Millisecond)
	ctx, r := Start(context.Background(), start)
	Mark(ctx, "read")
	time.Sleep(2 * time.Millisecond)
	Mark(ctx, "upsert")
	Mark(ctx, "read") // a retried stage adds up
	st := r.Stages()
	if len(st) != 2 || st[0].Name != "read" || st[1].Name != "upsert" || st[0].Took < 30*time.Millisecond || st[1].Took < 2*time.Millisecond {
		t.Fatalf("stages %+v", st)
	}
	back, err := Parse(r.Header())
	if err != nil || len(back) != 2 || back[0].Name != "read" || (back[0].Took-st[0].Took).Abs() > time.Millisecond {
		t.Fatalf("Parse(%q) = %+v, %v", r.Header(), back, err)
	}
	if _, err := Parse("read;dur=x"); err == nil {
		t.Error("a bad duration parsed")
	}
}
