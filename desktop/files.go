package main

import (
	"encoding/base64"
	"errors"
	"fmt"
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
		return "", fmt.Errorf("Berkas tidak valid: %w", err)
	}
	name := filepath.Base(strings.TrimSpace(suggestedName))
	if name == "." || name == "/" || name == "" {
		name = "tatib"
	}
	path, err := f.platform.SaveDialog(SaveDialog{Title: "Simpan berkas", DefaultDirectory: f.folder(),
		DefaultFilename: name, Filters: filtersFor(name)})
	if err != nil || path == "" {
		return "", err
	}
	// GTK's dialog does not add the extension the filter implies.
	if ext := filepath.Ext(name); ext != "" && filepath.Ext(path) == "" {
		path += ext
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return "", fmt.Errorf("Berkas tidak dapat disimpan: %w", err)
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
	path, err := f.platform.OpenDialog(OpenDialog{Title: "Pilih berkas", DefaultDirectory: f.folder(), Filters: filters})
	if err != nil || path == "" {
		return nil, err
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("Berkas tidak dapat dibaca: %w", err)
	}
	if st.Size() > maxOpenBytes {
		return nil, errors.New("Berkas terlalu besar (maksimal 50 MB).")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("Berkas tidak dapat dibaca: %w", err)
	}
	f.remember(path)
	return &PickedFile{Name: filepath.Base(path), Size: int64(len(data)), Data: base64.StdEncoding.EncodeToString(data)}, nil
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
