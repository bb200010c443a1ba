// Package datareset empties the data sets an administrator chooses, in one
// transaction, and re-creates the defaults (docs/data-safety.md, "Selective
// reset"). The audit log is never among them: the reset is written to it.
package datareset

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/erasure"
	"github.com/tatib/tatib/server/internal/locale"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/server/internal/violationtype"
	"github.com/tatib/tatib/shared/api"
)

// lockSQL serialises resets: two never interleave, on any replica.
const lockSQL = `SELECT pg_advisory_xact_lock(hashtext('tatib.datareset'))`

// beforeCommit, when set (tests only), runs inside the reset's transaction
// after everything is written and before the commit.
var beforeCommit func(ctx context.Context, tx *sqlx.Tx) error

// Store reads and resets the data sets.
type Store struct {
	db *sqlx.DB
}

// NewStore returns a Store.
func NewStore(db *sqlx.DB) *Store { return &Store{db: db} }

// Info is GET /admin/reset: every set with its rows per table (counted in
// one statement), the school's name and the last backup that finished.
func (s *Store) Info(ctx context.Context) (api.ResetInfo, error) {
	counts, err := count(ctx, s.db)
	if err != nil {
		return api.ResetInfo{}, err
	}
	out := api.ResetInfo{Sets: make([]api.ResetSet, 0, len(sets))}
	for _, st := range display() {
		rs := api.ResetSet{ID: st.ID, Label: locale.T(ctx, "datareset.set."+st.ID), Description: locale.T(ctx, "datareset.set."+st.ID+".description"),
			Rows: map[string]int64{}, Requires: append([]string{}, st.Requires...)}
		for _, t := range st.Tables {
			n := counts[st.ID+"/"+t.Name]
			rs.Rows[t.Name] += n
			rs.Total += n
		}
		out.Sets = append(out.Sets, rs)
	}
	p, err := school.LoadProfile(ctx, s.db)
	if err != nil {
		return api.ResetInfo{}, err
	}
	out.SchoolName = p.Name
	var b api.Backup
	const q = `SELECT id, started_at, finished_at, status, size_bytes, sha256, filename, via, error, created_by_name
		FROM backups WHERE status = 'done' ORDER BY finished_at DESC NULLS LAST, id DESC LIMIT 1`
	switch err := s.db.GetContext(ctx, &b, q); {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return api.ResetInfo{}, fmt.Errorf("datareset: last backup: %w", err)
	default:
		out.LastBackup = &b
	}
	return out, nil
}

// display is the order the screen lists the sets in: the school's
// everyday records first, the foundations (students, types, users) last.
func display() []set {
	order := []string{api.ResetViolations, api.ResetAttendance, api.ResetNotifications, api.ResetParentMessages,
		api.ResetStudents, api.ResetViolationTypes, api.ResetUsers}
	out := make([]set, 0, len(sets))
	for _, id := range order {
		if st, ok := lookup(id); ok {
			out = append(out, st)
		}
	}
	// A set added to the registry and not to order still shows.
	for _, st := range sets {
		if !slices.Contains(order, st.ID) {
			out = append(out, st)
		}
	}
	return out
}

// SetIDs are the sets' ids in display order: the values POST /admin/reset
// accepts (the document's ResetSetID).
func SetIDs() []string {
	ds := display()
	out := make([]string, len(ds))
	for i, st := range ds {
		out[i] = st.ID
	}
	return out
}

// count answers every set's rows per table, keyed "set/table", in one
// statement.
func count(ctx context.Context, q sqlx.QueryerContext) (map[string]int64, error) {
	var parts []string
	for _, st := range sets {
		for _, t := range st.Tables {
			parts = append(parts, fmt.Sprintf(`SELECT %s AS k, (%s) AS n`, pq.QuoteLiteral(st.ID+"/"+t.Name), t.countSQL()))
		}
	}
	rows, err := q.QueryxContext(ctx, strings.Join(parts, " UNION ALL "))
	if err != nil {
		return nil, fmt.Errorf("datareset: count: %w", err)
	}
	defer rows.Close()
	out := map[string]int64{}
	for rows.Next() {
		var k string
		var n int64
		if err := rows.Scan(&k, &n); err != nil {
			return nil, fmt.Errorf("datareset: count: %w", err)
		}
		out[k] = n
	}
	return out, rows.Err()
}

