// Package letter serves the warning letters (SP) the violation package
// issues: the list, one letter with its status history, the status steps
// (draft → printed → signed → delivered, one at a time, forward only) and
// the letter as a PDF on the school's letterhead.
package letter

import (
	"context"
	"strings"
	"time"

	"github.com/tatib/tatib/server/internal/app"
	"github.com/tatib/tatib/server/internal/auth"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/shared/api"
)

// Mount registers the warning-letter routes.
func Mount(r *httpx.Router, d app.Deps) {
	s := NewStore(d.DB)
	s.BaseURL = d.Config.BaseURL
	h := NewHandler(s, d.Auth)
	h.TrustProxy = d.Config.TrustProxy
	h.Routes(r)
}

// Letter is a warning letter as the API answers it: the wire type plus
// its number and what is derived from it.
type Letter struct {
	api.WarningLetter
	// Number is the letter's reference from the school's pattern,
	// "007/SP-1/BK/XI/2026", given when it is first printed; nil before.
	Number *string `json:"number" db:"number" jsonschema_description:"from the school's pattern (GET /settings/letters) when the letter is first printed (its PDF downloaded, a batch print, or the printed step), e.g. 007/SP-1/BK/XI/2026; null before. Letters printed before numbers were stored keep SP<level>/<id, 4 digits>/BK/<month, Roman>/<year>"`
	// NumberedAt is when it got its number.
	NumberedAt *time.Time `json:"numbered_at" db:"numbered_at"`
	// VerifyCode opens the public verification page (/verifikasi/{code});
	// given with the number. VerifyURL is that page.
	VerifyCode *string `json:"verify_code" db:"verify_code" jsonschema_description:"12 characters A-Z 2-7, given with the number; printed (grouped in fours) with the QR code"`
	VerifyURL  *string `json:"verify_url" db:"-" jsonschema_description:"the public verification page of the code (TATIB_BASE_URL/verifikasi/<code>)"`
	// AcademicYear names the academic year the letter was issued for,
	// "2025/2026".
	AcademicYear string `json:"academic_year" db:"-" jsonschema_description:"the academic year the letter was issued for, e.g. 2025/2026"`
	// PastYear is true for a letter of an academic year before the
	// current one: it stays and prints, but its status no longer moves.
	PastYear bool `json:"past_year" db:"-" jsonschema_description:"the letter belongs to an academic year before the current one and was issued before the current one began: read-only (status changes are 409 letter.past_year), still printable"`
	// AcknowledgedAt is the latest "Saya sudah membaca" of a guardian in
	// the family portal, AcknowledgedBy their names (docs/portal.md); an
	// acknowledgement is not the letter's delivery.
	AcknowledgedAt *time.Time `json:"acknowledged_at" db:"acknowledged_at" jsonschema_description:"the latest acknowledgement (\"Saya sudah membaca\") of a guardian in the family portal; not the letter's delivery"`
	AcknowledgedBy string     `json:"acknowledged_by" db:"acknowledged_by" jsonschema_description:"the names of the guardians who acknowledged it, in order; empty when none"`
}

var romanMonths = [...]string{"I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII"}

// steps is the forward order of a letter's status; withdrawn is off the
// line.
var steps = []string{api.LetterDraft, api.LetterPrinted, api.LetterSigned, api.LetterDelivered}

// nextStatus is the status after s, or "" when s is the last or unknown.
func nextStatus(s string) string {
	for i, st := range steps[:len(steps)-1] {
		if st == s {
			return steps[i+1]
		}
	}
	return ""
}

// Scope limits what a caller sees: a homeroom teacher (HomeroomID != 0)
// sees the letters of students currently in their class and the letters
// issued while the student was in their class.
type Scope struct {
	HomeroomID int64
}

func scope(ctx context.Context) Scope {
	return Scope{HomeroomID: auth.HomeroomID(ctx)}
}

// Filter narrows the letter list. Zero values do not filter.
type Filter struct {
	StudentID int64
	Level     int
	ClassID   int64
	Status    string
	// From and To bound the issue day (Asia/Jakarta), inclusive.
	From, To *time.Time
	// AcademicYear is the calendar year the letter's academic year began
	// in (2025 for 2025/2026), as reports name a year.
	AcademicYear int
}

// statuses a list may be filtered by.
var statuses = []string{api.LetterDraft, api.LetterPrinted, api.LetterSigned, api.LetterDelivered, api.LetterWithdrawn}

func validStatus(s string) bool {
	for _, st := range statuses {
		if st == s {
			return true
		}
	}
	return false
}

// Placeholders are replaced in a threshold's text on the letter. The
// school writes them in the threshold text (Violation types → SP
// thresholds).
var Placeholders = []string{"{nama}", "{nisn}", "{kelas}", "{poin}", "{level}", "{tanggal}", "{sekolah}", "{panggilan}"}

// fill replaces the placeholders in text.
func fill(text string, v map[string]string) string {
	pairs := make([]string, 0, 2*len(Placeholders))
	for _, p := range Placeholders {
		pairs = append(pairs, p, v[strings.Trim(p, "{}")])
	}
	return strings.NewReplacer(pairs...).Replace(text)
}
