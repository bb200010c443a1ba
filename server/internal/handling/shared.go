package handling

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"

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

// MaxViolations is the most violations one shared record covers: a
// class's lateness over a few weeks fits, and a request stays one short
// transaction.
const MaxViolations = 500

// idList is the distinct violation ids of a request, ascending, with the
// index each first appeared at (field errors name that index, never a
// student).
type idList struct {
	ids []int64
	at  map[int64]int
}

// validateShared checks in as validate checks a record of one violation,
// and its violation ids: at least one, each positive, at most
// MaxViolations distinct; duplicates are ignored.
func validateShared(in *api.CreateSharedHandlingRequest, today string) (idList, error) {
	rec := api.CreateHandlingRequest{HandlingTypeID: in.HandlingTypeID, HandledOn: in.HandledOn, Notes: in.Notes, Participants: in.Participants}
	f := apperr.Fields{}
	if err := validate(&rec, today); err != nil {
		e, ok := apperr.As(err)
		if !ok {
			return idList{}, err
		}
		f = e.Fields
	}
	in.HandledOn, in.Notes, in.Participants = rec.HandledOn, rec.Notes, rec.Participants
	l := idList{at: map[int64]int{}}
	for i, id := range in.ViolationIDs {
		if _, ok := l.at[id]; !ok {
			l.at[id] = i
			l.ids = append(l.ids, id)
		}
	}
	switch {
	case len(l.ids) == 0:
		f.Add("violation_ids", "handling.violations.required")
	case len(l.ids) > MaxViolations:
		f.Add("violation_ids", "handling.violations.too_many", "max", MaxViolations)
	default:
		for _, id := range l.ids {
			if id <= 0 {
				f.Add("violation_ids."+strconv.Itoa(l.at[id]), "handling.violation.not_found")
			}
		}
	}
	if len(f) > 0 {
		return idList{}, &apperr.Error{Code: apperr.Invalid, Msg: apperr.M("handling.invalid"), Fields: f}
	}
	slices.Sort(l.ids)
	return l, nil
}

// covered is a violation a shared record covers, as locked.
type covered struct {
	ID        int64  `db:"id"`
	StudentID int64  `db:"student_id"`
	Status    string `db:"handling_status"`
}

func idsOf(vs []covered) []int64 {
	out := make([]int64, len(vs))
	for i, v := range vs {
		out[i] = v.ID
	}
	return out
}

func studentCount(vs []covered) int {
	seen := map[int64]bool{}
	for _, v := range vs {
		seen[v.StudentID] = true
	}
	return len(seen)
}

// byStatus groups ids by status for the audit log.
func byStatus(vs []covered) map[string][]int64 {
	out := map[string][]int64{}
	for _, v := range vs {
		out[v.Status] = append(out[v.Status], v.ID)
	}
	return out
}

// lockViolations locks, in id order, the violations of ids that the caller
// may see. The order makes two requests over overlapping sets wait for
// each other instead of deadlocking.
func lockViolations(ctx context.Context, tx *sqlx.Tx, sc violation.Scope, ids []int64) ([]covered, error) {
	var a violation.Args
	p := a.Add(pq.Array(ids))
	var out []covered
	if err := tx.SelectContext(ctx, &out, `SELECT v.id, v.student_id, v.handling_status FROM violations v
		WHERE v.id = ANY(`+p+`) AND `+sc.SQL(&a)+` ORDER BY v.id FOR UPDATE OF v`, a...); err != nil {
		return nil, fmt.Errorf("handling: lock violations: %w", err)
	}
	return out, nil
}