// Choose validates the chosen set ids into f (field "sets"): not empty,
// each known, every set each one requires chosen too (the message names
// the sets to add). It answers the sets in the order the reset runs them;
// nil when f got an error.
func Choose(f apperr.Fields, ids []string) []set {
	if len(ids) == 0 {
		f.Add("sets", "datareset.sets_required")
		return nil
	}
	for _, id := range ids {
		if _, ok := lookup(id); !ok {
			f.Add("sets", "datareset.set_unknown", "set", id)
			return nil
		}
	}
	var missing []string
	for _, id := range ids {
		st, _ := lookup(id)
		for _, r := range st.Requires {
			if !slices.Contains(ids, r) && !slices.Contains(missing, r) {
				missing = append(missing, r)
			}
		}
	}
	if len(missing) > 0 {
		names := locale.Texts{}
		for _, l := range locale.Languages {
			var ls []string
			for _, m := range missing {
				ls = append(ls, locale.Render(l, "datareset.set."+m, nil))
			}
			names[l] = strings.Join(ls, ", ")
		}
		f.Add("sets", "datareset.sets_missing", "sets", names, "missing", strings.Join(missing, ","))
		return nil
	}
	var out []set
	for _, st := range sets {
		if slices.Contains(ids, st.ID) {
			out = append(out, st)
		}
	}
	return out
}

// busy turns a deadlock (a recording that locked the same tables in
// another order) into a Conflict the admin can simply retry: the whole
// transaction was rolled back, nothing was removed.
func busy(err error) error {
	var pe *pq.Error
	if errors.As(err, &pe) && (pe.Code == "40P01" || pe.Code == "55P03") {
		return apperr.New(apperr.Conflict, "datareset.busy")
	}
	return err
}

// defaultNames are what violationtype.EnsureDefaults creates, in the order
// defaultsSQL counts them.
var defaultNames = []string{"violation_categories", "sp_thresholds", "handling_types", "system_types"}

type defaultCounts [4]int64

// missing reports whether EnsureDefaults would create default i: a table
// empty, or fewer system types than there are.
func (c defaultCounts) missing(i int) bool {
	if i == 3 {
		return c[i] < int64(len(violationtype.SystemTypes))
	}
	return c[i] == 0
}

func defaults(ctx context.Context, q sqlx.QueryerContext) (defaultCounts, error) {
	const q1 = `SELECT (SELECT count(*) FROM violation_categories), (SELECT count(*) FROM sp_thresholds),
		(SELECT count(*) FROM handling_types), (SELECT count(*) FROM violation_types WHERE is_system)`
	var c defaultCounts
	if err := q.QueryRowxContext(ctx, q1).Scan(&c[0], &c[1], &c[2], &c[3]); err != nil {
		return c, fmt.Errorf("datareset: defaults: %w", err)
	}
	return c, nil
}

// Reset empties the chosen sets (validated by Choose) in one transaction,
// re-creates the defaults and writes the audit entry. Sequences are not
// restarted: an id is never given twice, so an old link, export or audit
// entry never lands on a new record.
//
// A reset waits for the journal pushes in flight (it takes the student
// sync's lock, whose shared form every push holds) and keeps new ones out
// until it commits. A deadlock it still loses is retried here, a few
// times, before the admin is told to try again.
func (s *Store) Reset(ctx context.Context, actor audit.Actor, chosen []set) (api.ResetResult, error) {
	var (
		res api.ResetResult
		err error
	)
	for attempt := 1; ; attempt++ {
		res, err = s.reset(ctx, actor, chosen)
		if err == nil || !pg.Retryable(err) || attempt == pg.RetryAttempts {
			return res, busy(err)
		}
		select {
		case <-ctx.Done():
			return res, busy(err)
		case <-time.After(time.Duration(attempt) * 50 * time.Millisecond):
		}
	}
}

