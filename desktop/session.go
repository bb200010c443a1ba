package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/zalando/go-keyring"
)

// TokenStore keeps the session token across restarts.
type TokenStore interface {
	Load() (string, error) // "" when there is none
	Save(token string) error
	Delete() error
}

// FileTokenStore keeps the token in a file readable by the user only.
type FileTokenStore struct{ Path string }

// Load reads the token.
func (f FileTokenStore) Load() (string, error) {
	b, err := os.ReadFile(f.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	return strings.TrimSpace(string(b)), err
}

// Save writes the token with mode 0600.
func (f FileTokenStore) Save(token string) error { return writePrivate(f.Path, []byte(token)) }

// Delete removes the token file.
func (f FileTokenStore) Delete() error {
	if err := os.Remove(f.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// KeyringTokenStore keeps the token in the OS keyring (Secret Service,
// Keychain, Credential Manager) and falls back to a file when there is no
// keyring, as on a bare desktop or in CI.
type KeyringTokenStore struct {
	Service, User string
	Fallback      FileTokenStore
	Timeout       time.Duration // a locked keyring may wait for a person; past this we use the file
}

const keyringService = "tatib-desktop"

func (k KeyringTokenStore) call(fn func() error) error {
	done := make(chan error, 1)
	go func() { done <- fn() }()
	select {
	case err := <-done:
		return err
	case <-time.After(k.Timeout):
		return errors.New("keyring: no answer")
	}
}

// Load reads the keyring, then the file.
func (k KeyringTokenStore) Load() (string, error) {
	var tok string
	err := k.call(func() (err error) { tok, err = keyring.Get(k.Service, k.User); return })
	if err == nil && tok != "" {
		return tok, nil
	}
	return k.Fallback.Load()
}

// Save writes to the keyring and removes any file copy; without a keyring
// it writes the file.
func (k KeyringTokenStore) Save(token string) error {
	if err := k.call(func() error { return keyring.Set(k.Service, k.User, token) }); err == nil {
		return k.Fallback.Delete()
	}
	return k.Fallback.Save(token)
}

// Delete forgets the token in both places.
func (k KeyringTokenStore) Delete() error {
	// Without a keyring (or with nothing in it) there is nothing to forget there.
	_ = k.call(func() error { return keyring.Delete(k.Service, k.User) })
	return k.Fallback.Delete()
}

// NewTokenStore returns the store for the user's config dir.
func NewTokenStore(dir string) TokenStore {
	return KeyringTokenStore{Service: keyringService, User: "session",
		Fallback: FileTokenStore{Path: filepath.Join(dir, "session-token")}, Timeout: 3 * time.Second}
}

// Session is the signed-in state shared by the API proxy and the real-time
// client: the token in memory, persisted through a TokenStore, with a signal
// for those who wait for a change.
type Session struct {
	store   TokenStore
	mu      sync.Mutex
	token   string
	changed chan struct{}
}

// NewSession loads the saved token.
func NewSession(store TokenStore) (*Session, error) {
	tok, err := store.Load()
	if err != nil {
		return nil, fmt.Errorf("desktop: load session: %w", err)
	}
	return &Session{store: store, token: tok, changed: make(chan struct{})}, nil
}

// Token returns the current token ("" when signed out).
func (s *Session) Token() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.token
}

// Changed returns a channel closed at the next sign-in or sign-out.
func (s *Session) Changed() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.changed
}

// SignIn keeps a new token.
func (s *Session) SignIn(token string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.token = token
	s.notify()
	return s.store.Save(token)
}

// SignOut forgets the token.
func (s *Session) SignOut() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.forget()
}

// Expire forgets the token if it is still the one a refused request used,
// so that a late 401 from an old session, or from a request sent before
// signing in (used == ""), does not sign out a newer one.
func (s *Session) Expire(used string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if used == "" || used != s.token {
		return nil
	}
	return s.forget()
}

func (s *Session) forget() error {
	if s.token == "" {
		return nil
	}
	s.token = ""
	s.notify()
	return s.store.Delete()
}

func (s *Session) notify() {
	close(s.changed)
	s.changed = make(chan struct{})
}
