package main

import (
	"context"

	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// This is the only file that calls the Wails runtime. Any runtime call made
// with a context that did not come from Wails kills the process, so services
// talk to the Platform interface (see services.go) and tests give them a fake.

// wailsPlatform is the Platform of a running app; ctx is the one Wails hands
// to OnStartup.
type wailsPlatform struct {
	ctx context.Context
}

func (p wailsPlatform) SaveDialog(o SaveDialog) (string, error) {
	return runtime.SaveFileDialog(p.ctx, runtime.SaveDialogOptions{
		Title: o.Title, DefaultDirectory: o.DefaultDirectory, DefaultFilename: o.DefaultFilename,
		Filters: runtimeFilters(o.Filters), CanCreateDirectories: true,
	})
}

func (p wailsPlatform) OpenDialog(o OpenDialog) (string, error) {
	return runtime.OpenFileDialog(p.ctx, runtime.OpenDialogOptions{
		Title: o.Title, DefaultDirectory: o.DefaultDirectory, Filters: runtimeFilters(o.Filters),
	})
}

func (p wailsPlatform) Emit(event string, data any) {
	runtime.EventsEmit(p.ctx, event, data)
}

func (p wailsPlatform) Notify(n Notification) error {
	return runtime.SendNotification(p.ctx, runtime.NotificationOptions{
		ID: n.ID, Title: n.Title, Body: n.Body, Data: map[string]any{"url": n.URL},
	})
}

func (p wailsPlatform) ShowWindow() {
	runtime.WindowUnminimise(p.ctx)
	runtime.WindowShow(p.ctx)
}

func (p wailsPlatform) WindowSize() (width, height int, maximised bool) {
	w, h := runtime.WindowGetSize(p.ctx)
	return w, h, runtime.WindowIsMaximised(p.ctx)
}

func (p wailsPlatform) ExecJS(js string) { runtime.WindowExecJS(p.ctx, js) }

func (p wailsPlatform) ReloadApp() { runtime.WindowReloadApp(p.ctx) }

func (p wailsPlatform) Quit() { runtime.Quit(p.ctx) }

// startNotifications connects to the OS notification service and routes a
// click on a popup to onClick with the popup's ID and url.
func (p wailsPlatform) startNotifications(onClick func(id, url string)) error {
	if err := runtime.InitializeNotifications(p.ctx); err != nil {
		return err
	}
	runtime.OnNotificationResponse(p.ctx, func(r runtime.NotificationResult) {
		if r.Error != nil {
			return
		}
		url, _ := r.Response.UserInfo["url"].(string)
		onClick(r.Response.ID, url)
	})
	return nil
}

func (p wailsPlatform) stopNotifications() { runtime.CleanupNotifications(p.ctx) }

func runtimeFilters(fs []FileFilter) []runtime.FileFilter {
	out := make([]runtime.FileFilter, len(fs))
	for i, f := range fs {
		out[i] = runtime.FileFilter{DisplayName: f.DisplayName, Pattern: f.Pattern}
	}
	return out
}
