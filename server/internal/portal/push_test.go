package portal_test

import (
	"context"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/sha256"
	"encoding/base64"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tatib/tatib/server/internal/portal"
	"github.com/tatib/tatib/shared/api"
)

// A push goes to a subscribed guardian with news, signed with the server's
// VAPID key; nothing new, nothing sent; a gone endpoint is forgotten.
func TestWebPush(t *testing.T) {
	t.Setenv("TATIB_ALLOW_LOCAL_SOURCES", "1")
	f := newFamily(t, false)
	var mu sync.Mutex
	var auths []string
	status := http.StatusCreated
	push := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		auths = append(auths, r.Header.Get("Authorization"))
		w.WriteHeader(status)
	}))
	defer push.Close()

	// A guardian without a gateway: an activation code signs them in.
	bk := f.env.As("bk")
	var list struct{ Data []api.Guardian }
	bk.Do("GET", "/api/v1/guardians?student_id="+itoa(f.student), nil).Want(200).JSON(&list)
	var ac api.ActivationCode
	bk.Do("POST", "/api/v1/guardians/"+itoa(list.Data[0].ID)+"/activation-code", nil).Want(201).JSON(&ac)
	var out api.PortalVerifyAnswer
	f.env.Anonymous().Do("POST", "/api/v1/portal/auth/verify", map[string]string{"phone": parentPhone, "code": ac.Code}).Want(200).JSON(&out)
	g := f.env.Anonymous()
	g.Token = out.Token

	var key api.PushKey
	g.Do("GET", "/api/v1/portal/push/key", nil).Want(200).JSON(&key)
	browser, _ := ecdh.P256().GenerateKey(strings.NewReader(strings.Repeat("k", 64)))
	var sub api.PushSubscription
	sub.Endpoint = push.URL + "/push/abc"
	sub.Keys.P256dh = base64.RawURLEncoding.EncodeToString(browser.PublicKey().Bytes())
	sub.Keys.Auth = base64.RawURLEncoding.EncodeToString([]byte("0123456789abcdef"))
	g.Do("POST", "/api/v1/portal/push-subscriptions", sub).Want(204)
	bad := sub
	bad.Keys.Auth = "x"
	g.Do("POST", "/api/v1/portal/push-subscriptions", bad).Want(422)

	p := &portal.Pusher{DB: f.env.DB, Client: push.Client(), Subject: "mailto:bk@sekolah.sch.id", Now: time.Now}
	ctx := context.Background()
	if n, err := p.PushOnce(ctx); err != nil || n != 0 {
		t.Fatalf("pushed %d (%v) with no news", n, err)
	}
	f.school.Record(t, f.student, time.Now().Add(-time.Minute), false, f.school.T10)
	if n, err := p.PushOnce(ctx); err != nil || n != 1 {
		t.Fatalf("pushed %d (%v) after a violation", n, err)
	}
	if n, _ := p.PushOnce(ctx); n != 0 {
		t.Fatalf("pushed the same news again")
	}
	// The JWT verifies with the key browsers subscribed with, for the endpoint's origin.
	a := auths[0]
	tok := strings.TrimPrefix(strings.Split(a, ", k=")[0], "vapid t=")
	parts := strings.Split(tok, ".")
	if len(parts) != 3 || strings.Split(a, ", k=")[1] != key.PublicKey {
		t.Fatalf("authorization %q", a)
	}
	claims, _ := base64.RawURLEncoding.DecodeString(parts[1])
	if !strings.Contains(string(claims), `"aud":"`+push.URL+`"`) {
		t.Fatalf("claims %s", claims)
	}
	pubBytes, _ := base64.RawURLEncoding.DecodeString(key.PublicKey)
	x, y := elliptic.Unmarshal(elliptic.P256(), pubBytes) //nolint:staticcheck // the wire form of RFC 8292
	sig, _ := base64.RawURLEncoding.DecodeString(parts[2])
	sum := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	if x == nil || !ecdsa.Verify(&ecdsa.PublicKey{Curve: elliptic.P256(), X: x, Y: y}, sum[:], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])) {
		t.Fatal("the VAPID signature does not verify")
	}

	// The push service says the subscription is gone: it is forgotten.
	status = http.StatusGone
	f.school.Record(t, f.student, time.Now().Add(-time.Second), false, f.school.T10)
	_, _ = p.PushOnce(ctx)
	var n int
	if err := f.env.DB.Get(&n, `SELECT count(*) FROM portal_push_subscriptions`); err != nil || n != 0 {
		t.Fatalf("%d subscriptions after 410 (%v)", n, err)
	}
}
