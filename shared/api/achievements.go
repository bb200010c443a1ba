package api

import "time"

// Achievement levels, lowest first: where a win counts (school, regency or
// city, province, nation, the world).
const (
	LevelSekolah       = "sekolah"
	LevelKabupaten     = "kabupaten"
	LevelProvinsi      = "provinsi"
	LevelNasional      = "nasional"
	LevelInternasional = "internasional"
)

// AchievementLevels are the levels in the order screens show them.
var AchievementLevels = []string{LevelSekolah, LevelKabupaten, LevelProvinsi, LevelNasional, LevelInternasional}

// LevelPoints are an achievement type's points per level; a nil level does
// not apply to the type.
type LevelPoints struct {
	Sekolah       *int `json:"sekolah" db:"points_sekolah" jsonschema:"minimum=0,maximum=1000"`
	Kabupaten     *int `json:"kabupaten" db:"points_kabupaten" jsonschema:"minimum=0,maximum=1000"`
	Provinsi      *int `json:"provinsi" db:"points_provinsi" jsonschema:"minimum=0,maximum=1000"`
	Nasional      *int `json:"nasional" db:"points_nasional" jsonschema:"minimum=0,maximum=1000"`
	Internasional *int `json:"internasional" db:"points_internasional" jsonschema:"minimum=0,maximum=1000"`
}

// At returns the points at level; ok is false where the level does not
// apply (or is not a level).
func (p LevelPoints) At(level string) (int, bool) {
	var v *int
	switch level {
	case LevelSekolah:
		v = p.Sekolah
	case LevelKabupaten:
		v = p.Kabupaten
	case LevelProvinsi:
		v = p.Provinsi
	case LevelNasional:
		v = p.Nasional
	case LevelInternasional:
		v = p.Internasional
	}
	if v == nil {
		return 0, false
	}
	return *v, true
}

// AchievementCategory groups achievement types (akademik, non-akademik,
// sikap/karakter, kepemimpinan, lainnya; the school edits them).
type AchievementCategory struct {
	ID        int64     `json:"id" db:"id"`
	Name      string    `json:"name" db:"name"`
	SortOrder int       `json:"sort_order" db:"sort_order"`
	TypeCount int       `json:"type_count" db:"type_count"`
	CreatedAt time.Time `json:"created_at" db:"created_at"`
	UpdatedAt time.Time `json:"updated_at" db:"updated_at"`
}

// AchievementCategoryInput creates or changes a category (absent fields
// stay on a change).
type AchievementCategoryInput struct {
	Name      *string `json:"name" jsonschema:"maxLength=50"`
	SortOrder *int    `json:"sort_order" jsonschema:"minimum=0,maximum=10000"`
}

// AchievementType is a kind of achievement and its points per level.
type AchievementType struct {
	ID           int64       `json:"id" db:"id"`
	CategoryID   int64       `json:"category_id" db:"category_id"`
	CategoryName string      `json:"category_name" db:"category_name"`
	Name         string      `json:"name" db:"name"`
	Points       LevelPoints `json:"points" db:"-"`
	Description  string      `json:"description" db:"description"`
	Active       bool        `json:"active" db:"active"`
	// UseCount is how many achievements were recorded with the type (a
	// used type can only be deactivated).
	UseCount  int       `json:"use_count" db:"use_count"`
	CreatedAt time.Time `json:"created_at" db:"created_at"`
	UpdatedAt time.Time `json:"updated_at" db:"updated_at"`
}

// AchievementTypeInput creates or changes a type (absent fields stay on a
// change; points, when present, replace every level).
type AchievementTypeInput struct {
	CategoryID  *int64       `json:"category_id"`
	Name        *string      `json:"name" jsonschema:"maxLength=150"`
	Points      *LevelPoints `json:"points"`
	Description *string      `json:"description" jsonschema:"maxLength=2000"`
	Active      *bool        `json:"active"`
}

// AchievementTypeList is the type list with every category.
type AchievementTypeList struct {
	Data       []AchievementType     `json:"data"`
	Categories []AchievementCategory `json:"categories"`
}

// AchievementImportResult answers an import or its preview (dry_run):
// what is (or would be) created, what is skipped as a duplicate, what is
// refused and why, each by row.
type AchievementImportResult struct {
	DryRun   bool                   `json:"dry_run"`
	Created  []AchievementImportRow `json:"created"`
	Skipped  []AchievementImportRow `json:"skipped"`
	Rejected []AchievementImportRow `json:"rejected"`
}

// AchievementImportRow is one row of an import file and what became of it.
type AchievementImportRow struct {
	Row      int    `json:"row"`
	Category string `json:"category"`
	Name     string `json:"name"`
	// Reason says why a row was skipped or refused, in the caller's
	// language; Code is its stable key.
	Code   string `json:"code,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// CreateAchievementRequest records one achievement for one or several
// students (a team's win). AchievedOn is YYYY-MM-DD (Jakarta).
type CreateAchievementRequest struct {
	StudentIDs  []int64 `json:"student_ids" jsonschema:"required,minItems=1,maxItems=60"`
	TypeID      int64   `json:"type_id" jsonschema:"required"`
	Level       string  `json:"level" jsonschema:"required" openapi:"AchievementLevel"`
	AchievedOn  string  `json:"achieved_on" jsonschema:"required,format=date"`
	Description string  `json:"description" jsonschema:"maxLength=2000"`
}

// AchievementStudent is one student of an achievement, with the class of
// the day it was recorded.
type AchievementStudent struct {
	ID        int64  `json:"id" db:"id"`
	Name      string `json:"name" db:"name"`
	NISN      string `json:"nisn" db:"nisn"`
	ClassID   *int64 `json:"class_id" db:"class_id"`
	ClassName string `json:"class_name" db:"class_name"`
}

// Achievement is one win of one or several students.
type Achievement struct {
	ID           int64                `json:"id" db:"id"`
	TypeID       int64                `json:"type_id" db:"type_id"`
	TypeName     string               `json:"type_name" db:"type_name"`
	CategoryName string               `json:"category_name" db:"category_name"`
	Level        string               `json:"level" db:"level" openapi:"AchievementLevel"`
	Points       int                  `json:"points" db:"points"`
	AchievedOn   string               `json:"achieved_on" db:"achieved_on" jsonschema:"format=date"`
	Description  string               `json:"description" db:"description"`
	Students     []AchievementStudent `json:"students" db:"-"`
	// RecordedBy is the recorder; RecordedByName is kept beside it.
	RecordedBy     *int64     `json:"recorded_by" db:"recorded_by"`
	RecordedByName string     `json:"recorded_by_name" db:"recorded_by_name"`
	VerifiedBy     *int64     `json:"verified_by" db:"verified_by"`
	VerifiedByName string     `json:"verified_by_name" db:"verified_by_name"`
	VerifiedAt     *time.Time `json:"verified_at" db:"verified_at"`
	PhotoCount     int        `json:"photo_count" db:"photo_count"`
	// Photos are listed on the detail only.
	Photos    []AchievementPhoto `json:"photos,omitempty" db:"-"`
	CreatedAt time.Time          `json:"created_at" db:"created_at"`
	UpdatedAt time.Time          `json:"updated_at" db:"updated_at"`
}

// AchievementPhoto is an evidence photo of an achievement.
type AchievementPhoto struct {
	ID           int64  `json:"id" db:"id"`
	Width        int    `json:"width" db:"width"`
	Height       int    `json:"height" db:"height"`
	URL          string `json:"url" db:"-"`
	ThumbnailURL string `json:"thumbnail_url" db:"-"`
}
