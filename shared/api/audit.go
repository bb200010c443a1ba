package api

import (
	"encoding/json"
	"time"
)

// AuditEntry is one audit log line (GET /audit-log).
type AuditEntry struct {
	ID        int64     `json:"id" db:"id"`
	At        time.Time `json:"at" db:"at"`
	ActorID   *int64    `json:"actor_id" db:"actor_id"`
	ActorName string    `json:"actor_name" db:"actor_name" jsonschema_description:"username at the time, or system"`
	// ActorDisplayName is the person's name as the users table has it now,
	// so a reader sees "Budi Santoso" rather than "budi"; the username
	// (or "system") when there is no such user.
	ActorDisplayName string          `json:"actor_display_name" db:"actor_display_name" jsonschema_description:"the actor's name from their user account now; actor_name when there is no such user (system)"`
	Action           string          `json:"action" db:"action"`
	Entity           string          `json:"entity" db:"entity"`
	EntityID         string          `json:"entity_id" db:"entity_id"`
	Details          json.RawMessage `json:"details" db:"details" jsonschema:"type=object"`
	Address          string          `json:"address" db:"address"`
}
