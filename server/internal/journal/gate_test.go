package journal

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/tatib/tatib/server/internal/apperr"
)

func TestTokenInPrefix(t *testing.T) {
	for _, c := range []struct {
		body, token string
		ok          bool
	}{
		{`{"token":"abc","attendances":[]}`, "abc", true},
		{`{"attendances":[{"date":"2026-11-02"}],"token":"late"}`, "late", true},
		{`{"attendances":[` + strings.Repeat(`{"date":"2026-11-02"},`, 10), "", false}, // the prefix ends first
		{`{"token":`, "", false},
		{`[1,2]`, "", false},
		{`{"token":12345}`, "", false}, // as bodyToken: a token is a string
	} {
		got, ok := tokenInPrefix([]byte(c.body))
		if got != c.token || ok != c.ok {
			t.Errorf("%.40s: %q %v, want %q %v", c.body, got, ok, c.token, c.ok)
		}
	}
}

// With every slot taken, a push waits, then is answered 503 with a
// Retry-After.
func TestWaitTurnBusy(t *testing.T) {
	h := &Handler{slots: make(chan struct{}, 1)}
	release, err := h.waitTurn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err = h.waitTurn(ctx)
	e, ok := apperr.As(err)
	if !ok || e.Code != apperr.Unavailable || e.RetryAfter <= 0 {
		t.Fatalf("busy: %v", err)
	}
	release()
	if _, err := h.waitTurn(context.Background()); err != nil {
		t.Fatalf("after release: %v", err)
	}
}
