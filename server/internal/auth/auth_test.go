package auth_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/auth"
	"github.com/tatib/tatib/server/internal/pg/listen"
	"github.com/tatib/tatib/server/internal/pg/pgtest"
	"github.com/tatib/tatib/shared/perm"
)

type creds = map[string]string

func TestLogin(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	_, name := env.CreateUser(perm.BK)
	anon := env.Anonymous()

	t.Run("OK", func(t *testing.T) {
		var out struct {
			Token       string      `json:"token"`
			Permissions []perm.Name `json:"permissions"`
			User        struct {
				Username string    `json:"username"`
				Role     perm.Role `json:"role"`
			} `json:"user"`
		}
		res := anon.Do("POST", "/api/v1/auth/login", creds{"username": name, "password": "rahasia123"}).Want(200).JSON(&out)
		if out.Token == "" || out.User.Username != name || out.User.Role != perm.BK {
			t.Fatalf("login answer: %+v", out)
		}
		c := findCookie(res.Header, auth.CookieName)
		if c == nil || !c.HttpOnly || c.SameSite != http.SameSiteLaxMode || c.Secure {
			t.Fatalf("session cookie: %+v", c)
		}
		var hashed int
		if err := env.DB.Get(&hashed, `SELECT count(*) FROM sessions WHERE token_hash = sha256($1::bytea)`, out.Token); err != nil || hashed != 1 {
			t.Fatalf("session stored by hash: %d %v", hashed, err)
		}
	})
	t.Run("ErrWrongPasswordAndUnknownUserSameMessage", func(t *testing.T) {
		a := anon.Do("POST", "/api/v1/auth/login", creds{"username": name, "password": "salah"}).Want(401).Err()
		b := anon.Do("POST", "/api/v1/auth/login", creds{"username": "nobody", "password": "salah"}).Want(401).Err()
		if a.Error.Message != b.Error.Message || a.Error.Code != "unauthorized" {
			t.Fatalf("messages differ: %q vs %q", a.Error.Message, b.Error.Message)
		}
	})
	t.Run("ErrEmptyFields", func(t *testing.T) {
		e := anon.Do("POST", "/api/v1/auth/login", creds{}).Want(422).Err()
		if e.Error.Fields["username"] == "" || e.Error.Fields["password"] == "" {
			t.Fatalf("fields: %v", e.Error.Fields)
		}
	})
	t.Run("ErrInactive", func(t *testing.T) {
		id, n := env.CreateUser(perm.Staff)
		env.DB.MustExec(`UPDATE users SET active = false WHERE id = $1`, id)
		anon.Do("POST", "/api/v1/auth/login", creds{"username": n, "password": "rahasia123"}).Want(401)
	})
	t.Run("ErrMalformedBody", func(t *testing.T) {
		e := anon.Do("POST", "/api/v1/auth/login", []byte(`{"username":`)).Want(400).Err()
		if e.Error.Code != "bad_request" || e.Error.Message == "" {
			t.Fatalf("%+v", e)
		}
		anon.Do("POST", "/api/v1/auth/login", []byte(`{"username": 5}`)).Want(400)
	})
}

func TestLoginThrottle(t *testing.T) {
	t.Parallel()
	t.Run("PerUsername", func(t *testing.T) {
		t.Parallel()
		env := apitest.New(t)
		_, name := env.CreateUser(perm.BK)
		anon := env.Anonymous()
		for i := 0; i < 5; i++ {
			anon.Do("POST", "/api/v1/auth/login", creds{"username": name, "password": "salah"}).Want(401)
		}
		// Even the right password is refused now, with a wait time.
		res := anon.Do("POST", "/api/v1/auth/login", creds{"username": name, "password": "rahasia123"}).Want(429)
		if res.Header.Get("Retry-After") == "" {
			t.Fatal("no Retry-After")
		}
		// Another user from the same address is not locked.
		_, other := env.CreateUser(perm.BK)
		anon.Do("POST", "/api/v1/auth/login", creds{"username": other, "password": "rahasia123"}).Want(200)
		// Once the window has passed, sign-in works again.
		env.DB.MustExec(`UPDATE login_failures SET at = at - interval '16 minutes'`)
		anon.Do("POST", "/api/v1/auth/login", creds{"username": name, "password": "rahasia123"}).Want(200)
	})
	t.Run("PerAddress", func(t *testing.T) {
		t.Parallel()
		env := apitest.New(t)
		_, name := env.CreateUser(perm.BK)
		anon := env.Anonymous()
		for i := 0; i < 20; i++ {
			anon.Do("POST", "/api/v1/auth/login", creds{"username": "guess" + string(rune('a'+i)), "password": "x"}).Want(401)
		}
		// A username that failed from the locked address is refused, even
		// with a password; one without failures still signs in.
		anon.Do("POST", "/api/v1/auth/login", creds{"username": "guessa", "password": "x"}).Want(429)
		anon.Do("POST", "/api/v1/auth/login", creds{"username": name, "password": "rahasia123"}).Want(200)
	})
}

