package school

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"
	"unicode"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/schoolday"
)

// Settings keys in the settings table.
const (
	keySchool = "school"
	keyDemo   = "demo"
)

type Profile struct {
	Name              string `json:"name" jsonschema:"required,maxLength=200"`
	Address           string `json:"address" jsonschema:"maxLength=500"`
	Phone             string `json:"phone"`
	LogoPath          string `json:"logo_path" jsonschema_extras:"deprecated=true" jsonschema_description:"retired: stored and returned as before, but nothing reads it; the letterhead uses the uploaded logo (PUT /settings/school/logo)"`
	PrincipalName     string `json:"principal_name" jsonschema:"maxLength=150"`
	PrincipalNIP      string `json:"principal_nip" jsonschema:"pattern=^([0-9]{18})?$" jsonschema_description:"empty until set; spaces, dots and dashes are removed before the check"`
	BKCoordinatorName string `json:"bk_coordinator_name" jsonschema:"maxLength=150"`
	// BKCoordinatorNIP is printed under the BK coordinator's signature on
	// a letter (18 digits, or empty).
	BKCoordinatorNIP string `json:"bk_coordinator_nip" jsonschema:"pattern=^([0-9]{18})?$" jsonschema_description:"printed under the BK coordinator's signature on a letter; spaces, dots and dashes are removed before the check"`
	// City is where the school writes its letters from: "Bandung" in
	// "Bandung, 27 November 2026" above the signatures.
	City              string `json:"city" jsonschema:"maxLength=100" jsonschema_description:"where letters are written from: \"Bandung\" in \"Bandung, 27 November 2026\" above a letter's signatures"`
	AcademicYearStart string `json:"academic_year_start" jsonschema:"pattern=^[0-1][0-9]-[0-3][0-9]$,default=07-01"` // MM-DD
	LessonHoursPerDay int    `json:"lesson_hours_per_day" jsonschema:"minimum=1,maximum=16,default=10"`
	// PaperSize is the paper letters and reports print on: "A4" (default)
	// or "F4" (215 × 330 mm).
	PaperSize string `json:"paper_size" jsonschema:"enum=A4,enum=F4,default=A4" jsonschema_description:"paper of letters and reports; F4 is 215 × 330 mm; any case accepted, stored upper-case"`
	// EarlyWarningPoints is N of the early warnings: a student within N
	// points of their next SP level is listed (1..1000, default 10).
	EarlyWarningPoints int `json:"early_warning_points" jsonschema:"minimum=1,maximum=1000,default=10" jsonschema_description:"early warnings list a student within this many points of their next SP level"`
	// JournalPreviousYears is how many academic years before the current one
	// the journal may still send attendance for (0..5; nil: 1, the current
	// and the previous year). Older dates are refused, so a mistyped year
	// cannot give a student points the form cannot correct.
	JournalPreviousYears *int       `json:"journal_previous_years,omitempty" jsonschema:"minimum=0,maximum=5,default=1" jsonschema_description:"the journal may send attendance of the current academic year and this many before it; older dates answer 422"`
	UpdatedAt            *time.Time `json:"updated_at,omitempty" jsonschema:"readOnly=true"`
}

// JournalEarliest returns the first day the journal may send on school
// day d: the start of the academic year JournalPreviousYears before the
// current one.
func (p Profile) JournalEarliest(d schoolday.Date) schoolday.Date {
	back := 1
	if p.JournalPreviousYears != nil {
		back = *p.JournalPreviousYears
	}
	return p.YearStartOf(d).AddDate(-back, 0, 0)
}

// DefaultProfile is the profile before anyone saved one.
func DefaultProfile() Profile {
	return Profile{AcademicYearStart: "07-01", LessonHoursPerDay: 10, PaperSize: "A4", EarlyWarningPoints: 10}
}

var (
	nipRE   = regexp.MustCompile(`^[0-9]{18}$`)
	phoneRE = regexp.MustCompile(`^\+?[0-9 ()-]{5,25}$`)
)

