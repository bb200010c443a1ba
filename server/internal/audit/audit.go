// Package audit records who did what to users, roles, settings and the
// other things a school needs to answer for.
package audit

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/tatib/tatib/shared/api"
)

// Actor is the person (or system) behind a change.
type Actor struct {
	ID      int64  // 0 for the system
	Name    string // username, or "system"
	Address string // client address
	// DisplayName is the person's name, for records people read
	// (handling authors, letter history, point history).
	DisplayName string
}

// Display is the name to show people: the person's name, else Name.
func (a Actor) Display() string {
	if a.DisplayName != "" {
		return a.DisplayName
	}
	return a.Name
}

// Entry is one audit log line, as GET /audit-log sends it.
type Entry = api.AuditEntry

// Record writes one entry through q, so it commits or rolls back with the
// change it describes.
func Record(ctx context.Context, q sqlx.ExecerContext, a Actor, action, entity, entityID string, details any) error {
	if details == nil {
		details = map[string]any{}
	}
	b, err := json.Marshal(details)
	if err != nil {
		return fmt.Errorf("audit: marshal: %w", err)
	}
	var actorID *int64
	if a.ID != 0 {
		actorID = &a.ID
	}
	const q1 = `INSERT INTO audit_log (actor_id, actor_name, action, entity, entity_id, details, address)
		VALUES ($1, $2, $3, $4, $5, $6, $7)`
	if _, err := q.ExecContext(ctx, q1, actorID, a.Name, action, entity, entityID, string(b), a.Address); err != nil {
		return fmt.Errorf("audit: record: %w", err)
	}
	return nil
}

// RecordEach writes one entry per entity id, each with its own details
// (details[i] for ids[i]), in one statement through q: the per-record
// trail of a batch change (each automatic violation a save removed), so
// each record's history is found by its entity and id.
func RecordEach(ctx context.Context, q sqlx.ExecerContext, a Actor, action, entity string, ids []string, details []any) error {
	if len(ids) == 0 {
		return nil
	}
	if len(details) != len(ids) {
		return fmt.Errorf("audit: %d details for %d ids", len(details), len(ids))
	}
	docs := make([]string, len(ids))
	for i, d := range details {
		if d == nil {
			d = map[string]any{}
		}
		b, err := json.Marshal(d)
		if err != nil {
			return fmt.Errorf("audit: marshal: %w", err)
		}
		docs[i] = string(b)
	}
	var actorID *int64
	if a.ID != 0 {
		actorID = &a.ID
	}
	const q1 = `INSERT INTO audit_log (actor_id, actor_name, action, entity, entity_id, details, address)
		SELECT $1, $2, $3, $4, u.id, u.details, $5
		FROM unnest($6::text[], $7::jsonb[]) WITH ORDINALITY AS u(id, details, n) ORDER BY u.n`
	if _, err := q.ExecContext(ctx, q1, actorID, a.Name, action, entity, a.Address, pq.Array(ids), pq.Array(docs)); err != nil {
		return fmt.Errorf("audit: record each: %w", err)
	}
	return nil
}

// LastID is the id of the entry this session's last Record wrote (in the
// same transaction), for entries that point at it.
func LastID(ctx context.Context, q sqlx.QueryerContext) (int64, error) {
	var id int64
	if err := sqlx.GetContext(ctx, q, &id, `SELECT currval(pg_get_serial_sequence('audit_log', 'id'))`); err != nil {
		return 0, fmt.Errorf("audit: last id: %w", err)
	}
	return id, nil
}

// List returns the newest entries, optionally for one entity kind and,
// within it, one entity id (the history of one record, e.g. violation 12).
func List(ctx context.Context, db sqlx.QueryerContext, entity, entityID string, limit, offset int) ([]Entry, int, error) {
	const q = `SELECT a.id, a.at, a.actor_id, a.actor_name,
		COALESCE(NULLIF(u.name, ''), a.actor_name) AS actor_display_name,
		a.action, a.entity, a.entity_id, a.details, a.address,
		count(*) OVER () AS total
		FROM audit_log a LEFT JOIN users u ON u.id = a.actor_id
		WHERE ($1 = '' OR a.entity = $1) AND ($4 = '' OR a.entity_id = $4) ORDER BY a.at DESC, a.id DESC LIMIT $2 OFFSET $3`
	rows, err := db.QueryxContext(ctx, q, entity, limit, offset, entityID)
	if err != nil {
		return nil, 0, fmt.Errorf("audit: list: %w", err)
	}
	defer rows.Close()
	out := []Entry{}
	total := 0
	for rows.Next() {
		var e Entry
		if err := rows.Scan(&e.ID, &e.At, &e.ActorID, &e.ActorName, &e.ActorDisplayName, &e.Action, &e.Entity, &e.EntityID, &e.Details, &e.Address, &total); err != nil {
			return nil, 0, fmt.Errorf("audit: scan: %w", err)
		}
		out = append(out, e)
	}
	return out, total, rows.Err()
}
