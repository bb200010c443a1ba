package main

import (
	"encoding/base64"
	"errors"
	"os"
	"path/filepath"
	"strings"
)

// Files saves exports and picks imports through the native dialogs. The
// page calls it as window.go.main.Files.
type Files struct {
	platform Platform
	settings *SettingsStore // remembers the last folder; may be nil
}

// maxOpenBytes bounds a picked file: imports are spreadsheets, not videos.
const maxOpenBytes = 50 << 20

// PickedFile is a file the user chose, its content base64-encoded.
type PickedFile struct {
	Name string `json:"name"`
	Size int64  `json:"size"`
	Data string `json:"data"` // base64
}

// SaveFile asks where to save suggestedName and writes the base64 data
// there. It returns the path written, or "" when the user cancelled.
func (f *Files) SaveFile(suggestedName, dataBase64 string) (string, error) {
	data, err := base64.StdEncoding.DecodeString(dataBase64)
	if err != nil {
		return "", errors.New(T(f.lang(), "desktop.file_invalid"))
	}
	name := filepath.Base(strings.TrimSpace(suggestedName))
	if name == "." || name == "/" || name == "" {
		name = "tatib"
	}
	path, err := f.platform.SaveDialog(SaveDialog{Title: T(f.lang(), "desktop.dialog.save"), DefaultDirectory: f.folder(),
		DefaultFilename: name, Filters: filtersFor(name)})
	if err != nil || path == "" {
		return "", err
	}
	// GTK's dialog does not add the extension the filter implies.
	if ext := filepath.Ext(name); ext != "" && filepath.Ext(path) == "" {
		path += ext
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return "", f.fail("desktop.file_not_saved", err)
	}
	f.remember(path)
	return path, nil
}

// OpenFile asks for a file matching filters (Excel workbooks when none are
// given) and returns it; nil when the user cancelled.
func (f *Files) OpenFile(filters []FileFilter) (*PickedFile, error) {
	if len(filters) == 0 {
		filters = []FileFilter{xlsxFilter}
	}
	path, err := f.platform.OpenDialog(OpenDialog{Title: T(f.lang(), "desktop.dialog.open"), DefaultDirectory: f.folder(), Filters: filters})
	if err != nil || path == "" {
		return nil, err
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, f.fail("desktop.file_not_read", err)
	}
	if st.Size() > maxOpenBytes {
		return nil, errors.New(T(f.lang(), "desktop.file_too_large", "max", maxOpenBytes>>20))
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, f.fail("desktop.file_not_read", err)
	}
	f.remember(path)
	return &PickedFile{Name: filepath.Base(path), Size: int64(len(data)), Data: base64.StdEncoding.EncodeToString(data)}, nil
}

// lang is the language of the dialogs and of the errors the page shows:
// the UI language last seen.
func (f *Files) lang() Lang {
	if f.settings == nil {
		return systemLang()
	}
	return f.settings.Lang()
}

// fail renders key in the UI language with err as its {error}, keeping err
// for errors.Is.
func (f *Files) fail(key string, err error) error {
	return &causedError{msg: T(f.lang(), key, "error", err.Error()), cause: err}
}

var xlsxFilter = FileFilter{DisplayName: "Excel (*.xlsx)", Pattern: "*.xlsx"}

func filtersFor(name string) []FileFilter {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".xlsx":
		return []FileFilter{xlsxFilter}
	case ".pdf":
		return []FileFilter{{DisplayName: "PDF (*.pdf)", Pattern: "*.pdf"}}
	case ".csv":
		return []FileFilter{{DisplayName: "CSV (*.csv)", Pattern: "*.csv"}}
	}
	return nil
}

// folder is where a dialog opens: the last folder used, else Downloads,
// else the home folder (not the app's working directory).
func (f *Files) folder() string {
	if f.settings != nil {
		if d := f.settings.Get().LastFolder; d != "" && isDir(d) {
			return d
		}
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	for _, d := range []string{filepath.Join(home, "Downloads"), filepath.Join(home, "Unduhan"), home} {
		if isDir(d) {
			return d
		}
	}
	return ""
}

func (f *Files) remember(path string) {
	if f.settings != nil {
		_ = f.settings.Update(func(s *Settings) { s.LastFolder = filepath.Dir(path) })
	}
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}