func TestSessionExpiry(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)

	t.Run("ErrIdle", func(t *testing.T) {
		c := env.As(perm.BK)
		c.Do("GET", "/api/v1/auth/me", nil).Want(200)
		env.DB.MustExec(`UPDATE sessions SET last_seen_at = now() - interval '2 hours' WHERE user_id = $1`, c.UserID)
		c.Do("GET", "/api/v1/auth/me", nil).Want(401)
	})
	t.Run("ErrAbsoluteAge", func(t *testing.T) {
		c := env.As(perm.BK)
		env.DB.MustExec(`UPDATE sessions SET created_at = now() - interval '25 hours' WHERE user_id = $1`, c.UserID)
		c.Do("GET", "/api/v1/auth/me", nil).Want(401)
	})
	t.Run("ErrDeactivated", func(t *testing.T) {
		admin := env.As(perm.Admin)
		c := env.As(perm.Staff)
		c.Do("GET", "/api/v1/auth/me", nil).Want(200)
		admin.Do("PATCH", "/api/v1/users/"+itoa(c.UserID), map[string]any{"active": false}).Want(200)
		c.Do("GET", "/api/v1/auth/me", nil).Want(401)
	})
	t.Run("ErrPasswordReset", func(t *testing.T) {
		admin := env.As(perm.Admin)
		c := env.As(perm.Staff)
		admin.Do("POST", "/api/v1/users/"+itoa(c.UserID)+"/reset-password",
			map[string]string{"password": "barubaru", "password_confirmation": "barubaru"}).Want(204)
		c.Do("GET", "/api/v1/auth/me", nil).Want(401)
	})
	t.Run("Logout", func(t *testing.T) {
		c := env.As(perm.BK)
		c.Do("POST", "/api/v1/auth/logout", nil).Want(204)
		c.Do("GET", "/api/v1/auth/me", nil).Want(401)
	})
}

func TestMe(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	c := env.As(perm.WaliKelas)
	var me struct {
		User        struct{ Role perm.Role } `json:"user"`
		Permissions []perm.Name              `json:"permissions"`
	}
	c.Do("GET", "/api/v1/auth/me", nil).Want(200).JSON(&me)
	want := perm.Defaults(perm.WaliKelas)
	if me.User.Role != perm.WaliKelas || strings.Join(names(me.Permissions), ",") != strings.Join(names(want), ",") {
		t.Fatalf("me: %+v, want permissions %v", me, want)
	}
	env.Anonymous().Do("GET", "/api/v1/auth/me", nil).Want(401)
}

func TestChangeOwnPassword(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	id, name := env.CreateUser(perm.BK)
	c := env.Login(name, "rahasia123")
	other := env.Login(name, "rahasia123")

	e := c.Do("PUT", "/api/v1/auth/password", map[string]string{"current_password": "salah", "password": "abc", "password_confirmation": "abd"}).Want(422).Err()
	for _, f := range []string{"current_password", "password", "password_confirmation"} {
		if e.Error.Fields[f] == "" {
			t.Errorf("no field error for %s: %v", f, e.Error.Fields)
		}
	}
	c.Do("PUT", "/api/v1/auth/password", map[string]string{"current_password": "rahasia123", "password": "barubaru", "password_confirmation": "barubaru"}).Want(204)
	c.Do("GET", "/api/v1/auth/me", nil).Want(200)     // this session stays
	other.Do("GET", "/api/v1/auth/me", nil).Want(401) // the others end
	env.Login(name, "barubaru")
	var n int
	env.DB.Get(&n, `SELECT count(*) FROM audit_log WHERE action = 'user.password.change' AND entity_id = $1`, itoa(id))
	if n != 1 {
		t.Fatalf("audit entries: %d", n)
	}
}

