//go:build bindings

// Command main is a shim for the Wails CLI, which builds and runs the Go
// package beside wails.json to generate the front end's bindings (wails
// generate module, and the first step of wails dev). Our app lives in
// desktop/ (wails.json's "projectdir"), so this runs it from here, in
// bindings mode, where it reads wails.json and writes frontend/wailsjs.
// Ordinary builds never see this file (build tag bindings). See docs/desktop.md.
package main

import (
	"os"
	"os/exec"

	// The CLI reads the Wails version from this module's go.mod and runs
	// `go mod tidy` here; the import keeps that requirement.
	_ "github.com/wailsapp/wails/v2/pkg/options"
)

func main() {
	// The CLI compiles desktop/ (projectdir) with "-o desktop/build/bin/…"
	// relative to desktop/, but starts the result from here; this link
	// (git-ignored) makes both paths the same file.
	if _, err := os.Lstat("desktop/desktop"); os.IsNotExist(err) {
		_ = os.Symlink(".", "desktop/desktop")
	}
	cmd := exec.Command("go", append([]string{"run", "-tags", "bindings", "./desktop"}, os.Args[1:]...)...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		os.Exit(1)
	}
}
