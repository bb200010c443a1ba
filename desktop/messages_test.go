package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

var placeholder = regexp.MustCompile(`\{[a-z_]+\}`)

func TestMessages(t *testing.T) {
	t.Run("OK_EveryKeyInBothLanguagesWithTheSamePlaceholders", func(t *testing.T) {
		for key, m := range messages {
			if strings.TrimSpace(m.id) == "" || strings.TrimSpace(m.en) == "" {
				t.Errorf("%s: id %q en %q", key, m.id, m.en)
				continue
			}
			pid, pen := placeholder.FindAllString(m.id, -1), placeholder.FindAllString(m.en, -1)
			slices.Sort(pid)
			slices.Sort(pen)
			if !slices.Equal(pid, pen) {
				t.Errorf("%s: placeholders id %v en %v", key, pid, pen)
			}
		}
	})

	// A key used in the code but missing from the table would show the key
	// itself to a person.
	t.Run("OK_EveryKeyUsedIsInTheTable", func(t *testing.T) {
		used := regexp.MustCompile(`"(desktop\.[a-z_.]+)"`)
		files, _ := filepath.Glob("*.go")
		seen := map[string]bool{}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range used.FindAllStringSubmatch(string(b), -1) {
				if m[1] == "desktop.json" { // the settings file's name
					continue
				}
				seen[m[1]] = true
				if _, ok := messages[m[1]]; !ok {
					t.Errorf("%s uses %q, which is not in messages", f, m[1])
				}
			}
		}
		for key := range messages {
			if !seen[key] {
				t.Errorf("%s is in messages but no code uses it", key)
			}
		}
	})

	t.Run("OK_Render", func(t *testing.T) {
		if got := T(LangEN, "desktop.file_too_large", "max", 50); got != "The file is too large (at most 50 MB)." {
			t.Errorf("en: %q", got)
		}
		if got := T(LangID, "desktop.server_not_tatib", "url", "http://x"); got != "Alamat http://x menjawab, tetapi bukan server Tatib." {
			t.Errorf("id: %q", got)
		}
		if got := T(LangEN, "desktop.no_such_key"); got != "desktop.no_such_key" {
			t.Errorf("unknown key: %q", got)
		}
	})
}

func TestParseLang(t *testing.T) {
	for header, want := range map[string]Lang{
		"":                        LangID,
		"en":                      LangEN,
		"id":                      LangID,
		"en-US,en;q=0.9":          LangEN,
		"id-ID,id;q=0.9,en;q=0.8": LangID,
		"in":                      LangID,
		"de-DE,en;q=0.5":          LangEN,
		"de-DE":                   LangID,
		"en_US":                   LangEN,
	} {
		if got := ParseLang(header); got != want {
			t.Errorf("ParseLang(%q) = %q, want %q", header, got, want)
		}
	}
}

func TestSystemLang(t *testing.T) {
	for _, c := range []struct {
		lcAll, lang string
		want        Lang
	}{
		{"", "en_GB.UTF-8", LangEN},
		{"", "id_ID.UTF-8", LangID},
		{"", "C.UTF-8", LangID},
		{"en_US.UTF-8", "id_ID.UTF-8", LangEN}, // LC_ALL wins
		{"", "", LangID},
	} {
		t.Setenv("LC_ALL", c.lcAll)
		t.Setenv("LC_MESSAGES", "")
		t.Setenv("LANG", c.lang)
		if got := systemLang(); got != c.want {
			t.Errorf("LC_ALL=%q LANG=%q: %q, want %q", c.lcAll, c.lang, got, c.want)
		}
	}
}

func TestSettingsLang(t *testing.T) {
	t.Setenv("LC_ALL", "")
	t.Setenv("LC_MESSAGES", "")
	t.Setenv("LANG", "en_US.UTF-8")
	settings, _, _ := newState(t, "")
	if settings.Lang() != LangEN {
		t.Fatalf("before the UI spoke: %q, want the OS session's", settings.Lang())
	}
	if err := settings.NoteLang(LangID); err != nil {
		t.Fatal(err)
	}
	again, _ := OpenSettings(filepath.Dir(settings.path))
	if again.Lang() != LangID {
		t.Fatalf("after a restart: %q, want the UI language remembered", again.Lang())
	}
}