// checkCovered refuses ids the caller cannot see (or that do not exist),
// as one field error per id naming its index only, and resolved ones,
// which take no new record (Conflict: reopen them first).
func checkCovered(l idList, vs []covered) error {
	found := make(map[int64]string, len(vs))
	for _, v := range vs {
		found[v.ID] = v.Status
	}
	missing, resolved := apperr.Fields{}, apperr.Fields{}
	for _, id := range l.ids {
		field := "violation_ids." + strconv.Itoa(l.at[id])
		switch st, ok := found[id]; {
		case !ok:
			missing.Add(field, "handling.violation.not_found")
		case st == api.HandlingResolved:
			resolved.Add(field, "handling.violation.resolved")
		}
	}
	if len(missing) > 0 {
		return &apperr.Error{Code: apperr.Invalid, Msg: apperr.M("handling.violations.not_found", "n", len(missing)), Fields: missing}
	}
	if len(resolved) > 0 {
		return &apperr.Error{Code: apperr.Conflict, Msg: apperr.M("handling.violations.resolved", "n", len(resolved)), Fields: resolved}
	}
	return nil
}

// sharedRecord is what a shared record says.
type sharedRecord struct {
	TypeID       int64
	HandledOn    string
	Notes        string
	Participants []api.HandlingParticipant
}

// checkSummons refuses a type that summons the parent for the violations of
// several students: the summons message goes to one student's parent
// (one message per record), so each student gets their own record.
func checkSummons(summons bool, vs []covered) error {
	if summons && studentCount(vs) > 1 {
		return apperr.New(apperr.Invalid, "handling.invalid").WithField("handling_type_id", "handling.type.summons_one_student")
	}
	return nil
}

// insertShared writes a shared record covering vs (locked, none resolved):
// each keeps the status it had before, and an unhandled one moves to
// in_progress, as a first record moves it.
func insertShared(ctx context.Context, tx *sqlx.Tx, actor audit.Actor, rec sharedRecord, vs []covered) (int64, error) {
	var id int64
	err := tx.GetContext(ctx, &id, `INSERT INTO handlings (violation_id, handling_type_id, handled_on, notes, created_by, created_by_name)
		VALUES (NULL, $1, $2::date, $3, $4, $5) RETURNING id`,
		rec.TypeID, rec.HandledOn, rec.Notes, nullID(actor.ID), actor.Display())
	if err != nil {
		return 0, fmt.Errorf("handling: insert shared: %w", err)
	}
	if err := insertParticipants(ctx, tx, id, rec.Participants); err != nil {
		return 0, err
	}
	ids := idsOf(vs)
	before := make([]string, len(vs))
	for i, v := range vs {
		before[i] = v.Status
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO handling_violations (handling_id, violation_id, status_before)
		SELECT $1, v, s FROM unnest($2::bigint[], $3::text[]) AS x(v, s)`, id, pq.Array(ids), pq.Array(before)); err != nil {
		return 0, fmt.Errorf("handling: link violations: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE violations SET handling_status = 'in_progress', updated_at = now()
		WHERE id = ANY($1) AND handling_status = 'unhandled'`, pq.Array(ids)); err != nil {
		return 0, fmt.Errorf("handling: status: %w", err)
	}
	// A type that summons the parent queues their message (one student:
	// checkSummons).
	if err := parentmsg.SummonsTx(ctx, tx, id, actor.ID); err != nil {
		return 0, err
	}
	return id, nil
}

