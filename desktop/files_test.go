package main

import (
	"encoding/base64"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFiles(t *testing.T) {
	t.Run("OK_SaveWritesWhereTheUserChose", func(t *testing.T) {
		dir := t.TempDir()
		fp := &fakePlatform{savePath: filepath.Join(dir, "templat")}
		f := &Files{platform: fp}
		path, err := f.SaveFile("templat-jenis-pelanggaran.xlsx", base64.StdEncoding.EncodeToString([]byte("PK\x03\x04")))
		if err != nil {
			t.Fatal(err)
		}
		if path != filepath.Join(dir, "templat.xlsx") {
			t.Fatalf("path %q: the extension must be added", path)
		}
		if b, _ := os.ReadFile(path); string(b) != "PK\x03\x04" {
			t.Fatalf("content %q", b)
		}
		if o := fp.saveAsked[0]; o.DefaultFilename != "templat-jenis-pelanggaran.xlsx" || o.Filters[0].Pattern != "*.xlsx" {
			t.Fatalf("dialog %+v", o)
		}
	})

	t.Run("OK_DialogsOpenInTheLastFolder", func(t *testing.T) {
		dir := t.TempDir()
		settings, _, _ := newState(t, "")
		fp := &fakePlatform{savePath: filepath.Join(dir, "a.pdf")}
		f := &Files{platform: fp, settings: settings}
		if _, err := f.SaveFile("a.pdf", ""); err != nil {
			t.Fatal(err)
		}
		_, _ = f.OpenFile(nil)
		if got := fp.openAsked[0].DefaultDirectory; got != dir {
			t.Fatalf("open dialog starts in %q, want %q", got, dir)
		}
	})

	t.Run("OK_DialogsInTheUILanguage", func(t *testing.T) {
		settings, _, _ := newState(t, "")
		fp := &fakePlatform{}
		f := &Files{platform: fp, settings: settings}
		for _, lang := range []Lang{LangEN, LangID} {
			_ = settings.NoteLang(lang)
			_, _ = f.SaveFile("a.pdf", "")
			_, _ = f.OpenFile(nil)
		}
		if fp.saveAsked[0].Title != "Save file" || fp.openAsked[0].Title != "Choose a file" ||
			fp.saveAsked[1].Title != "Simpan berkas" || fp.openAsked[1].Title != "Pilih berkas" {
			t.Fatalf("save %+v open %+v", fp.saveAsked, fp.openAsked)
		}
	})

	t.Run("ErrOpenTooLargeInTheUILanguage", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "big.xlsx")
		if err := os.WriteFile(path, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Truncate(path, maxOpenBytes+1); err != nil { // sparse: no 50 MB written
			t.Fatal(err)
		}
		settings, _, _ := newState(t, "")
		_ = settings.NoteLang(LangEN)
		f := &Files{platform: &fakePlatform{openPath: path}, settings: settings}
		if _, err := f.OpenFile(nil); err == nil || err.Error() != "The file is too large (at most 50 MB)." {
			t.Fatalf("err %v", err)
		}
	})

	t.Run("ErrSaveKeepsTheCause", func(t *testing.T) {
		settings, _, _ := newState(t, "")
		_ = settings.NoteLang(LangEN)
		fp := &fakePlatform{savePath: filepath.Join(t.TempDir(), "no-such-folder", "a.pdf")}
		f := &Files{platform: fp, settings: settings}
		_, err := f.SaveFile("a.pdf", "")
		if !errors.Is(err, fs.ErrNotExist) || !strings.HasPrefix(err.Error(), "The file could not be saved: ") {
			t.Fatalf("err %v", err)
		}
	})

	t.Run("OK_SaveCancelled", func(t *testing.T) {
		f := &Files{platform: &fakePlatform{}}
		if path, err := f.SaveFile("a.pdf", ""); path != "" || err != nil {
			t.Fatalf("%q %v", path, err)
		}
	})

	t.Run("ErrSaveBadBase64", func(t *testing.T) {
		f := &Files{platform: &fakePlatform{savePath: filepath.Join(t.TempDir(), "x")}}
		if _, err := f.SaveFile("a.xlsx", "%%%"); err == nil {
			t.Fatal("want an error")
		}
	})

	t.Run("OK_OpenDefaultsToXlsx", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "jenis.xlsx")
		_ = os.WriteFile(path, []byte("data"), 0o600)
		fp := &fakePlatform{openPath: path}
		got, err := (&Files{platform: fp}).OpenFile(nil)
		if err != nil {
			t.Fatal(err)
		}
		if got.Name != "jenis.xlsx" || got.Size != 4 || got.Data != base64.StdEncoding.EncodeToString([]byte("data")) {
			t.Fatalf("%+v", got)
		}
		if fp.openAsked[0].Filters[0].Pattern != "*.xlsx" {
			t.Fatalf("filters %+v", fp.openAsked[0].Filters)
		}
	})

	t.Run("OK_OpenCancelled", func(t *testing.T) {
		got, err := (&Files{platform: &fakePlatform{}}).OpenFile(nil)
		if got != nil || err != nil {
			t.Fatalf("%v %v", got, err)
		}
	})
}

func TestTokenFile(t *testing.T) {
	dir := t.TempDir()
	fs := FileTokenStore{Path: filepath.Join(dir, "tatib", "session-token")}
	if err := fs.Save("secret"); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(fs.Path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, want 0600", st.Mode().Perm())
	}
	if tok, _ := fs.Load(); tok != "secret" {
		t.Fatalf("token %q", tok)
	}
	if err := fs.Delete(); err != nil {
		t.Fatal(err)
	}
	if tok, _ := fs.Load(); tok != "" {
		t.Fatal("token survived Delete")
	}
}

func TestNormalizeServerURL(t *testing.T) {
	for in, want := range map[string]string{
		"10.0.0.5:8080":             "http://10.0.0.5:8080",
		" https://tatib.sch.id/ ":   "https://tatib.sch.id",
		"http://x.example/a/?q=1#f": "http://x.example/a",
	} {
		if got, err := NormalizeServerURL(in); got != want || err != nil {
			t.Errorf("%q → %q %v, want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "ftp://x", "http://"} {
		if _, err := NormalizeServerURL(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
