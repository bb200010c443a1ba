package handling

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/parentmsg"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/schoolday"
	"github.com/tatib/tatib/server/internal/violation"
	"github.com/tatib/tatib/shared/api"
)

// Store writes handling records and moves violations' handling status.
type Store struct {
	db  *sqlx.DB
	now func() time.Time
}

// NewStore returns a Store.
func NewStore(db *sqlx.DB) *Store { return &Store{db: db, now: time.Now} }

// lockViolation locks the violation's row within the caller's scope and
// returns its handling status; outside the scope it is NotFound.
func lockViolation(ctx context.Context, tx *sqlx.Tx, sc violation.Scope, id int64) (string, error) {
	var a violation.Args
	idp := a.Add(id)
	var status string
	err := tx.GetContext(ctx, &status, `SELECT v.handling_status FROM violations v WHERE v.id = `+idp+` AND `+sc.SQL(&a)+` FOR UPDATE`, a...)
	if err != nil {
		return "", pg.Error(err, "violationlist.entity.violation")
	}
	return status, nil
}

func records(ctx context.Context, tx *sqlx.Tx, violationID int64) (int, error) {
	var n int
	if err := tx.GetContext(ctx, &n, `SELECT count(*) FROM violation_handlings WHERE violation_id = $1`, violationID); err != nil {
		return 0, fmt.Errorf("handling: count: %w", err)
	}
	return n, nil
}

func setStatus(ctx context.Context, tx *sqlx.Tx, id int64, status string) error {
	if _, err := tx.ExecContext(ctx, `UPDATE violations SET handling_status = $2, updated_at = now() WHERE id = $1`, id, status); err != nil {
		return fmt.Errorf("handling: status: %w", err)
	}
	return nil
}

// Create adds a handling record to a violation and moves an unhandled one
// to in_progress. A resolved violation is Conflict (reopen it first).
func (s *Store) Create(ctx context.Context, actor audit.Actor, sc violation.Scope, violationID int64, in api.CreateHandlingRequest) (api.Handling, error) {
	if err := validate(&in, schoolday.Of(s.now())); err != nil {
		return api.Handling{}, err
	}
	var out api.Handling
	err := pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		status, err := lockViolation(ctx, tx, sc, violationID)
		if err != nil {
			return err
		}
		if status == api.HandlingResolved {
			return apperr.New(apperr.Conflict, "handling.resolved")
		}
		if _, err := checkType(ctx, tx, in.HandlingTypeID); err != nil {
			return err
		}
		if err := userNames(ctx, tx, in.Participants); err != nil {
			return err
		}
		var id int64
		err = tx.GetContext(ctx, &id, `INSERT INTO handlings (violation_id, handling_type_id, handled_on, notes, follow_up_on, created_by, created_by_name)
			VALUES ($1, $2, $3::date, $4, $5::date, $6, $7) RETURNING id`,
			violationID, in.HandlingTypeID, in.HandledOn, in.Notes, in.FollowUpOn, nullID(actor.ID), actor.Display())
		if err != nil {
			return fmt.Errorf("handling: insert: %w", err)
		}
		if err := insertParticipants(ctx, tx, id, in.Participants); err != nil {
			return err
		}
		if status == api.HandlingUnhandled {
			if err := setStatus(ctx, tx, violationID, api.HandlingInProgress); err != nil {
				return err
			}
		}
		// A type that summons the parent queues their message.
		if err := parentmsg.SummonsTx(ctx, tx, id, actor.ID); err != nil {
			return err
		}
		if err := audit.Record(ctx, tx, actor, "handling.create", "violation", strconv.FormatInt(violationID, 10), map[string]any{
			"handling_id": id, "handling_type_id": in.HandlingTypeID, "handled_on": in.HandledOn, "follow_up_on": in.FollowUpOn,
			"participants": len(in.Participants), "status_before": status, "status_after": nextStatus(status),
		}); err != nil {
			return err
		}
		out, err = violation.Handling(ctx, tx, id)
		return err
	})
	return out, err
}