// resolveCovered resolves ids (locked, not resolved) through the shared
// record handlingID, which remembers it did so: deleting the record takes
// back only what it resolved.
func resolveCovered(ctx context.Context, tx *sqlx.Tx, actor audit.Actor, handlingID int64, ids []int64) error {
	if _, err := tx.ExecContext(ctx, `UPDATE violations SET handling_status = 'resolved', handled_at = now(), handled_by = $2,
		updated_at = now() WHERE id = ANY($1)`, pq.Array(ids), nullID(actor.ID)); err != nil {
		return fmt.Errorf("handling: resolve: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE handling_violations SET resolved_here = true
		WHERE handling_id = $1 AND violation_id = ANY($2)`, handlingID, pq.Array(ids)); err != nil {
		return fmt.Errorf("handling: resolve: %w", err)
	}
	return nil
}

// lockCovered locks, in id order, the violations the record handlingID
// covers (a record of one violation covers that one). A record that does
// not exist, or one covering a violation outside the caller's scope, is
// NotFound: it is not theirs to change.
func lockCovered(ctx context.Context, tx *sqlx.Tx, sc violation.Scope, handlingID int64) ([]covered, error) {
	var a violation.Args
	h := a.Add(handlingID)
	var rows []struct {
		covered
		Visible bool `db:"visible"`
	}
	if err := tx.SelectContext(ctx, &rows, `SELECT v.id, v.student_id, v.handling_status, `+sc.SQL(&a)+` AS visible
		FROM violations v WHERE v.id IN (SELECT vh.violation_id FROM violation_handlings vh WHERE vh.handling_id = `+h+`)
		ORDER BY v.id FOR UPDATE OF v`, a...); err != nil {
		return nil, fmt.Errorf("handling: lock covered: %w", err)
	}
	// Deleted by another request while this one waited for the locks.
	var exists bool
	if err := tx.GetContext(ctx, &exists, `SELECT EXISTS (SELECT 1 FROM handlings WHERE id = $1)`, handlingID); err != nil {
		return nil, fmt.Errorf("handling: lock covered: %w", err)
	}
	if !exists || len(rows) == 0 {
		return nil, pg.Error(sql.ErrNoRows, "handling.entity.handling")
	}
	out := make([]covered, len(rows))
	for i, r := range rows {
		if !r.Visible {
			return nil, pg.Error(sql.ErrNoRows, "handling.entity.handling")
		}
		out[i] = r.covered
	}
	return out, nil
}

// readShared reads a record with its participants and the violations it
// covers that the caller may see.
func readShared(ctx context.Context, tx *sqlx.Tx, sc violation.Scope, id int64) (api.Handling, error) {
	h, err := violation.Handling(ctx, tx, id)
	if err != nil {
		return h, err
	}
	hs := []api.Handling{h}
	if err := violation.Covers(ctx, tx, sc, hs); err != nil {
		return h, err
	}
	return hs[0], nil
}

// CreateShared records one handling record covering every violation
// in.ViolationIDs names (of one student or of several). Each moves as for
// a first record: unhandled → in_progress. An id the caller cannot see is
// Invalid naming its index; a resolved violation is Conflict naming its
// index; nothing is written then.
func (s *Store) CreateShared(ctx context.Context, actor audit.Actor, sc violation.Scope, in api.CreateSharedHandlingRequest) (api.Handling, error) {
	l, err := validateShared(&in, schoolday.Of(s.now()))
	if err != nil {
		return api.Handling{}, err
	}
	var out api.Handling
	err = pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		vs, err := lockViolations(ctx, tx, sc, l.ids)
		if err != nil {
			return err
		}
		if err := checkCovered(l, vs); err != nil {
			return err
		}
		summons, err := checkType(ctx, tx, in.HandlingTypeID)
		if err != nil {
			return err
		}
		if err := checkSummons(summons, vs); err != nil {
			return err
		}
		if err := userNames(ctx, tx, in.Participants); err != nil {
			return err
		}
		id, err := insertShared(ctx, tx, actor, sharedRecord{TypeID: in.HandlingTypeID, HandledOn: in.HandledOn, Notes: in.Notes, Participants: in.Participants}, vs)
		if err != nil {
			return err
		}
		if err := audit.Record(ctx, tx, actor, "handling.create", "handling", strconv.FormatInt(id, 10), map[string]any{
			"violation_ids": l.ids, "count": len(vs), "students": studentCount(vs), "handling_type_id": in.HandlingTypeID,
			"handled_on": in.HandledOn, "participants": len(in.Participants), "status_before": byStatus(vs),
		}); err != nil {
			return err
		}
		out, err = readShared(ctx, tx, sc, id)
		return err
	})
	return out, err
}

// ResolveShared resolves every violation the record covers that is not
// resolved yet (handled_at now, handled_by the caller). All of them
// resolved already is Conflict.
func (s *Store) ResolveShared(ctx context.Context, actor audit.Actor, sc violation.Scope, handlingID int64) (api.Handling, error) {
	var out api.Handling
	err := pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		vs, err := lockCovered(ctx, tx, sc, handlingID)
		if err != nil {
			return err
		}
		var open []int64
		for _, v := range vs {
			if v.Status != api.HandlingResolved {
				open = append(open, v.ID)
			}
		}
		if len(open) == 0 {
			return apperr.New(apperr.Conflict, "handling.all_resolved")
		}
		if err := resolveCovered(ctx, tx, actor, handlingID, open); err != nil {
			return err
		}
		if err := audit.Record(ctx, tx, actor, "handling.resolve", "handling", strconv.FormatInt(handlingID, 10), map[string]any{
			"violation_ids": open, "count": len(open), "already_resolved": len(vs) - len(open),
		}); err != nil {
			return err
		}
		out, err = readShared(ctx, tx, sc, handlingID)
		return err
	})
	return out, err
}

// deleteShared deletes a shared record and returns each violation it
// covers to the status it had before the record: unhandled, or
// in_progress when it had another record. Records added or deleted since
// decide over what was stored (a violation with a record left is
// in_progress, one with none unhandled). A violation this record resolved
// is reopened the same way; one resolved on its own since stays resolved,
// as deleting a record of a resolved violation leaves it resolved.
func deleteShared(ctx context.Context, tx *sqlx.Tx, actor audit.Actor, sc violation.Scope, handlingID int64) error {
	vs, err := lockCovered(ctx, tx, sc, handlingID)
	if err != nil {
		return err
	}
	h, err := violation.Handling(ctx, tx, handlingID)
	if err != nil {
		return err
	}
	var links []struct {
		ViolationID  int64  `db:"violation_id"`
		StatusBefore string `db:"status_before"`
		ResolvedHere bool   `db:"resolved_here"`
	}
	if err := tx.SelectContext(ctx, &links, `SELECT violation_id, status_before, resolved_here FROM handling_violations
		WHERE handling_id = $1`, handlingID); err != nil {
		return fmt.Errorf("handling: delete shared: %w", err)
	}
	resolvedHere := make(map[int64]bool, len(links))
	before := map[string][]int64{}
	for _, l := range links {
		resolvedHere[l.ViolationID] = l.ResolvedHere
		before[l.StatusBefore] = append(before[l.StatusBefore], l.ViolationID)
	}
	var restore []int64
	for _, v := range vs {
		if v.Status == api.HandlingInProgress || (v.Status == api.HandlingResolved && resolvedHere[v.ID]) {
			restore = append(restore, v.ID)
		}
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM handlings WHERE id = $1`, handlingID); err != nil {
		return fmt.Errorf("handling: delete shared: %w", err)
	}
	var changed []struct {
		ID     int64  `db:"id"`
		Status string `db:"handling_status"`
	}
	if err := tx.SelectContext(ctx, &changed, `WITH next AS (
			SELECT v.id, CASE WHEN EXISTS (SELECT 1 FROM violation_handlings vh WHERE vh.violation_id = v.id)
				THEN 'in_progress' ELSE 'unhandled' END AS status
			FROM violations v WHERE v.id = ANY($1))
		UPDATE violations v SET handling_status = next.status, handled_at = NULL, handled_by = NULL, updated_at = now()
		FROM next WHERE next.id = v.id AND v.handling_status <> next.status
		RETURNING v.id, v.handling_status`, pq.Array(restore)); err != nil {
		return fmt.Errorf("handling: delete shared: restore: %w", err)
	}
	after := make(map[int64]string, len(changed))
	for _, c := range changed {
		after[c.ID] = c.Status
	}
	now := make([]covered, len(vs))
	for i, v := range vs {
		now[i] = v
		if st, ok := after[v.ID]; ok {
			now[i].Status = st
		}
	}
	return audit.Record(ctx, tx, actor, "handling.delete", "handling", strconv.FormatInt(handlingID, 10), map[string]any{
		"handling_type": h.HandlingTypeName, "handled_on": h.HandledOn, "notes": h.Notes, "participants": h.Participants,
		"violation_ids": idsOf(vs), "count": len(vs), "status_before": before, "status_after": byStatus(now),
	})
}
