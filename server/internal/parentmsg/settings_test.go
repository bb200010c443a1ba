package parentmsg

import (
	"reflect"
	"strings"
	"testing"
)

func TestRenderEveryPlaceholder(t *testing.T) {
	values := map[string]string{}
	var tmpl strings.Builder
	for _, p := range Placeholders {
		values[p] = "<" + p + ">"
		tmpl.WriteString("{" + p + "} ")
	}
	got := Render(tmpl.String(), values)
	for _, p := range Placeholders {
		if !strings.Contains(got, "<"+p+">") {
			t.Errorf("placeholder %s not rendered in %q", p, got)
		}
	}
	if strings.Contains(got, "{") {
		t.Errorf("a placeholder is left: %q", got)
	}
}

func TestRenderKeepsUnknownAndBraces(t *testing.T) {
	got := Render("Halo {nama_siswa}, {nama} {", map[string]string{"nama_siswa": "Budi {kelas}"})
	if want := "Halo Budi {kelas}, {nama} {"; got != want {
		t.Errorf("Render = %q, want %q (a value is not rendered again)", got, want)
	}
}

func TestUnknown(t *testing.T) {
	got := Unknown("{nama_siswa} {nama} {poin} {nama} {x y}")
	if want := []string{"nama"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Unknown = %v, want %v", got, want)
	}
	for _, tmpl := range []string{DefaultViolationTemplate, DefaultLetterTemplate, DefaultSummonsTemplate} {
		if u := Unknown(tmpl); len(u) > 0 {
			t.Errorf("default template uses unknown %v", u)
		}
	}
}
