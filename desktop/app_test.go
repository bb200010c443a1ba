package main

import (
	"context"
	"path/filepath"
	"testing"
)

func TestNotificationClick(t *testing.T) {
	fp := &fakeAppPlatform{}
	a := &App{platform: fp}
	a.notificationClicked("n1", "/pelanggaran/7")
	if fp.shown != 1 {
		t.Fatalf("window shown %d times", fp.shown)
	}
	if fp.eventCount(EventNotificationClick) != 1 || fp.eventCount(EventNavigate) != 1 {
		t.Fatalf("events %v", fp.events)
	}
}

func TestRememberWindowSize(t *testing.T) {
	settings, _, _ := newState(t, "")
	a := &App{platform: &fakeAppPlatform{}, settings: settings, log: quietLog}
	a.beforeClose(context.Background())
	if s := settings.Get(); s.WindowWidth != 1280 || s.WindowHeight != 800 {
		t.Fatalf("%+v", s)
	}
	again, _ := OpenSettings(filepath.Dir(settings.path))
	if again.Get().WindowWidth != 1280 {
		t.Fatal("size not written to disk")
	}
}
