package main

import (
	"io"
	"log/slog"
	"sync"
	"testing"
)

// fakePlatform records what the services asked of the desktop.
type fakePlatform struct {
	mu        sync.Mutex
	savePath  string
	openPath  string
	saveAsked []SaveDialog
	openAsked []OpenDialog
	events    []string
	notified  []Notification
	shown     int
}

func (f *fakePlatform) SaveDialog(o SaveDialog) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.saveAsked = append(f.saveAsked, o)
	return f.savePath, nil
}

func (f *fakePlatform) OpenDialog(o OpenDialog) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.openAsked = append(f.openAsked, o)
	return f.openPath, nil
}

func (f *fakePlatform) Emit(event string, data any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.events = append(f.events, event)
}

func (f *fakePlatform) Notify(n Notification) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.notified = append(f.notified, n)
	return nil
}

func (f *fakePlatform) ShowWindow() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.shown++
}

func (f *fakePlatform) notifications() []Notification {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Notification(nil), f.notified...)
}

func (f *fakePlatform) eventCount(name string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, e := range f.events {
		if e == name {
			n++
		}
	}
	return n
}

var quietLog = slog.New(slog.NewTextHandler(io.Discard, nil))

// memTokens is a TokenStore in memory.
type memTokens struct {
	mu  sync.Mutex
	tok string
}

func (m *memTokens) Load() (string, error) { m.mu.Lock(); defer m.mu.Unlock(); return m.tok, nil }
func (m *memTokens) Save(t string) error   { m.mu.Lock(); defer m.mu.Unlock(); m.tok = t; return nil }
func (m *memTokens) Delete() error         { m.mu.Lock(); defer m.mu.Unlock(); m.tok = ""; return nil }

// newState returns settings pointing at serverURL and an empty session.
func newState(t *testing.T, serverURL string) (*SettingsStore, *Session, *memTokens) {
	t.Helper()
	st, err := OpenSettings(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if serverURL != "" {
		if err := st.Update(func(s *Settings) { s.ServerURL = serverURL }); err != nil {
			t.Fatal(err)
		}
	}
	mem := &memTokens{}
	sess, err := NewSession(mem)
	if err != nil {
		t.Fatal(err)
	}
	return st, sess, mem
}

// fakeAppPlatform adds the window to fakePlatform.
type fakeAppPlatform struct{ fakePlatform }

func (*fakeAppPlatform) WindowSize() (int, int, bool)                  { return 1280, 800, false }
func (*fakeAppPlatform) ExecJS(string)                                 {}
func (*fakeAppPlatform) ReloadApp()                                    {}
func (*fakeAppPlatform) Quit()                                         {}
func (*fakeAppPlatform) startNotifications(func(id, url string)) error { return nil }
func (*fakeAppPlatform) stopNotifications()                            {}
