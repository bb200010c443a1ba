package locale

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

var placeholder = regexp.MustCompile(`\{[a-z_]+\}`)

// Every key exists in every language, with the same placeholders, and no
// text is empty.
func TestCatalogueComplete(t *testing.T) {
	for _, key := range Keys(ID) {
		want := placeholder.FindAllString(catalog[ID][key], -1)
		slices.Sort(want)
		for _, l := range Languages {
			text, ok := catalog[l][key]
			if !ok || text == "" {
				t.Errorf("%s: missing in %s", key, l)
				continue
			}
			got := placeholder.FindAllString(text, -1)
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Errorf("%s: placeholders %v in %s, %v in id", key, got, l, want)
			}
		}
	}
	for _, l := range Languages {
		for _, key := range Keys(l) {
			if _, ok := catalog[ID][key]; !ok {
				t.Errorf("%s: in %s but not in id", key, l)
			}
		}
	}
}

func TestLoadRefusesDuplicates(t *testing.T) {
	fsys := fstest.MapFS{
		"messages/a.id.json": {Data: []byte(`{"x.y":"satu"}`)},
		"messages/b.id.json": {Data: []byte(`{"x.y":"dua"}`)},
	}
	if _, _, err := load(fsys); err == nil {
		t.Fatal("duplicate key accepted")
	}
}

func TestRender(t *testing.T) {
	for _, tc := range []struct {
		name string
		lang Lang
		key  string
		p    map[string]any
		want string
	}{
		{"Indonesian number", ID, "request.too_large", map[string]any{"limit": 1048576}, "Isi permintaan melebihi batas 1.048.576 byte."},
		{"English number", EN, "request.too_large", map[string]any{"limit": 1048576}, "The request body is over the limit of 1,048,576 bytes."},
		{"nested key", EN, "db.not_found", map[string]any{"what": Key("entity.student")}, "Student not found."},
		{"texts", EN, "db.exists", map[string]any{"what": Texts{ID: "Kelas", EN: "Class"}}, "Class already exists."},
		{"unknown key as is", EN, "Sesuatu terjadi.", nil, "Sesuatu terjadi."},
		{"missing param kept", ID, "db.exists", nil, "{what} sudah ada."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Render(tc.lang, tc.key, tc.p); got != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestParse(t *testing.T) {
	for in, want := range map[string]Lang{
		"":                         ID,
		"en":                       EN,
		"en-US,en;q=0.9":           EN,
		"id-ID,id;q=0.9,en;q=0.8":  ID,
		"fr,en;q=0.5":              EN,
		"fr":                       ID,
		"id;q=0.2,en;q=0.9":        EN,
		"\xff\xfe;q=abc, en;q=0.1": EN,
	} {
		if got := Parse(in); got != want {
			t.Errorf("Parse(%q) = %s, want %s", in, got, want)
		}
	}
}

// Plurals: English says "1 minute" and "5 minutes"; Indonesian, whose nouns
// do not change, is one string. Where an English message puts a count right
// before a countable noun, it has both forms.
func TestPlurals(t *testing.T) {
	if got := Render(EN, "auth.throttled", map[string]any{"minutes": 1}); !strings.Contains(got, "1 minute.") {
		t.Errorf("one: %q", got)
	}
	if got := Render(EN, "auth.throttled", map[string]any{"minutes": 15}); !strings.Contains(got, "15 minutes.") {
		t.Errorf("other: %q", got)
	}
	if got := Render(ID, "auth.throttled", map[string]any{"minutes": 1}); !strings.Contains(got, "1 menit") {
		t.Errorf("id: %q", got)
	}
	countable := regexp.MustCompile(`\{([a-z_]+)\} (minute|second|point|entr|cell|day|hour|record|student|violation|letter|message|photo|row|push|attempt|problem|kiosk|user|guardian|case|achievement)[a-z]*\b`)
	for _, key := range Keys(EN) {
		for _, m := range countable.FindAllStringSubmatch(catalog[EN][key], -1) {
			switch {
			case m[1] == "max" || m[1] == "min" || m[1] == "limit" || strings.HasPrefix(m[1], "max_"):
				continue // a limit is never 1 in practice, and "at most" reads as plural
			case m[1] == "date" || m[1] == "level" || m[1] == "host" || m[1] == "name":
				continue // not a count ("{date} hour 3", "the {level} letter")
			}
			if p, ok := plurals[EN][key]; !ok || p.By != m[1] {
				t.Errorf(`%s: "{%s} %s…" in English needs {"by": %q, "one", "other"}`, key, m[1], m[2], m[1])
			}
		}
	}
	for key, p := range plurals[EN] {
		if !strings.Contains(p.One, "{"+p.By+"}") && !strings.Contains(catalog[EN][key], "{"+p.By+"}") {
			t.Errorf("%s: plural by %q, which neither form shows", key, p.By)
		}
	}
}
