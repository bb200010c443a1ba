package api

import "time"

// Reset data sets (docs/data-safety.md).
const (
	ResetViolations     = "violations"
	ResetAttendance     = "attendance"
	ResetNotifications  = "notifications"
	ResetParentMessages = "parent_messages"
	ResetStudents       = "students"
	ResetViolationTypes = "violation_types"
	ResetUsers          = "users"
)

// ResetSet is one data set as GET /admin/reset answers it.
type ResetSet struct {
	ID          string `json:"id" openapi:"ResetSetID"`
	Label       string `json:"label"`
	Description string `json:"description"`
	// Rows is how many rows resetting the set removes, per table.
	Rows  map[string]int64 `json:"rows" jsonschema_description:"table name -> rows resetting this set removes"`
	Total int64            `json:"total"`
	// Requires are the sets that must be reset with this one.
	Requires []string `json:"requires" openapi:"ResetSetID"`
}

// ResetInfo is GET /admin/reset.
type ResetInfo struct {
	Sets       []ResetSet `json:"sets"`
	SchoolName string     `json:"school_name"`
	LastBackup *Backup    `json:"last_backup" jsonschema_description:"the newest backup with status done"`
}

// ResetRequest is POST /admin/reset.
type ResetRequest struct {
	Sets       []string `json:"sets" jsonschema:"required" openapi:"ResetSetID"`
	SchoolName string   `json:"school_name" jsonschema:"required"`
	Password   string   `json:"password" jsonschema:"required,format=password"`
}

// ResetResult says what was removed and re-created.
type ResetResult struct {
	Sets      []string         `json:"sets" openapi:"ResetSetID"`
	Removed   map[string]int64 `json:"removed" jsonschema_description:"table name -> rows removed"`
	Recreated []string         `json:"recreated" jsonschema:"enum=violation_categories,enum=sp_thresholds,enum=handling_types,enum=system_types"`
	AuditID   int64            `json:"audit_id"`
}

// Backup is one backup as GET /admin/backups lists it.
type Backup struct {
	ID            int64      `json:"id" db:"id"`
	StartedAt     time.Time  `json:"started_at" db:"started_at"`
	FinishedAt    *time.Time `json:"finished_at" db:"finished_at"`
	Status        string     `json:"status" db:"status" jsonschema:"enum=running,enum=done,enum=failed"`
	SizeBytes     int64      `json:"size_bytes" db:"size_bytes"`
	SHA256        string     `json:"sha256" db:"sha256" jsonschema_description:"hex, of the whole file; empty unless done"`
	Filename      string     `json:"filename" db:"filename"`
	Via           string     `json:"via" db:"via" jsonschema:"enum=browser,enum=desktop,enum=cli"`
	Error         string     `json:"error" db:"error" jsonschema_description:"why it failed (pg_dump's exit code and the end of what it said)"`
	CreatedByName string     `json:"created_by_name" db:"created_by_name" jsonschema_description:"who asked; sistem (cli) from the command line"`
}

// BackupList is GET /admin/backups.
type BackupList struct {
	Data []Backup `json:"data"`
	// PgDump is the pg_dump found on the server ("" when none: the screen
	// says what to install).
	PgDump        string `json:"pg_dump" jsonschema_description:"the pg_dump the server runs; empty when none is usable"`
	PgDumpVersion string `json:"pg_dump_version" jsonschema:"example=15.18"`
	Install       string `json:"install,omitempty" jsonschema_description:"what to install when pg_dump is empty"`
}
