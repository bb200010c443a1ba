package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// Settings are what the app remembers per user: the server and the window.
type Settings struct {
	ServerURL    string `json:"server_url"`
	WindowWidth  int    `json:"window_width,omitempty"`
	WindowHeight int    `json:"window_height,omitempty"`
	Maximised    bool   `json:"maximised,omitempty"`
	LastFolder   string `json:"last_folder,omitempty"` // where the file dialogs open
	// Language is the UI language the front end last sent ("id" or "en"):
	// menus, dialog titles and popups follow it, also at the next start.
	Language Lang `json:"language,omitempty"`
}

// SettingsStore keeps Settings in <config dir>/tatib/desktop.json.
type SettingsStore struct {
	path string
	mu   sync.Mutex
	s    Settings
}

// ConfigDir is the per-user folder of the app: os.UserConfigDir()/tatib.
func ConfigDir() (string, error) {
	base, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("desktop: config dir: %w", err)
	}
	return filepath.Join(base, "tatib"), nil
}

// OpenSettings reads the settings in dir; a missing file is empty settings.
func OpenSettings(dir string) (*SettingsStore, error) {
	st := &SettingsStore{path: filepath.Join(dir, "desktop.json")}
	b, err := os.ReadFile(st.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return st, nil
	case err != nil:
		return nil, fmt.Errorf("desktop: read settings: %w", err)
	}
	if err := json.Unmarshal(b, &st.s); err != nil {
		// A damaged file must not lock the user out: start over.
		st.s = Settings{}
	}
	return st, nil
}

// Get returns a copy of the settings.
func (st *SettingsStore) Get() Settings {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.s
}

// ServerURL returns the configured server ("" before the first start).
func (st *SettingsStore) ServerURL() string { return st.Get().ServerURL }

// Lang is the language of texts not tied to a request (menus, dialog
// titles, popups): the UI language last seen, else the OS session's.
func (st *SettingsStore) Lang() Lang {
	switch l := st.Get().Language; l {
	case LangID, LangEN:
		return l
	}
	return systemLang()
}

// NoteLang remembers l as the UI language; the file is written only when
// it changes, not on every request.
func (st *SettingsStore) NoteLang(l Lang) error {
	if st.Get().Language == l {
		return nil
	}
	return st.Update(func(s *Settings) { s.Language = l })
}

// Update changes the settings with fn and writes them.
func (st *SettingsStore) Update(fn func(*Settings)) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	next := st.s
	fn(&next)
	b, err := json.MarshalIndent(next, "", "  ")
	if err != nil {
		return err
	}
	if err := writePrivate(st.path, b); err != nil {
		return fmt.Errorf("desktop: write settings: %w", err)
	}
	st.s = next
	return nil
}

// writePrivate writes b to path readable by the user only, replacing the
// file atomically so a crash never leaves half a file.
func writePrivate(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// NormalizeServerURL checks a server address typed by a person and returns
// it as scheme://host[:port][/path] without a trailing slash. A bare host
// gets http://.
func NormalizeServerURL(raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return "", newTextError("desktop.server_url_required")
	}
	if !strings.Contains(raw, "://") {
		raw = "http://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return "", newTextError("desktop.server_url_invalid")
	}
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawQuery, u.Fragment, u.User = "", "", nil
	return u.String(), nil
}
