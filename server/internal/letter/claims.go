package letter

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// receiptClaim matches a clause saying an earlier letter was received
// ("Meskipun telah menerima Surat Peringatan 1, "), as the default SP 2 text
// and schools' own texts open their paragraph.
var receiptClaim = regexp.MustCompile(`(?i)\b(meskipun|walaupun|walau|setelah|sekalipun)\s+(telah\s+|sudah\s+)?` +
	`(menerima|diberi|diberikan|mendapat|mendapatkan)\s+(surat\s+peringatan|sp)\s*[0-9ivx]*(\s*\([^)]*\))?\s*,\s*`)

// letterText is a threshold's text as this letter may say it: a clause
// claiming an earlier letter was received is dropped unless one was
// delivered (a letter raised to cover SP 1–2 follows no delivered SP 1),
// and a letter covering several levels says so first.
func letterText(text, name string, levels []int, earlierDelivered bool) string {
	if !earlierDelivered {
		text = receiptClaim.ReplaceAllStringFunc(text, func(string) string { return "\x00" })
		var b strings.Builder
		for i := 0; i < len(text); {
			if text[i] != 0 {
				b.WriteByte(text[i])
				i++
				continue
			}
			i++
			// The sentence now starts with what followed the clause.
			r, n := utf8.DecodeRuneInString(text[i:])
			if n > 0 && atSentenceStart(b.String()) {
				b.WriteRune(unicode.ToUpper(r))
				i += n
			}
		}
		text = b.String()
	}
	if len(levels) > 1 {
		text = "Surat ini sekaligus berlaku sebagai " + name + ": poin siswa telah mencapai batas setiap jenjang tersebut. " + text
	}
	return text
}

// atSentenceStart reports whether what follows s starts a sentence.
func atSentenceStart(s string) bool {
	s = strings.TrimRight(s, " \n\t")
	return s == "" || strings.HasSuffix(s, ".") || strings.HasSuffix(s, "!") || strings.HasSuffix(s, "?")
}