// normalizeNIP drops the spaces, dots and dashes people type to group a
// NIP's 18 digits ("19720315 200003 1 002"); only the digits are stored.
func normalizeNIP(v string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || r == '.' || r == '-' {
			return -1
		}
		return r
	}, v)
}

// Validate checks the profile field by field.
func (p *Profile) Validate() error {
	f := apperr.Fields{}
	p.Name = strings.TrimSpace(p.Name)
	p.Address = strings.TrimSpace(p.Address)
	p.Phone = strings.TrimSpace(p.Phone)
	p.LogoPath = strings.TrimSpace(p.LogoPath)
	p.PrincipalName = strings.TrimSpace(p.PrincipalName)
	p.PrincipalNIP = normalizeNIP(p.PrincipalNIP)
	p.BKCoordinatorName = strings.TrimSpace(p.BKCoordinatorName)
	p.BKCoordinatorNIP = normalizeNIP(p.BKCoordinatorNIP)
	p.City = strings.TrimSpace(p.City)
	p.AcademicYearStart = strings.TrimSpace(p.AcademicYearStart)
	switch {
	case p.Name == "":
		f.Add("name", "school.profile.name_required")
	case len([]rune(p.Name)) > 200:
		f.Add("name", "school.profile.too_long", "max", 200)
	}
	if len([]rune(p.Address)) > 500 {
		f.Add("address", "school.profile.too_long", "max", 500)
	}
	if p.Phone != "" && !phoneRE.MatchString(p.Phone) {
		f.Add("phone", "school.profile.phone")
	}
	if strings.Contains(p.LogoPath, "..") {
		f.Add("logo_path", "school.profile.logo_path")
	}
	if p.PrincipalNIP != "" && !nipRE.MatchString(p.PrincipalNIP) {
		f.Add("principal_nip", "school.profile.nip")
	}
	if p.BKCoordinatorNIP != "" && !nipRE.MatchString(p.BKCoordinatorNIP) {
		f.Add("bk_coordinator_nip", "school.profile.nip")
	}
	for field, v := range map[string]string{"principal_name": p.PrincipalName, "bk_coordinator_name": p.BKCoordinatorName} {
		if len([]rune(v)) > 150 {
			f.Add(field, "school.profile.too_long", "max", 150)
		}
	}
	if len([]rune(p.City)) > 100 {
		f.Add("city", "school.profile.too_long", "max", 100)
	}
	if p.AcademicYearStart == "" {
		p.AcademicYearStart = "07-01"
	}
	if _, err := time.Parse("2006-01-02", "2001-"+p.AcademicYearStart); err != nil || len(p.AcademicYearStart) != 5 {
		f.Add("academic_year_start", "school.profile.academic_year_start")
	}
	if p.LessonHoursPerDay == 0 {
		p.LessonHoursPerDay = 10
	}
	if p.LessonHoursPerDay < 1 || p.LessonHoursPerDay > 16 {
		f.Add("lesson_hours_per_day", "school.profile.lesson_hours", "min", 1, "max", 16)
	}
	switch p.PaperSize = strings.ToUpper(strings.TrimSpace(p.PaperSize)); p.PaperSize {
	case "":
		p.PaperSize = "A4"
	case "A4", "F4":
	default:
		f.Add("paper_size", "school.profile.paper_size")
	}
	if p.EarlyWarningPoints == 0 {
		p.EarlyWarningPoints = 10
	}
	if p.EarlyWarningPoints < 1 || p.EarlyWarningPoints > 1000 {
		f.Add("early_warning_points", "earlywarning.setting.range", "min", 1, "max", 1000)
	}
	if n := p.JournalPreviousYears; n != nil && (*n < 0 || *n > 5) {
		f.Add("journal_previous_years", "school.profile.journal_previous_years", "min", 0, "max", 5)
	}
	return f.Err()
}

// YearStart returns the first day of the academic year that begins in
// calendar year y, from the profile's MM-DD (07-01 when unset, or when it
// is no day of y, such as 02-29 in a common year).
func (p Profile) YearStart(y int) schoolday.Date {
	start, err := schoolday.ParseDate(fmt.Sprintf("%04d-%s", y, p.AcademicYearStart))
	if err != nil {
		return schoolday.NewDate(y, time.July, 1)
	}
	return start
}

