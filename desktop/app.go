package main

import (
	"context"
	_ "embed"
	"log/slog"
	"strings"
	"sync"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

// App is the app's life cycle and its small bound API: the page calls it as
// window.go.main.App.
type App struct {
	settings *SettingsStore
	session  *Session
	pages    *Pages
	realtime *Realtime
	files    *Files
	log      *slog.Logger
	selftest *SelfTest

	mu       sync.Mutex
	platform appPlatform
	cancel   context.CancelFunc
}

// appPlatform is the Platform plus what the app's life cycle needs.
type appPlatform interface {
	Platform
	WindowSize() (width, height int, maximised bool)
	ExecJS(js string)
	ReloadApp()
	Quit()
	startNotifications(onClick func(id, url string)) error
	stopNotifications()
}

// startup runs when the window exists: it gives the services the Wails
// context (through the platform) and starts the real-time client.
func (a *App) startup(ctx context.Context) {
	p := &wailsPlatform{ctx: ctx}
	a.mu.Lock()
	a.platform = p
	a.mu.Unlock()
	a.files.platform = p
	a.realtime.Platform = p
	a.pages.Proxy.OnSignedOut = func() { p.Emit(EventSignedOut, nil) }
	if err := p.startNotifications(a.notificationClicked); err != nil {
		a.log.Warn("desktop: OS notifications unavailable", "err", err)
	}
	rctx, cancel := context.WithCancel(ctx)
	a.cancel = cancel
	go a.realtime.Run(rctx)
}

//go:embed fetchshim.js
var fetchShim string

// domReady runs each time a page has loaded.
func (a *App) domReady(ctx context.Context) {
	p := a.current()
	p.ExecJS(fetchShim)
	if a.selftest != nil {
		a.selftest.domReady(p)
	}
}

// beforeClose remembers the window size for the next start.
func (a *App) beforeClose(ctx context.Context) bool {
	w, h, max := a.platform.WindowSize()
	if w > 0 && h > 0 && a.selftest == nil {
		if err := a.settings.Update(func(s *Settings) {
			s.Maximised = max
			if !max {
				s.WindowWidth, s.WindowHeight = w, h
			}
		}); err != nil {
			a.log.Warn("desktop: remember window size", "err", err)
		}
	}
	return false
}

func (a *App) shutdown(ctx context.Context) {
	if a.cancel != nil {
		a.cancel()
	}
	a.platform.stopNotifications()
}

// notificationClicked brings the window forward, tells the page which popup
// was clicked and opens the page the popup is about.
func (a *App) notificationClicked(id, url string) {
	a.platform.ShowWindow()
	a.platform.Emit(EventNotificationClick, id)
	if url = strings.TrimSpace(url); url != "" {
		a.platform.Emit(EventNavigate, url)
	}
}

// Notify raises an OS popup for the page (for instance "import finished");
// a click on it comes back as a "tatib:notification-click" event with n.ID.
func (a *App) Notify(n Notification) error {
	p := a.current()
	if p == nil {
		return nil
	}
	return p.Notify(n)
}

// current returns the platform once the window exists (nil before).
func (a *App) current() appPlatform {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.platform
}

// secondInstance answers a second start of the app: the first one comes
// forward instead.
func (a *App) secondInstance() {
	if p := a.current(); p != nil {
		p.ShowWindow()
	}
}

// The menu's actions. The server-address page is the app's own, so it is
// reachable whatever state the front end or the server is in.
func (a *App) openSetup() { a.exec(`location.assign("` + setupPath + `")`) }
func (a *App) reload()    { a.exec(`location.reload()`) }
func (a *App) quit() {
	if p := a.current(); p != nil {
		p.Quit()
	}
}

func (a *App) exec(js string) {
	if p := a.current(); p != nil {
		p.ExecJS(js)
	}
}

// Info is what the page may want to know about the desktop app.
type Info struct {
	Version   string         `json:"version"`
	ServerURL string         `json:"serverUrl"`
	SignedIn  bool           `json:"signedIn"`
	Realtime  RealtimeStatus `json:"realtime"`
	SetupPath string         `json:"setupPath"`
}

// Info describes the app and its connection.
func (a *App) Info() Info {
	return Info{Version: version, ServerURL: a.settings.ServerURL(), SignedIn: a.session.Token() != "",
		Realtime: a.realtime.Status(), SetupPath: setupPath}
}

// SignOut forgets the session token (the page also calls the server's
// logout, which the proxy sees; this is for when the server is gone).
func (a *App) SignOut() error { return a.session.SignOut() }

// SelfTestReport receives the page's half of the self-test (see selftest.go).
func (a *App) SelfTestReport(r PageReport) {
	if a.selftest != nil {
		go a.selftest.finish(a.platform, r)
	}
}
