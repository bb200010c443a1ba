// Command tatib-desktop is Tatib's desktop app for counselors and admins: the
// same front end as the browser, in a window, talking to the school's Tatib
// server through a bearer-token proxy, with native file dialogs and OS
// notifications.
package main

import (
	"embed"
	"fmt"
	"io/fs"
	"log/slog"
	"os"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/menu"
	"github.com/wailsapp/wails/v2/pkg/menu/keys"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"
)

// The Makefile copies frontend/dist here; a placeholder keeps go:embed
// compiling without a front-end build.
//
//go:embed all:frontend-dist
var frontendDist embed.FS

//go:embed build/appicon.png
var icon []byte

func main() { os.Exit(run()) }

func run() int {
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	fail := func(err error) int {
		fmt.Fprintln(os.Stderr, "tatib-desktop:", err)
		return 1
	}
	dir, err := ConfigDir()
	if err != nil {
		return fail(err)
	}
	settings, err := OpenSettings(dir)
	if err != nil {
		return fail(err)
	}
	session, err := NewSession(NewTokenStore(dir))
	if err != nil {
		return fail(err)
	}
	dist, err := fs.Sub(frontendDist, "frontend-dist")
	if err != nil {
		return fail(err)
	}
	assets, built := frontendAssets(dist)
	if !built {
		log.Warn("desktop: built without the front end; showing a placeholder (run make desktop)")
	}
	proxy := NewAPIProxy(settings, session, log)
	pages := &Pages{Proxy: proxy, Settings: settings, Session: session, Assets: assets, SPA: built}
	// A server given in the environment wins (CI, managed installs).
	if raw := os.Getenv("TATIB_DESKTOP_SERVER_URL"); raw != "" {
		u, err := NormalizeServerURL(raw)
		if err != nil {
			return fail(err)
		}
		if err := pages.SetServer(u); err != nil {
			return fail(err)
		}
	}
	files := &Files{settings: settings}
	app := &App{settings: settings, session: session, pages: pages, files: files, log: log,
		realtime: &Realtime{Settings: settings, Session: session, Log: log, Backoff: DefaultBackoff}}
	uniqueID := "id.sch.tatib.desktop"
	if os.Getenv("TATIB_DESKTOP_SELFTEST") == "1" {
		app.selftest = newSelfTest(app)
		uniqueID += ".selftest"
	}

	s := settings.Get()
	width, height := s.WindowWidth, s.WindowHeight
	if width < 800 || height < 500 {
		width, height = 1280, 800
	}
	state := options.Normal
	if s.Maximised {
		state = options.Maximised
	}
	// The menu is built once, in the UI language of the last run (else the
	// OS session's); a language change shows in it at the next start.
	lang := settings.Lang()
	appMenu := menu.NewMenu()
	m := appMenu.AddSubmenu("Tatib")
	m.AddText(T(lang, "desktop.menu.set_server"), nil, func(*menu.CallbackData) { app.openSetup() })
	m.AddText(T(lang, "desktop.menu.reload"), keys.CmdOrCtrl("r"), func(*menu.CallbackData) { app.reload() })
	m.AddSeparator()
	m.AddText(T(lang, "desktop.menu.quit"), keys.CmdOrCtrl("q"), func(*menu.CallbackData) { app.quit() })

	err = wails.Run(&options.App{
		Menu:             appMenu,
		Title:            "Tatib",
		Width:            width,
		Height:           height,
		MinWidth:         960,
		MinHeight:        600,
		WindowStartState: state,
		BackgroundColour: options.NewRGB(255, 255, 255),
		AssetServer:      &assetserver.Options{Assets: assets, Middleware: pages.Middleware},
		OnStartup:        app.startup,
		OnDomReady:       app.domReady,
		OnBeforeClose:    app.beforeClose,
		OnShutdown:       app.shutdown,
		Bind:             []any{app, files},
		SingleInstanceLock: &options.SingleInstanceLock{
			UniqueId:               uniqueID,
			OnSecondInstanceLaunch: func(options.SecondInstanceData) { app.secondInstance() },
		},
		Linux: &linux.Options{Icon: icon, ProgramName: "tatib"},
	})
	if err != nil {
		return fail(err)
	}
	if app.selftest != nil && !app.selftest.pass {
		return 1
	}
	return 0
}
