package violationtype

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/tatib/tatib/server/internal/apperr"
)

// CategoryInput creates (Name required) or changes (absent fields stay) a
// category.
type CategoryInput struct {
	Name      *string `json:"name" jsonschema:"maxLength=50" jsonschema_description:"required on create"`
	Colour    *string `json:"colour" jsonschema_description:"A hex colour (#e03131) or a Mantine colour name: dark, gray, red, pink, grape, violet, indigo, blue, cyan, teal, green, lime, yellow, orange."`
	SortOrder *int    `json:"sort_order" jsonschema:"minimum=0,maximum=100000"`
}

// TypeInput creates or changes a violation type. On create, name, points
// and category_id are required and slug is optional (made from the name).
// On change, absent fields stay.
type TypeInput struct {
	Name            *string `json:"name" jsonschema:"maxLength=150"`
	Slug            *string `json:"slug" jsonschema:"pattern=^[a-z0-9]+(-[a-z0-9]+)*$,maxLength=80"`
	Points          *int    `json:"points" jsonschema:"minimum=0,maximum=1000"`
	CategoryID      *int64  `json:"category_id"`
	DefaultSanction *string `json:"default_sanction" jsonschema:"maxLength=500"`
	Description     *string `json:"description" jsonschema:"maxLength=2000"`
	Active          *bool   `json:"active"`
}

// ThresholdsInput replaces the whole list of SP thresholds.
type ThresholdsInput struct {
	Thresholds []ThresholdInput `json:"thresholds" jsonschema:"required,minItems=1,maxItems=10"`
}

// ThresholdInput is one SP level.
type ThresholdInput struct {
	Level       int    `json:"level" jsonschema:"required,minimum=1,maximum=10"`
	Name        string `json:"name" jsonschema:"required,maxLength=50"`
	MinPoints   int    `json:"min_points" jsonschema:"required,minimum=1,maximum=1000000"`
	Colour      string `json:"colour" jsonschema_description:"A hex colour (#e03131) or a Mantine colour name: dark, gray, red, pink, grape, violet, indigo, blue, cyan, teal, green, lime, yellow, orange."`
	DefaultText string `json:"default_text" jsonschema:"maxLength=5000"`
}

// HandlingTypeInput creates (Name required) or changes a handling type.
type HandlingTypeInput struct {
	Name      *string `json:"name" jsonschema:"maxLength=100" jsonschema_description:"required on create"`
	SortOrder *int    `json:"sort_order" jsonschema:"minimum=0,maximum=100000"`
	Active    *bool   `json:"active"`
	// SummonsParent: absent keeps what is stored (false on create).
	SummonsParent *bool `json:"summons_parent" jsonschema_description:"absent keeps what is stored (false on create)"`
}

// MantineColours are the colour names the screens understand besides hex.
var MantineColours = []string{"dark", "gray", "red", "pink", "grape", "violet", "indigo", "blue",
	"cyan", "teal", "green", "lime", "yellow", "orange"}

var hexColour = regexp.MustCompile(`^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$`)

// ValidColour reports whether c is a hex colour or a Mantine colour name.
func ValidColour(c string) bool {
	return hexColour.MatchString(c) || slices.Contains(MantineColours, c)
}

const colourMessage = "violationtype.colour.invalid"

// NormalizeName trims a name and collapses inner whitespace (and control
// characters) to one space, so names compare case- and space-insensitively
// through lower(name).
func NormalizeName(s string) string {
	s = strings.ToValidUTF8(s, "")
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }), " ")
}

// nameKey is the comparison key of a name: normalized and lower-cased.
func nameKey(s string) string { return strings.ToLower(NormalizeName(s)) }

// cleanText trims free text and drops control characters other than line
// breaks and tabs (PostgreSQL refuses NUL).
func cleanText(s string) string {
	s = strings.ToValidUTF8(s, "")
	s = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' {
			return r
		}
		if r == '\r' || unicode.IsControl(r) {
			return -1
		}
		return r
	}, s)
	return strings.TrimSpace(s)
}

