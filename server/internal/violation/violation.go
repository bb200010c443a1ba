// Package violation records violations (one or more types for one student
// at once, with evidence photos), deletes and verifies them, answers a
// student's points and lists the point audit. What a change of points
// brings with it (the point audit, the warning letters, the parents'
// messages, the notifications) is the ledger's, package points: recording
// and deleting decide their change and hand it to points.Apply in their
// own transaction, as attendance does with its automatic violations.
package violation

import (
	"context"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/app"
	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/auth"
	"github.com/tatib/tatib/server/internal/httpx"
)

// Limits of one recording.
const (
	MaxTypes          = 20
	MaxLocation       = 200
	MaxDescription    = 5000
	MaxSanction       = 1000
	MaxPhotos         = 5
	MaxPhotoBytes     = 10 << 20
	MaxPhotoPixels    = 40_000_000
	MaxPhotoSide      = 1600
	MaxThumbnailSide  = 320
	futureSkew        = 5 * time.Minute
	photoCacheSeconds = 86400
)

// MaxRequestBytes is the largest body POST /violations accepts: five
// photos at their limit plus the form and the multipart envelope. The
// server's general upload limit (TATIB_MAX_UPLOAD_BYTES, 8 MiB) is raised to
// this for that route only (see api.New).
const MaxRequestBytes = MaxPhotos*MaxPhotoBytes + 1<<20

// Mount registers the routes.
func Mount(r *httpx.Router, d app.Deps) {
	NewHandler(NewStore(d.DB), d.Auth).Routes(r)
	NewListHandler(NewListStore(d.DB)).Routes(r)
}

// Scope limits what a caller sees: a homeroom teacher (HomeroomID != 0)
// sees a violation when the student is in their class now or the
// violation's class (as it was that day) is theirs. Every query of this
// package puts it in its WHERE clause.
type Scope struct {
	HomeroomID int64
}

// ScopeOf returns the caller's scope.
func ScopeOf(ctx context.Context) Scope {
	return Scope{HomeroomID: auth.HomeroomID(ctx)}
}

// Item is one type of a recording; Points, when set, replaces the type's
// points (attendance computes alpha points from the hours missed).
type Item struct {
	TypeID   int64
	Points   *int
	Sanction string
}

// Record is one recording: one violation per item, sharing the rest.
type Record struct {
	StudentID   int64
	Items       []Item
	OccurredAt  time.Time
	Location    string
	Description string
	// Sanction applies to every item without its own; empty takes the
	// type's default sanction.
	Sanction string
	// Source is manual (the form) or attendance; only attendance may use
	// the system types (alpha, terlambat).
	Source string
	// RecordedBy is the recorder (nil: the system); RecordedByName is kept
	// beside it.
	RecordedBy     *int64
	RecordedByName string
	// Scope: a homeroom teacher may record only for their own class.
	Scope Scope
	// Photos are already re-encoded (PreparePhoto); each violation of the
	// recording gets them.
	Photos []Photo
	// Now is the clock (zero: time.Now()).
	Now time.Time
	// CaseID links the violations to the case they were recorded in.
	CaseID *int64
	// Before, when set, runs first in Store.Record's transaction: the
	// case's checks (cases.RecordViolation), so they and the recording
	// are one change.
	Before func(ctx context.Context, tx *sqlx.Tx) error
}

// Validate checks what needs no database: the types' count and
// distinctness, the time and the text lengths.
func (in *Record) Validate(f apperr.Fields) {
	if in.StudentID <= 0 {
		f.Add("student_id", "violation.student.required")
	}
	switch {
	case len(in.Items) == 0:
		f.Add("type_ids", "violation.types.required")
	case len(in.Items) > MaxTypes:
		f.Add("type_ids", "violation.types.too_many", "max", MaxTypes)
	default:
		seen := map[int64]bool{}
		for _, it := range in.Items {
			if it.TypeID <= 0 {
				f.Add("type_ids", "violation.types.not_found", "id", it.TypeID)
				break
			}
			if seen[it.TypeID] {
				f.Add("type_ids", "violation.types.duplicate")
				break
			}
			seen[it.TypeID] = true
		}
	}
	now := in.now()
	if in.OccurredAt.IsZero() {
		in.OccurredAt = now
	}
	if in.OccurredAt.After(now.Add(futureSkew)) {
		f.Add("occurred_at", "violation.occurred_at.future")
	}
	in.Location = strings.TrimSpace(in.Location)
	in.Description = strings.TrimSpace(in.Description)
	in.Sanction = strings.TrimSpace(in.Sanction)
	if utf8.RuneCountInString(in.Location) > MaxLocation {
		f.Add("location", "violation.location.too_long", "max", MaxLocation)
	}
	if utf8.RuneCountInString(in.Description) > MaxDescription {
		f.Add("description", "violation.description.too_long", "max", MaxDescription)
	}
	if utf8.RuneCountInString(in.Sanction) > MaxSanction {
		f.Add("sanction", "violation.sanction.too_long", "max", MaxSanction)
	}
	if in.Source == "" {
		in.Source = "manual"
	}
}

func (in *Record) now() time.Time {
	if in.Now.IsZero() {
		return time.Now()
	}
	return in.Now
}
