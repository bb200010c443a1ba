// Package violationtype holds violation categories and types, warning-letter
// thresholds, handling types and the xlsx import.
package violationtype

import (
	"context"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/app"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/server/internal/pg"
)

// The slugs of the system types the attendance feature records
// automatically. They always exist and their slug never changes.
const (
	SlugAlpha     = "alpha"
	SlugTerlambat = "terlambat"
)

// SystemSlugs are the slugs reserved for system types.
var SystemSlugs = []string{SlugAlpha, SlugTerlambat}

// Limits shared by the forms and the import.
const (
	MaxPoints         = 1000
	maxTypeName       = 150
	maxCategoryName   = 50
	maxSanction       = 500
	maxDescription    = 2000
	maxHandlingName   = 100
	maxThresholdName  = 50
	maxThresholdText  = 5000
	maxThresholdLevel = 10
)

// Category groups violation types (Ringan, Sedang, Berat).
type Category struct {
	ID              int64     `json:"id" db:"id"`
	Name            string    `json:"name" db:"name" jsonschema:"maxLength=50"`
	Colour          string    `json:"colour" db:"colour" jsonschema_description:"A hex colour (#e03131) or a Mantine colour name: dark, gray, red, pink, grape, violet, indigo, blue, cyan, teal, green, lime, yellow, orange."`
	SortOrder       int       `json:"sort_order" db:"sort_order"`
	TypeCount       int       `json:"type_count" db:"type_count"`
	ActiveTypeCount int       `json:"active_type_count" db:"active_type_count"`
	CreatedAt       time.Time `json:"created_at" db:"created_at"`
	UpdatedAt       time.Time `json:"updated_at" db:"updated_at"`
}

// CategoryRef is the category embedded in a type.
type CategoryRef struct {
	ID        int64  `json:"id" db:"id"`
	Name      string `json:"name" db:"name"`
	Colour    string `json:"colour" db:"colour" jsonschema_description:"A hex colour (#e03131) or a Mantine colour name: dark, gray, red, pink, grape, violet, indigo, blue, cyan, teal, green, lime, yellow, orange."`
	SortOrder int    `json:"sort_order" db:"sort_order"`
}

// Type is a violation type: what a student did and how many points it costs.
type Type struct {
	ID              int64       `json:"id" db:"id"`
	Name            string      `json:"name" db:"name"`
	Slug            string      `json:"slug" db:"slug"`
	Points          int         `json:"points" db:"points"`
	CategoryID      int64       `json:"category_id" db:"category_id"`
	Category        CategoryRef `json:"category" db:"category"`
	DefaultSanction string      `json:"default_sanction" db:"default_sanction"`
	Description     string      `json:"description" db:"description"`
	Active          bool        `json:"active" db:"active"`
	IsSystem        bool        `json:"is_system" db:"is_system" jsonschema_description:"alpha and terlambat: slug fixed, cannot be deleted or deactivated; the screen shows a lock badge"`
	CreatedAt       time.Time   `json:"created_at" db:"created_at"`
	UpdatedAt       time.Time   `json:"updated_at" db:"updated_at"`
}

// Threshold is a warning-letter (SP) level reached at MinPoints.
type Threshold struct {
	ID          int64     `json:"id" db:"id"`
	Level       int       `json:"level" db:"level"`
	Name        string    `json:"name" db:"name"`
	MinPoints   int       `json:"min_points" db:"min_points"`
	Colour      string    `json:"colour" db:"colour" jsonschema_description:"A hex colour (#e03131) or a Mantine colour name: dark, gray, red, pink, grape, violet, indigo, blue, cyan, teal, green, lime, yellow, orange."`
	DefaultText string    `json:"default_text" db:"default_text" jsonschema_description:"default body text of the letter"`
	UpdatedAt   time.Time `json:"updated_at" db:"updated_at"`
}

// HandlingType is a kind of follow-up (Teguran Lisan, Home Visit, ...).
type HandlingType struct {
	ID        int64  `json:"id" db:"id"`
	Name      string `json:"name" db:"name"`
	SortOrder int    `json:"sort_order" db:"sort_order"`
	Active    bool   `json:"active" db:"active"`
	// SummonsParent: recording a handling of this type summons the parent,
	// and queues the WhatsApp summons message (docs/parent-messaging.md).
	SummonsParent bool      `json:"summons_parent" db:"summons_parent" jsonschema_description:"recording a handling of this type summons the parent and queues the WhatsApp summons message"`
	CreatedAt     time.Time `json:"created_at" db:"created_at"`
	UpdatedAt     time.Time `json:"updated_at" db:"updated_at"`
}

// Mount registers the violation master-data routes.
func Mount(r *httpx.Router, d app.Deps) {
	NewHandler(NewStore(d.DB), d.Auth).Routes(r)
}

// Boot runs after migration, before serving: it creates the missing
// defaults (the demo school's own types are internal/demo's).
func Boot(ctx context.Context, d app.Deps) error {
	return pg.InTx(ctx, d.DB, func(tx *sqlx.Tx) error { return EnsureDefaults(ctx, tx) })
}
