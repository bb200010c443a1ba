package client_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/client"
)

func fakeServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/api/v1/auth/login":
			var in api.LoginRequest
			_ = json.NewDecoder(r.Body).Decode(&in)
			if in.Password != "benar" {
				w.WriteHeader(http.StatusUnauthorized)
				_ = json.NewEncoder(w).Encode(api.ErrorBody{Error: api.ErrorDetail{Code: api.CodeUnauthorized, Message: "Nama pengguna atau kata sandi salah."}})
				return
			}
			_ = json.NewEncoder(w).Encode(api.LoginResponse{User: api.User{Username: in.Username}, Token: "tok"})
		case "/api/v1/auth/me":
			if r.Header.Get("Authorization") != "Bearer tok" {
				w.WriteHeader(http.StatusUnauthorized)
				_ = json.NewEncoder(w).Encode(api.ErrorBody{Error: api.ErrorDetail{Code: api.CodeUnauthorized, Message: "Silakan masuk terlebih dahulu."}})
				return
			}
			_ = json.NewEncoder(w).Encode(api.Me{User: api.User{Username: "bk1"}})
		case "/api/v1/auth/logout":
			w.WriteHeader(http.StatusNoContent)
		default:
			w.WriteHeader(http.StatusNotFound)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestClient(t *testing.T) {
	ctx := context.Background()
	t.Run("OK", func(t *testing.T) {
		c := client.New(fakeServer(t).URL + "/")
		if _, err := c.Login(ctx, "bk1", "benar"); err != nil {
			t.Fatal(err)
		}
		me, err := c.Me(ctx)
		if err != nil || me.User.Username != "bk1" {
			t.Fatalf("%+v %v", me, err)
		}
		if err := c.Logout(ctx); err != nil || c.Token != "" {
			t.Fatalf("logout: %v, token %q", err, c.Token)
		}
	})
	t.Run("ErrUnauthorized", func(t *testing.T) {
		c := client.New(fakeServer(t).URL)
		_, err := c.Login(ctx, "bk1", "salah")
		if !client.IsUnauthorized(err) || client.Code(err) != api.CodeUnauthorized || !client.Answered(err) {
			t.Fatalf("err %v", err)
		}
		if _, err := c.Me(ctx); !client.IsUnauthorized(err) {
			t.Fatalf("me without token: %v", err)
		}
	})
	t.Run("ErrNotJSON", func(t *testing.T) {
		c := client.New(fakeServer(t).URL)
		err := c.Do(ctx, http.MethodGet, "/nowhere", nil, nil)
		if client.Code(err) != "http_404" || client.Answered(err) {
			t.Fatalf("err %v", err)
		}
	})
}