// YearStartOf returns the first school day of the academic year that
// contains school day d (see YearStart).
func (p Profile) YearStartOf(d schoolday.Date) schoolday.Date {
	start := p.YearStart(d.Year())
	if start.After(d) {
		start = start.AddDate(-1, 0, 0)
	}
	return start
}

// ReadSetting decodes settings[key] into v; found is false when absent.
func ReadSetting(ctx context.Context, q sqlx.QueryerContext, key string, v any) (found bool, updated time.Time, err error) {
	var raw []byte
	err = q.QueryRowxContext(ctx, `SELECT value, updated_at FROM settings WHERE key = $1`, key).Scan(&raw, &updated)
	if errors.Is(err, sql.ErrNoRows) {
		return false, time.Time{}, nil
	}
	if err != nil {
		return false, time.Time{}, fmt.Errorf("school: read setting %s: %w", key, err)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return false, time.Time{}, fmt.Errorf("school: decode setting %s: %w", key, err)
	}
	return true, updated, nil
}

// WriteSetting stores v as settings[key], by actorID (0: the system).
func WriteSetting(ctx context.Context, q sqlx.ExecerContext, key string, v any, actorID int64) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	var by *int64
	if actorID != 0 {
		by = &actorID
	}
	const stmt = `INSERT INTO settings (key, value, updated_at, updated_by) VALUES ($1, $2, now(), $3)
		ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now(), updated_by = EXCLUDED.updated_by`
	if _, err := q.ExecContext(ctx, stmt, key, string(b), by); err != nil {
		return fmt.Errorf("school: write setting %s: %w", key, err)
	}
	return nil
}

// saved. Letters, exports and the journal ping read it through here.
func LoadProfile(ctx context.Context, q sqlx.QueryerContext) (Profile, error) {
	p := DefaultProfile()
	found, at, err := ReadSetting(ctx, q, keySchool, &p)
	if err != nil {
		return DefaultProfile(), err
	}
	return profileFound(p, found, at), nil
}

// ProfileKey is the profile's key in settings, for a statement that reads
// it with more (ProfileFrom decodes it).
const ProfileKey = keySchool

// ProfileFrom is LoadProfile from the settings row read elsewhere: its
// value (nil: no row) and updated_at.
func ProfileFrom(raw []byte, updated time.Time) (Profile, error) {
	p := DefaultProfile()
	if raw == nil {
		return p, nil
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return DefaultProfile(), fmt.Errorf("school: decode setting %s: %w", keySchool, err)
	}
	return profileFound(p, true, updated), nil
}

// profileFound fills in the defaults of a stored profile.
func profileFound(p Profile, found bool, at time.Time) Profile {
	if found {
		p.UpdatedAt = &at
		if p.AcademicYearStart == "" {
			p.AcademicYearStart = "07-01"
		}
		if p.LessonHoursPerDay == 0 {
			p.LessonHoursPerDay = 10
		}
		if p.PaperSize == "" {
			p.PaperSize = "A4"
		}
		if p.EarlyWarningPoints == 0 {
			p.EarlyWarningPoints = 10
		}
	}
	return p
}

// SaveProfile validates and stores the school profile, audited.
func SaveProfile(ctx context.Context, db *sqlx.DB, actor audit.Actor, p Profile) (Profile, error) {
	if err := p.Validate(); err != nil {
		return Profile{}, err
	}
	p.UpdatedAt = nil
	err := pg.InTx(ctx, db, func(tx *sqlx.Tx) error {
		before, err := LoadProfile(ctx, tx)
		if err != nil {
			return err
		}
		before.UpdatedAt = nil
		if err := WriteSetting(ctx, tx, keySchool, p, actor.ID); err != nil {
			return err
		}
		return audit.Record(ctx, tx, actor, "settings.school.update", "setting", keySchool, map[string]any{"before": before, "after": p})
	})
	if err != nil {
		return Profile{}, err
	}
	now := time.Now()
	p.UpdatedAt = &now
	return p, nil
}
