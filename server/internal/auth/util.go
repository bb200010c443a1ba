package auth

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// cleanText reports whether s can be stored in PostgreSQL text as it is:
// valid UTF-8 without NUL.
func cleanText(s string) bool {
	return utf8.ValidString(s) && !strings.ContainsRune(s, 0)
}

// cleanHeader makes header text storable: invalid UTF-8 becomes U+FFFD, NUL
// goes, and the result is cut at a character boundary to at most max bytes.
func cleanHeader(s string, max int) string {
	s = strings.ReplaceAll(strings.ToValidUTF8(s, "\uFFFD"), "\x00", "")
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
}
