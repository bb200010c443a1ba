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