var slugRE = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

const maxSlug = 80

// Slugify makes a slug from a name: lower-case ASCII letters and digits
// joined by hyphens.
func Slugify(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if b.Len() >= maxSlug-8 { // room for a -N suffix
			break
		}
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
		default:
			dash = true
		}
	}
	s := strings.Trim(b.String(), "-")
	if s == "" {
		s = "jenis"
	}
	return s
}

// uniqueSlug returns base, or base-2, base-3, … whichever is not taken, and
// marks it taken. Reserved system slugs are never handed out.
func uniqueSlug(base string, taken map[string]bool) string {
	s := base
	for i := 2; taken[s] || isSystemSlug(s); i++ {
		s = base + "-" + strconv.Itoa(i)
	}
	taken[s] = true
	return s
}

func isSystemSlug(s string) bool { return slices.Contains(SystemSlugs, s) }

// systemName reports whether a name would make a new type look like a
// system type: the name is a system slug, slugs to one, or equals a system
// type's current name. systemNames holds the name keys of the system types.
func systemName(name string, systemNames map[string]string) (string, bool) {
	k := nameKey(name)
	if slug, ok := systemNames[k]; ok {
		return slug, true
	}
	if s := Slugify(name); isSystemSlug(s) {
		return s, true
	}
	return "", false
}

func validateCategory(f apperr.Fields, in *CategoryInput, create bool) {
	if in.Name != nil {
		*in.Name = NormalizeName(*in.Name)
	}
	switch {
	case in.Name == nil && create, in.Name != nil && *in.Name == "":
		f.Add("name", "violationtype.category.name_required")
	case in.Name != nil && len([]rune(*in.Name)) > maxCategoryName:
		f.Add("name", "violationtype.category.name_too_long", "max", maxCategoryName)
	}
	if in.Colour != nil {
		*in.Colour = strings.TrimSpace(*in.Colour)
		if *in.Colour == "" && create {
			*in.Colour = "gray"
		}
		if !ValidColour(*in.Colour) {
			f.Add("colour", colourMessage)
		}
	}
	if in.SortOrder != nil && (*in.SortOrder < 0 || *in.SortOrder > 100000) {
		f.Add("sort_order", "violationtype.sort_order.range", "max", 100000)
	}
}

// Validate checks a type's present fields; create also requires name,
// points and category_id.
func (in *TypeInput) Validate(create bool) error {
	f := apperr.Fields{}
	if in.Name != nil {
		*in.Name = NormalizeName(*in.Name)
	}
	switch {
	case in.Name == nil && create, in.Name != nil && *in.Name == "":
		f.Add("name", "violationtype.type.name_required")
	case in.Name != nil && len([]rune(*in.Name)) > maxTypeName:
		f.Add("name", "violationtype.type.name_too_long", "max", maxTypeName)
	}
	if in.Slug != nil {
		*in.Slug = strings.TrimSpace(*in.Slug)
		if *in.Slug == "" && !create {
			f.Add("slug", "violationtype.type.code_required")
		} else if *in.Slug != "" && (!slugRE.MatchString(*in.Slug) || len(*in.Slug) > maxSlug) {
			f.Add("slug", "violationtype.type.code_format", "max", 80)
		}
	}
	switch {
	case in.Points == nil && create:
		f.Add("points", "violationtype.type.points_required")
	case in.Points != nil && (*in.Points < 0 || *in.Points > MaxPoints):
		f.Add("points", "violationtype.type.points_range", "max", MaxPoints)
	}
	if (in.CategoryID == nil && create) || (in.CategoryID != nil && *in.CategoryID <= 0) {
		f.Add("category_id", "violationtype.type.category_required")
	}
	if in.DefaultSanction != nil {
		*in.DefaultSanction = cleanText(*in.DefaultSanction)
		if len([]rune(*in.DefaultSanction)) > maxSanction {
			f.Add("default_sanction", "violationtype.type.sanction_too_long", "max", maxSanction)
		}
	}
	if in.Description != nil {
		*in.Description = cleanText(*in.Description)
		if len([]rune(*in.Description)) > maxDescription {
			f.Add("description", "violationtype.type.description_too_long", "max", maxDescription)
		}
	}
	return f.Err()
}

