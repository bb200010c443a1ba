// Package client is a small Go client of Tatib's JSON API for the desktop
// app and tools: sign in, then every request carries the bearer token.
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/tatib/tatib/shared/api"
)

// Client talks to one Tatib server. Token is sent as "Authorization:
// Bearer"; Login sets it.
type Client struct {
	BaseURL string // e.g. http://127.0.0.1:8080, without /api/v1
	Token   string
	HTTP    *http.Client
}

// New returns a client of the server at baseURL.
func New(baseURL string) *Client {
	return &Client{BaseURL: strings.TrimRight(baseURL, "/"), HTTP: &http.Client{Timeout: 2 * time.Minute}}
}

// Error is an API error answer: the status and the server's error body.
type Error struct {
	Status int
	// Body says the answer carried Tatib's error body (a code and a
	// message); without it the code is "http_<status>".
	Body bool
	api.ErrorDetail
}

func (e *Error) Error() string {
	return fmt.Sprintf("tatib: %d %s: %s", e.Status, e.Code, e.Message)
}

// Code returns the API error code of err ("" when err is not an API error).
func Code(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// IsUnauthorized reports whether err means the caller is signed out.
func IsUnauthorized(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Status == http.StatusUnauthorized
}

// Answered reports whether err is an error answer in Tatib's own shape,
// which tells a Tatib server from any other that answers HTTP.
func Answered(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Body
}

// Login signs in and keeps the token for the following requests.
func (c *Client) Login(ctx context.Context, username, password string) (api.LoginResponse, error) {
	var out api.LoginResponse
	err := c.Do(ctx, http.MethodPost, "/api/v1/auth/login", api.LoginRequest{Username: username, Password: password}, &out)
	if err != nil {
		return out, err
	}
	c.Token = out.Token
	return out, nil
}

// Me returns the signed-in user and their permissions.
func (c *Client) Me(ctx context.Context) (api.Me, error) {
	var out api.Me
	err := c.Do(ctx, http.MethodGet, "/api/v1/auth/me", nil, &out)
	return out, err
}

// Logout ends the session and forgets the token.
func (c *Client) Logout(ctx context.Context) error {
	err := c.Do(ctx, http.MethodPost, "/api/v1/auth/logout", nil, nil)
	c.Token = ""
	return err
}

// Do sends in as JSON (when not nil) to path (e.g. "/api/v1/users?page=2")
// and decodes a 2xx answer into out (when not nil). Any other answer is an
// *Error.
func (c *Client) Do(ctx context.Context, method, path string, in, out any) error {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return fmt.Errorf("tatib: encode %s %s: %w", method, path, err)
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.BaseURL+path, body)
	if err != nil {
		return fmt.Errorf("tatib: %s %s: %w", method, path, err)
	}
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	if c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	res, err := hc.Do(req)
	if err != nil {
		return fmt.Errorf("tatib: %s %s: %w", method, path, err)
	}
	defer res.Body.Close()
	if res.StatusCode >= 300 {
		e := &Error{Status: res.StatusCode}
		var eb api.ErrorBody
		if json.NewDecoder(io.LimitReader(res.Body, 1<<20)).Decode(&eb) == nil && eb.Error.Code != "" {
			e.ErrorDetail, e.Body = eb.Error, true
		} else {
			e.Code, e.Message = "http_"+fmt.Sprint(res.StatusCode), http.StatusText(res.StatusCode)
		}
		return e
	}
	if out == nil || res.StatusCode == http.StatusNoContent {
		_, _ = io.Copy(io.Discard, res.Body)
		return nil
	}
	if err := json.NewDecoder(res.Body).Decode(out); err != nil {
		return fmt.Errorf("tatib: decode %s %s: %w", method, path, err)
	}
	return nil
}
