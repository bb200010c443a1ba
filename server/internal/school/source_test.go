package school

import (
	"testing"

	"github.com/tatib/tatib/server/internal/locale"
)

func TestParseGrade(t *testing.T) {
	for in, want := range map[string]int{
		"1": 1, "I": 1, "6": 6, "VI": 6, "7": 7, "VII": 7, "Kelas 8": 8, "kelas VIII": 8, "IX": 9, "X": 10, "10": 10,
		"XI": 11, "XII": 12, "12": 12, "7A": 7, "VII-B": 7, "10-IPA": 10, "XII.IPA": 12,
		"13": 0, "0": 0, "XIII": 0, "": 0, "A1": 0, "TKJ": 0,
	} {
		if got := parseGrade(in); got != want {
			t.Errorf("parseGrade(%q) = %d, want %d", in, got, want)
		}
	}
	for g, want := range map[int]string{1: "I", 4: "IV", 7: "VII", 9: "IX", 10: "X", 12: "XII", 13: ""} {
		if got := gradeLabel(g); got != want {
			t.Errorf("gradeLabel(%d) = %q, want %q", g, got, want)
		}
	}
}

// A stored message comes back with its numbers as integers (formatted per
// language) and its catalogue-key parameters as keys.
func TestStoredParamsRoundTrip(t *testing.T) {
	m := msg("school.source.wrong_shape", "got", jsonKind([]any{}), "page", 3)
	b, err := m.Params.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	var back StoredParams
	if err := back.Scan(b); err != nil {
		t.Fatal(err)
	}
	got := Message{Key: m.Key, Params: back}.Render(locale.EN)
	want := "Page 3: A JSON object with a \"data\" list was expected, but a list (JSON array) arrived."
	if got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	n := msg("school.sync.skipped", "count", 1200)
	b, _ = n.Params.MarshalJSON()
	_ = back.Scan(b)
	if got := (Message{Key: n.Key, Params: back}).Render(locale.ID); got != "1.200 data dilewati karena tidak memiliki id atau nama." {
		t.Fatalf("number: %q", got)
	}
}
