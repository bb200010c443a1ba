package main

import (
	"bytes"
	_ "embed"
	"io/fs"
	"testing/fstest"
	"time"
)

// placeholderHTML stands in for the front end when the binary was built
// without it (plain `go build` before `make frontend`): Wails refuses to
// start without an index.html.
//
//go:embed placeholder.html
var placeholderHTML []byte

// frontendAssets returns the embedded front end, or the placeholder page
// when there is none; built reports which.
func frontendAssets(dist fs.FS) (assets fs.FS, built bool) {
	if _, err := fs.Stat(dist, "index.html"); err == nil {
		return dist, true
	}
	return fstest.MapFS{"index.html": {Data: bytes.Clone(placeholderHTML), ModTime: time.Now()}}, false
}