// studentsLock is the student sync's lock (school.syncLock); journal
// pushes hold its shared form.
const studentsLock = `SELECT pg_advisory_xact_lock(hashtext('tatib.students.sync'))`

func (s *Store) reset(ctx context.Context, actor audit.Actor, chosen []set) (api.ResetResult, error) {
	res := api.ResetResult{Sets: []string{}, Removed: map[string]int64{}, Recreated: []string{}}
	for _, st := range chosen {
		res.Sets = append(res.Sets, st.ID)
	}
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return res, fmt.Errorf("datareset: begin: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, lockSQL); err != nil {
		return res, fmt.Errorf("datareset: lock: %w", err)
	}
	if _, err := tx.ExecContext(ctx, studentsLock); err != nil {
		return res, fmt.Errorf("datareset: wait for pushes: %w", err)
	}
	start, err := defaults(ctx, tx)
	if err != nil {
		return res, err
	}
	// EnsureDefaults takes violationtype's lock; taking it now, before any
	// table, keeps the order every violationtype writer takes them in (its
	// lock, then the tables), so an import running meanwhile cannot
	// deadlock with the reset. It creates nothing that is already there.
	if err := violationtype.EnsureDefaults(ctx, tx); err != nil {
		return res, err
	}
	// Nobody writes to what is being emptied until the commit: a violation
	// recorded meanwhile would otherwise point at a student being deleted.
	// Readers go on.
	if _, err := tx.ExecContext(ctx, `LOCK TABLE `+strings.Join(tables(chosen), ", ")+` IN EXCLUSIVE MODE`); err != nil {
		return res, fmt.Errorf("datareset: lock tables: %w", err)
	}
	for _, st := range chosen {
		for _, t := range st.Tables {
			r, err := tx.ExecContext(ctx, t.deleteSQL())
			if err != nil {
				return res, fmt.Errorf("datareset: %s: %s: %w", st.ID, t.Name, err)
			}
			n, err := r.RowsAffected()
			if err != nil {
				return res, fmt.Errorf("datareset: %s: %s: %w", st.ID, t.Name, err)
			}
			res.Removed[t.Name] += n
		}
		for _, q := range st.After {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return res, fmt.Errorf("datareset: %s: %w", st.ID, err)
			}
		}
	}
	mid, err := defaults(ctx, tx)
	if err != nil {
		return res, err
	}
	if err := violationtype.EnsureDefaults(ctx, tx); err != nil {
		return res, err
	}
	// A default missing when the reset began (the first EnsureDefaults
	// brought it back) or emptied by it counts as re-created.
	for i, name := range defaultNames {
		if start.missing(i) || mid.missing(i) {
			res.Recreated = append(res.Recreated, name)
		}
	}
	details := map[string]any{"sets": res.Sets, "removed": res.Removed, "recreated": res.Recreated}
	if err := audit.Record(ctx, tx, actor, "data.reset", "data", "", details); err != nil {
		return res, err
	}
	if err := erasure.Record(ctx, tx, erasure.DataReset, map[string]any{"sets": res.Sets}); err != nil {
		return res, err
	}
	if err := tx.GetContext(ctx, &res.AuditID, `SELECT currval(pg_get_serial_sequence('audit_log', 'id'))`); err != nil {
		return res, fmt.Errorf("datareset: audit id: %w", err)
	}
	if beforeCommit != nil {
		if err := beforeCommit(ctx, tx); err != nil {
			return res, err
		}
	}
	if err := tx.Commit(); err != nil {
		return res, fmt.Errorf("datareset: commit: %w", err)
	}
	return res, nil
}