// Validate checks the whole list: levels 1..n without gaps, names present,
// minimum points above zero and strictly increasing with the level. Field
// keys name the list position: thresholds.<index>.<field>.
func (in *ThresholdsInput) Validate() error {
	f := apperr.Fields{}
	n := len(in.Thresholds)
	if n == 0 {
		f.Add("thresholds", "violationtype.threshold.none")
		return f.Err()
	}
	if n > maxThresholdLevel {
		f.Add("thresholds", "violationtype.threshold.too_many", "max", maxThresholdLevel)
		return f.Err()
	}
	byLevel := map[int]int{}
	for i := range in.Thresholds {
		t := &in.Thresholds[i]
		key := func(field string) string { return fmt.Sprintf("thresholds.%d.%s", i, field) }
		t.Name = NormalizeName(t.Name)
		t.Colour = strings.TrimSpace(t.Colour)
		t.DefaultText = cleanText(t.DefaultText)
		if t.Colour == "" {
			t.Colour = "red"
		}
		switch {
		case t.Level < 1 || t.Level > n:
			f.Add(key("level"), "violationtype.threshold.level_range", "max", n)
		default:
			if j, dup := byLevel[t.Level]; dup {
				f.Add(key("level"), "violationtype.threshold.level_twice", "level", t.Level, "row", j+1)
			} else {
				byLevel[t.Level] = i
			}
		}
		switch {
		case t.Name == "":
			f.Add(key("name"), "violationtype.threshold.name_required")
		case len([]rune(t.Name)) > maxThresholdName:
			f.Add(key("name"), "violationtype.threshold.name_too_long", "max", maxThresholdName)
		}
		if t.MinPoints <= 0 {
			f.Add(key("min_points"), "violationtype.threshold.min_points_positive")
		} else if t.MinPoints > 1000000 {
			f.Add(key("min_points"), "violationtype.threshold.min_points_too_high")
		}
		if !ValidColour(t.Colour) {
			f.Add(key("colour"), colourMessage)
		}
		if len([]rune(t.DefaultText)) > maxThresholdText {
			f.Add(key("default_text"), "violationtype.threshold.text_too_long", "max", maxThresholdText)
		}
	}
	// Strictly increasing with the level, checked once the levels are sound.
	if len(byLevel) == n {
		prev := 0
		for lvl := 1; lvl <= n; lvl++ {
			i := byLevel[lvl]
			mp := in.Thresholds[i].MinPoints
			if mp > 0 && mp <= prev {
				f.Add(fmt.Sprintf("thresholds.%d.min_points", i),
					"violationtype.threshold.min_points_order", "level", lvl, "previous", lvl-1, "points", prev)
			}
			if mp > prev {
				prev = mp
			}
		}
	}
	return f.Err()
}

func validateHandlingType(f apperr.Fields, in *HandlingTypeInput, create bool) {
	if in.Name != nil {
		*in.Name = NormalizeName(*in.Name)
	}
	switch {
	case in.Name == nil && create, in.Name != nil && *in.Name == "":
		f.Add("name", "violationtype.handling.name_required")
	case in.Name != nil && len([]rune(*in.Name)) > maxHandlingName:
		f.Add("name", "violationtype.handling.name_too_long", "max", maxHandlingName)
	}
	if in.SortOrder != nil && (*in.SortOrder < 0 || *in.SortOrder > 100000) {
		f.Add("sort_order", "violationtype.sort_order.range", "max", 100000)
	}
}
