package letter

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/base32"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/server/internal/schoolday"
	"github.com/tatib/tatib/shared/api"
)

// DefaultNumberPattern numbers letters the way Indonesian schools number
// their outgoing letters: sequence / kind / office / Roman month / year,
// "007/SP-1/BK/XI/2026".
const DefaultNumberPattern = "{seq}/SP-{level}/BK/{roman_month}/{year}"

// NumberPlaceholders may stand in a number pattern. {seq} is the letter's
// place in its academic year's sequence (three digits at least, "007"); the
// month and year are the letter's date's (its issue day, Asia/Jakarta).
var NumberPlaceholders = []string{"{seq}", "{level}", "{roman_month}", "{month}", "{year}"}

// maxPatternLength bounds a pattern (and so a number) in characters.
const maxPatternLength = 100

// settingsKey is the settings row of the letter settings.
const settingsKey = "letters"

// Settings are the school's letter settings (Settings → School → Letter
// numbers), as GET/PUT /settings/letters send and read them and the
// settings row stores them (the number pattern alone).
type Settings = api.LetterSettings

var placeholderRE = regexp.MustCompile(`\{[^{}]*\}`)

// validateSettings checks the pattern; an empty one is the default.
func validateSettings(s *Settings) error {
	f := apperr.Fields{}
	s.NumberPattern = strings.TrimSpace(s.NumberPattern)
	if s.NumberPattern == "" {
		s.NumberPattern = DefaultNumberPattern
	}
	p := s.NumberPattern
	var unknown []string
	for _, m := range placeholderRE.FindAllString(p, -1) {
		if !slices.Contains(NumberPlaceholders, m) && !slices.Contains(unknown, m) {
			unknown = append(unknown, m)
		}
	}
	switch {
	case !utf8.ValidString(p) || strings.ContainsFunc(p, unicode.IsControl):
		f.Add("number_pattern", "letter.pattern.characters")
	case utf8.RuneCountInString(p) > maxPatternLength:
		f.Add("number_pattern", "letter.pattern.too_long", "max", maxPatternLength)
	case !strings.Contains(p, "{seq}"):
		f.Add("number_pattern", "letter.pattern.seq_required")
	case len(unknown) > 0:
		f.Add("number_pattern", "letter.pattern.unknown", "names", strings.Join(unknown, ", "), "allowed", strings.Join(NumberPlaceholders, " "))
	}
	return f.Err()
}

// FormatNumber makes a letter's number from pattern: seq is its place in
// its academic year, level its SP level, date its date (Asia/Jakarta).
func FormatNumber(pattern string, seq, level int, date time.Time) string {
	t := schoolday.In(date)
	return strings.NewReplacer(
		"{seq}", fmt.Sprintf("%03d", seq),
		"{level}", strconv.Itoa(level),
		"{roman_month}", romanMonths[t.Month()-1],
		"{month}", fmt.Sprintf("%02d", int(t.Month())),
		"{year}", strconv.Itoa(t.Year()),
	).Replace(pattern)
}

// LoadSettings returns the letter settings, the defaults when none were
// saved.
func LoadSettings(ctx context.Context, q sqlx.QueryerContext) (Settings, error) {
	var row struct {
		Value     []byte    `db:"value"`
		UpdatedAt time.Time `db:"updated_at"`
	}
	err := sqlx.GetContext(ctx, q, &row, `SELECT value, updated_at FROM settings WHERE key = $1`, settingsKey)
	if errors.Is(err, sql.ErrNoRows) {
		return Settings{NumberPattern: DefaultNumberPattern}, nil
	}
	if err != nil {
		return Settings{}, fmt.Errorf("letter: settings: %w", err)
	}
	var s Settings
	if err := json.Unmarshal(row.Value, &s); err != nil {
		return Settings{}, fmt.Errorf("letter: settings: %w", err)
	}
	if strings.TrimSpace(s.NumberPattern) == "" {
		s.NumberPattern = DefaultNumberPattern
	}
	s.UpdatedAt = &row.UpdatedAt
	return s, nil
}

// SaveSettings validates and stores the settings, audited. Numbers
// already given stay as they were printed.
func (s *Store) SaveSettings(ctx context.Context, actor audit.Actor, in Settings) (Settings, error) {
	if err := validateSettings(&in); err != nil {
		return Settings{}, err
	}
	stored := Settings{NumberPattern: in.NumberPattern}
	b, err := json.Marshal(stored)
	if err != nil {
		return Settings{}, err
	}
	var by *int64
	if actor.ID != 0 {
		by = &actor.ID
	}
	err = pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		before, err := LoadSettings(ctx, tx)
		if err != nil {
			return err
		}
		const q = `INSERT INTO settings (key, value, updated_at, updated_by) VALUES ($1, $2, now(), $3)
			ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now(), updated_by = EXCLUDED.updated_by`
		if _, err := tx.ExecContext(ctx, q, settingsKey, string(b), by); err != nil {
			return fmt.Errorf("letter: save settings: %w", err)
		}
		return audit.Record(ctx, tx, actor, "settings.letters.update", "setting", settingsKey,
			map[string]any{"before": before.NumberPattern, "after": stored.NumberPattern})
	})
	if err != nil {
		return Settings{}, err
	}
	return LoadSettings(ctx, s.db)
}

