package auth

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// PasswordChecks returns how many password checks s has run.
func PasswordChecks(s *Service) int64 { return s.checks.Load() }

// HoldPasswordChecks takes every password-check slot of s until release is
// called.
func HoldPasswordChecks(s *Service) (release func()) {
	for range cap(s.checkSlots) {
		s.checkSlots <- struct{}{}
	}
	return func() {
		for range cap(s.checkSlots) {
			<-s.checkSlots
		}
	}
}

func TestCleanHeader(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		max      int
		want     string
	}{
		{"OK", "Mozilla/5.0", 300, "Mozilla/5.0"},
		{"CutAtRuneBoundary", strings.Repeat("a", 299) + "é", 300, strings.Repeat("a", 299)},
		{"CutExact", "abcé", 5, "abcé"},
		{"InvalidUTF8", "a\xffb", 300, "a\uFFFDb"},
		{"NUL", "a\x00b", 300, "ab"},
		{"InvalidAtCut", strings.Repeat("a", 298) + "\xff", 300, strings.Repeat("a", 298)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := cleanHeader(tc.in, tc.max)
			if got != tc.want || !utf8.ValidString(got) || len(got) > tc.max {
				t.Fatalf("cleanHeader(%q, %d) = %q, want %q", tc.in, tc.max, got, tc.want)
			}
		})
	}
}
