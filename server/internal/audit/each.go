package audit

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
)

// RecordEach writes one entry per entity id, each with its own details, in
// one statement through q: a batch (a week's letters printed at once)
// leaves the same trail as the same changes made one by one.
func RecordEach(ctx context.Context, q sqlx.ExecerContext, a Actor, action, entity string, ids []string, details []any) error {
	if len(ids) != len(details) {
		return fmt.Errorf("audit: %d ids, %d details", len(ids), len(details))
	}
	if len(ids) == 0 {
		return nil
	}
	docs := make([]string, len(details))
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
		SELECT $1, $2, $3, $4, u.id, u.details::jsonb, $7
		FROM unnest($5::text[], $6::text[]) WITH ORDINALITY AS u(id, details, n) ORDER BY u.n`
	if _, err := q.ExecContext(ctx, q1, actorID, a.Name, action, entity, pq.Array(ids), pq.Array(docs), a.Address); err != nil {
		return fmt.Errorf("audit: record: %w", err)
	}
	return nil
}