// described fills the answer-only fields.
func described(s Settings) Settings {
	s.Placeholders = NumberPlaceholders
	s.Example = FormatNumber(s.NumberPattern, 1, 1, time.Now())
	return s
}

// codeChars is the length of a verification code: 12 base32 characters,
// 60 random bits. Guessing one of a school's few thousand codes takes
// about 2^48 tries; the lookup is rate-limited per address besides.
const codeChars = 12

// newCode returns a fresh verification code (A–Z, 2–7).
func newCode() string {
	b := make([]byte, 8)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand never fails on a supported platform
	}
	return base32.StdEncoding.EncodeToString(b)[:codeChars]
}

// GroupCode prints a code in fours, "ABCD-EFGH-JKLM", to read and type.
func GroupCode(c string) string {
	var b strings.Builder
	for i, r := range c {
		if i > 0 && i%4 == 0 {
			b.WriteByte('-')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// normalizeCode turns what someone typed or scanned into a stored code:
// capitals, without the dashes and spaces of the printed grouping.
func normalizeCode(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || unicode.IsSpace(r) {
			return -1
		}
		return unicode.ToUpper(r)
	}, s)
}

// unnumbered is a letter that is getting its number.
type unnumbered struct {
	ID       int64     `db:"id"`
	Level    int       `db:"level"`
	IssuedAt time.Time `db:"issued_at"`
}

// assigned is a number given now.
type assigned struct {
	Number string
	Code   string
}

// assignNumbers gives each letter of ids (locked by the caller) that has
// no number and is not withdrawn its number and verification code: {seq}
// from the sequence of the academic year of its date, taken in date
// order. The sequence row is counted up in one statement per print, which
// locks it: a concurrent print waits and continues after these numbers.
func assignNumbers(ctx context.Context, tx *sqlx.Tx, ids []int64) (map[int64]assigned, error) {
	var ls []unnumbered
	const q = `SELECT id, level, issued_at FROM warning_letters
		WHERE id = ANY($1) AND number IS NULL AND status <> 'withdrawn'
		ORDER BY issued_at, id`
	if err := tx.SelectContext(ctx, &ls, q, pq.Array(ids)); err != nil {
		return nil, fmt.Errorf("letter: unnumbered: %w", err)
	}
	out := map[int64]assigned{}
	if len(ls) == 0 {
		return out, nil
	}
	prof, err := school.LoadProfile(ctx, tx)
	if err != nil {
		return nil, err
	}
	set, err := LoadSettings(ctx, tx)
	if err != nil {
		return nil, err
	}
	// Letters per academic year, in date order; the years in order, so two
	// prints lock the sequence rows in the same order.
	years := map[string][]unnumbered{}
	for _, l := range ls {
		start := prof.YearStartOf(schoolday.DateOf(l.IssuedAt)).String()
		years[start] = append(years[start], l)
	}
	starts := make([]string, 0, len(years))
	counts := make([]int64, 0, len(years))
	for k := range years {
		starts = append(starts, k)
	}
	slices.Sort(starts)
	for _, k := range starts {
		counts = append(counts, int64(len(years[k])))
	}
	var last []struct {
		Start string `db:"start"`
		Last  int    `db:"last_seq"`
	}
	const bump = `INSERT INTO letter_number_sequences (year_start, last_seq)
		SELECT s, n FROM unnest($1::date[], $2::int[]) AS u(s, n) ORDER BY s
		ON CONFLICT (year_start) DO UPDATE SET last_seq = letter_number_sequences.last_seq + EXCLUDED.last_seq
		RETURNING to_char(year_start, 'YYYY-MM-DD') AS start, last_seq`
	if err := tx.SelectContext(ctx, &last, bump, pq.Array(starts), pq.Array(counts)); err != nil {
		return nil, fmt.Errorf("letter: number sequence: %w", err)
	}
	var (
		lids  []int64
		nums  []string
		ystrs []string
		seqs  []int64
		codes []string
	)
	for _, row := range last {
		group := years[row.Start]
		first := row.Last - len(group) + 1
		for i, l := range group {
			seq := first + i
			a := assigned{Number: FormatNumber(set.NumberPattern, seq, l.Level, l.IssuedAt), Code: newCode()}
			out[l.ID] = a
			lids, nums, ystrs, seqs, codes = append(lids, l.ID), append(nums, a.Number), append(ystrs, row.Start), append(seqs, int64(seq)), append(codes, a.Code)
		}
	}
	const upd = `UPDATE warning_letters wl SET number = u.number, number_year = u.year, number_seq = u.seq,
		numbered_at = now(), verify_code = u.code, updated_at = now()
		FROM unnest($1::bigint[], $2::text[], $3::date[], $4::int[], $5::text[]) AS u(id, number, year, seq, code)
		WHERE wl.id = u.id`
	if _, err := tx.ExecContext(ctx, upd, pq.Array(lids), pq.Array(nums), pq.Array(ystrs), pq.Array(seqs), pq.Array(codes)); err != nil {
		return nil, fmt.Errorf("letter: number: %w", err)
	}
	return out, nil
}