func TestCrossSiteCookieRequests(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	_, name := env.CreateUser(perm.Admin)
	var out struct{ Token string }
	env.Anonymous().Do("POST", "/api/v1/auth/login", creds{"username": name, "password": "rahasia123"}).Want(200).JSON(&out)
	cookie := auth.CookieName + "=" + out.Token
	body := map[string]any{"username": "dari_luar", "name": "X", "role": "staff", "password": "rahasia123"}
	anon := env.Anonymous()

	t.Run("ErrCrossSiteCookiePOST", func(t *testing.T) {
		anon.Do("POST", "/api/v1/users", body, "Cookie", cookie, "Sec-Fetch-Site", "cross-site").Want(403)
		anon.Do("POST", "/api/v1/users", body, "Cookie", cookie, "Origin", "https://evil.example").Want(403)
		var n int
		env.DB.Get(&n, `SELECT count(*) FROM users WHERE username = 'dari_luar'`)
		if n != 0 {
			t.Fatal("a cross-site request created a user")
		}
	})
	t.Run("SameOriginCookiePOST", func(t *testing.T) {
		anon.Do("POST", "/api/v1/users", body, "Cookie", cookie, "Sec-Fetch-Site", "same-origin").Want(201)
	})
	t.Run("CrossSiteCookieGETAllowed", func(t *testing.T) {
		anon.Do("GET", "/api/v1/auth/me", nil, "Cookie", cookie, "Sec-Fetch-Site", "cross-site").Want(200)
	})
	t.Run("BearerNotSubjectToIt", func(t *testing.T) {
		c := &apitest.Client{}
		*c = *env.Login(name, "rahasia123")
		body["username"] = "via_token"
		c.Do("POST", "/api/v1/users", body, "Sec-Fetch-Site", "cross-site", "Origin", "wails://wails").Want(201)
	})
}

// TestPermissionCacheAcrossReplicas checks that a change made through one
// replica reaches another replica's cache through LISTEN/NOTIFY.
func TestPermissionCacheAcrossReplicas(t *testing.T) {
	t.Parallel()
	db := pgtest.New(t)
	url := dbURL(t, db)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	a := auth.New(db, auth.Options{Idle: time.Hour, MaxAge: time.Hour}, log)
	b := auth.New(db, auth.Options{Idle: time.Hour, MaxAge: time.Hour}, log)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	l := listen.New(url, log)
	go l.Run(ctx)
	go b.Listen(ctx, l)

	// Warm b's cache: 'other' has no users.view by default.
	if ok, _ := b.Can(ctx, perm.Other, perm.UsersView); ok {
		t.Fatal("other has users.view by default")
	}
	time.Sleep(200 * time.Millisecond) // let the listener subscribe
	if _, err := a.SetRolePermissions(ctx, audit.Actor{Name: "test"}, perm.Other, []perm.Name{perm.UsersView}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		ok, err := b.Can(ctx, perm.Other, perm.UsersView)
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("replica b still has the old permissions of role other")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func findCookie(h http.Header, name string) *http.Cookie {
	for _, c := range (&http.Response{Header: h}).Cookies() {
		if c.Name == name {
			return c
		}
	}
	return nil
}

func names(p []perm.Name) []string {
	out := make([]string, len(p))
	for i, n := range p {
		out[i] = string(n)
	}
	return out
}

func itoa(n int64) string { return strconvI(n) }

// Guessing the current password through the change-password form is
// throttled like a sign-in: a stolen session is no unthrottled oracle.
func TestChangePasswordThrottled(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	_, name := env.CreateUser(perm.BK)
	c := env.Login(name, "rahasia123")
	wrong := map[string]string{"current_password": "salah", "password": "barubaru", "password_confirmation": "barubaru"}
	for i := range 5 {
		if e := c.Do("PUT", "/api/v1/auth/password", wrong).Want(422).Err(); e.Error.FieldCodes["current_password"].Code != "users.current_password_wrong" {
			t.Fatalf("attempt %d: %+v", i+1, e.Error)
		}
	}
	c.Do("PUT", "/api/v1/auth/password", wrong).Want(429)
	// The right one is refused too until the window passes.
	c.Do("PUT", "/api/v1/auth/password", map[string]string{"current_password": "rahasia123", "password": "barubaru", "password_confirmation": "barubaru"}).Want(429)
}
