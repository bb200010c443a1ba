package studentsync

import (
	"testing"

	"github.com/tatib/tatib/server/internal/locale"
)

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