// checkType refuses a handling type that does not exist or is inactive,
// and says whether it summons the parent.
func checkType(ctx context.Context, tx *sqlx.Tx, typeID int64) (summons bool, err error) {
	var t struct {
		Active  bool `db:"active"`
		Summons bool `db:"summons_parent"`
	}
	err = tx.GetContext(ctx, &t, `SELECT active, summons_parent FROM handling_types WHERE id = $1`, typeID)
	if errors.Is(err, sql.ErrNoRows) {
		return false, apperr.New(apperr.Invalid, "handling.invalid").WithField("handling_type_id", "handling.type.not_found")
	}
	if err != nil {
		return false, fmt.Errorf("handling: type: %w", err)
	}
	if !t.Active {
		return false, apperr.New(apperr.Invalid, "handling.invalid").WithField("handling_type_id", "handling.type.inactive")
	}
	return t.Summons, nil
}

// insertParticipants stores a record's participants in the order given.
func insertParticipants(ctx context.Context, tx *sqlx.Tx, handlingID int64, ps []api.HandlingParticipant) error {
	if len(ps) == 0 {
		return nil
	}
	users := make([]sql.NullInt64, len(ps))
	names := make([]string, len(ps))
	roles := make([]string, len(ps))
	for i, p := range ps {
		if p.UserID != nil {
			users[i] = sql.NullInt64{Int64: *p.UserID, Valid: true}
		}
		names[i], roles[i] = p.Name, p.Role
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO handling_participants (handling_id, user_id, name, role)
		SELECT $1, u, n, r FROM unnest($2::bigint[], $3::text[], $4::text[]) WITH ORDINALITY AS p(u, n, r, i) ORDER BY i`,
		handlingID, pq.Array(users), pq.Array(names), pq.Array(roles)); err != nil {
		return fmt.Errorf("handling: participants: %w", err)
	}
	return nil
}

func nextStatus(s string) string {
	if s == api.HandlingUnhandled {
		return api.HandlingInProgress
	}
	return s
}

// userNames fills each participant that is a user with the user's name; a
// user who does not exist or is inactive is a field error.
func userNames(ctx context.Context, tx *sqlx.Tx, ps []api.HandlingParticipant) error {
	var ids []int64
	for _, p := range ps {
		if p.UserID != nil {
			ids = append(ids, *p.UserID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	var rows []struct {
		ID   int64  `db:"id"`
		Name string `db:"name"`
	}
	if err := tx.SelectContext(ctx, &rows, `SELECT id, name FROM users WHERE id = ANY($1) AND active`, pq.Array(ids)); err != nil {
		return fmt.Errorf("handling: users: %w", err)
	}
	names := make(map[int64]string, len(rows))
	for _, r := range rows {
		names[r.ID] = r.Name
	}
	f := apperr.Fields{}
	for i := range ps {
		if ps[i].UserID == nil {
			continue
		}
		n, ok := names[*ps[i].UserID]
		if !ok {
			f.Add("participants."+strconv.Itoa(i)+".user_id", "handling.participant.user_not_found")
			continue
		}
		ps[i].Name = n
	}
	if len(f) > 0 {
		return &apperr.Error{Code: apperr.Invalid, Msg: apperr.M("handling.invalid"), Fields: f}
	}
	return nil
}

func nullID(id int64) any {
	if id == 0 {
		return nil
	}
	return id
}

// Resolve marks a violation resolved (handled_at now, handled_by the
// actor). It needs at least one handling record; resolving twice is
// Conflict.
func (s *Store) Resolve(ctx context.Context, actor audit.Actor, sc violation.Scope, violationID int64) (api.Violation, error) {
	var out api.Violation
	err := pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		status, err := lockViolation(ctx, tx, sc, violationID)
		if err != nil {
			return err
		}
		if status == api.HandlingResolved {
			return apperr.New(apperr.Conflict, "handling.already_resolved")
		}
		n, err := records(ctx, tx, violationID)
		if err != nil {
			return err
		}
		if n == 0 {
			return apperr.New(apperr.Conflict, "handling.resolve_needs_record")
		}
		if _, err := tx.ExecContext(ctx, `UPDATE violations SET handling_status = 'resolved', handled_at = now(), handled_by = $2,
			updated_at = now() WHERE id = $1`, violationID, nullID(actor.ID)); err != nil {
			return fmt.Errorf("handling: resolve: %w", err)
		}
		if err := audit.Record(ctx, tx, actor, "violation.resolve", "violation", strconv.FormatInt(violationID, 10),
			map[string]any{"status_before": status, "status_after": api.HandlingResolved, "records": n}); err != nil {
			return err
		}
		out, err = violation.NewListStore(s.db).Get(ctx, tx, violation.Scope{}, violationID)
		return err
	})
	return out, err
}

// Reopen takes a resolved violation back to in_progress, or unhandled when
// it has no handling record, and clears handled_at and handled_by (the
// audit log keeps who resolved it). Anything not resolved is Conflict.
func (s *Store) Reopen(ctx context.Context, actor audit.Actor, sc violation.Scope, violationID int64) (api.Violation, error) {
	var out api.Violation
	err := pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		status, err := lockViolation(ctx, tx, sc, violationID)
		if err != nil {
			return err
		}
		if status != api.HandlingResolved {
			return apperr.New(apperr.Conflict, "handling.not_resolved")
		}
		var before struct {
			At *time.Time `db:"handled_at"`
			By *int64     `db:"handled_by"`
		}
		if err := tx.GetContext(ctx, &before, `SELECT handled_at, handled_by FROM violations WHERE id = $1`, violationID); err != nil {
			return fmt.Errorf("handling: reopen: %w", err)
		}
		n, err := records(ctx, tx, violationID)
		if err != nil {
			return err
		}
		next := api.HandlingInProgress
		if n == 0 {
			next = api.HandlingUnhandled
		}
		if _, err := tx.ExecContext(ctx, `UPDATE violations SET handling_status = $2, handled_at = NULL, handled_by = NULL,
			updated_at = now() WHERE id = $1`, violationID, next); err != nil {
			return fmt.Errorf("handling: reopen: %w", err)
		}
		// Whoever resolves it next, deleting a shared record that covers it
		// must not take that back.
		if _, err := tx.ExecContext(ctx, `UPDATE handling_violations SET resolved_here = false
			WHERE violation_id = $1 AND resolved_here`, violationID); err != nil {
			return fmt.Errorf("handling: reopen: %w", err)
		}
		if err := audit.Record(ctx, tx, actor, "violation.reopen", "violation", strconv.FormatInt(violationID, 10),
			map[string]any{"status_before": status, "status_after": next, "handled_at_before": before.At, "handled_by_before": before.By}); err != nil {
			return err
		}
		out, err = violation.NewListStore(s.db).Get(ctx, tx, violation.Scope{}, violationID)
		return err
	})
	return out, err
}

// Delete removes one handling record. When none is left and the violation
// is not resolved, it goes back to unhandled; a resolved one stays
// resolved. A shared record returns each of its violations to the status
// it had before (deleteShared).
func (s *Store) Delete(ctx context.Context, actor audit.Actor, sc violation.Scope, handlingID int64) error {
	return pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		var own *int64
		err := tx.GetContext(ctx, &own, `SELECT violation_id FROM handlings WHERE id = $1`, handlingID)
		if err != nil {
			return pg.Error(err, "handling.entity.handling")
		}
		if own == nil {
			return deleteShared(ctx, tx, actor, sc, handlingID)
		}
		violationID := *own
		status, err := lockViolation(ctx, tx, sc, violationID)
		if apperr.Code(err) == apperr.NotFound {
			return pg.Error(sql.ErrNoRows, "handling.entity.handling")
		}
		if err != nil {
			return err
		}
		h, err := violation.Handling(ctx, tx, handlingID)
		if err != nil {
			// Deleted by another request while this one waited for the lock.
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM handlings WHERE id = $1`, handlingID); err != nil {
			return fmt.Errorf("handling: delete: %w", err)
		}
		n, err := records(ctx, tx, violationID)
		if err != nil {
			return err
		}
		next := status
		if n == 0 && status == api.HandlingInProgress {
			next = api.HandlingUnhandled
			if err := setStatus(ctx, tx, violationID, next); err != nil {
				return err
			}
		}
		return audit.Record(ctx, tx, actor, "handling.delete", "violation", strconv.FormatInt(violationID, 10), map[string]any{
			"handling_id": handlingID, "handling_type": h.HandlingTypeName, "handled_on": h.HandledOn, "notes": h.Notes,
			"participants": h.Participants, "status_before": status, "status_after": next,
		})
	})
}
