// Package phone normalises the parent phone numbers student affairs and
// staff type ("0812-3456-7890", "+62 812 3456 7890", "62812…", "812…")
// into the international digits WhatsApp gateways take ("6281234567890").
package phone

import "strings"

// Problem says why a number cannot be messaged. The values are catalogue
// key suffixes: "phone.<problem>".
type Problem string

// The problems. None means the number is usable.
const (
	None Problem = ""
	// Missing: no number at all.
	Missing Problem = "missing"
	// Invalid: not a phone number (letters, too short or too long).
	Invalid Problem = "invalid"
	// NotMobile: an Indonesian number that is not a mobile one (a
	// landline such as 021…): WhatsApp cannot reach it.
	NotMobile Problem = "not_mobile"
)

// Normalize returns raw as international digits without "+", or the
// problem. Indonesian numbers may be written 08…, 8…, 62… or +62…; other
// countries need their code (+60…, 0060…). Spaces, dashes, dots and
// brackets are ignored.
func Normalize(raw string) (string, Problem) {
	s := strings.Map(func(r rune) rune {
		switch r {
		case ' ', '-', '.', '(', ')', '\t', '\u00a0', '/':
			return -1
		}
		return r
	}, strings.TrimSpace(raw))
	if s == "" {
		return "", Missing
	}
	intl := false
	switch {
	case strings.HasPrefix(s, "+"):
		s, intl = s[1:], true
	case strings.HasPrefix(s, "00"):
		s, intl = s[2:], true
	}
	if len(s) > 20 || !digits(s) {
		return "", Invalid
	}
	if !intl {
		switch {
		case strings.HasPrefix(s, "0"):
			s = "62" + s[1:]
		case strings.HasPrefix(s, "8"):
			s = "62" + s
		}
	}
	if strings.HasPrefix(s, "62") {
		rest := s[2:]
		if !strings.HasPrefix(rest, "8") {
			if len(rest) >= 6 && len(rest) <= 12 && rest[0] != '0' {
				return "", NotMobile
			}
			return "", Invalid
		}
		// 8 + 8..11 digits: 0812-345-678 up to 0812-3456-78901.
		if len(rest) < 9 || len(rest) > 12 || rest[1] == '0' {
			return "", Invalid
		}
		return s, None
	}
	// Another country: E.164 allows 8 to 15 digits, no leading 0.
	if len(s) < 8 || len(s) > 15 || s[0] == '0' {
		return "", Invalid
	}
	return s, None
}

// Mask hides the middle of a normalised number for readers who need not
// see it: "6281234567890" → "62812•••••890".
func Mask(n string) string {
	if len(n) <= 7 {
		return strings.Repeat("•", len(n))
	}
	return n[:5] + strings.Repeat("•", len(n)-8) + n[len(n)-3:]
}

func digits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
