package studentsync

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/locale"
	"github.com/tatib/tatib/server/internal/netguard"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/schoolday"
)

// Sync run states and triggers.
const (
	SyncRunning   = "running"
	SyncSucceeded = "succeeded"
	SyncFailed    = "failed"

	TriggerManual   = "manual"
	TriggerSchedule = "schedule"
	TriggerDemo     = "demo"
)

// staleAfter is how long a running sync may go without a heartbeat before
// the next start declares it dead (its server stopped).
const staleAfter = 2 * time.Minute

// syncDeadline bounds a whole sync run.
const syncDeadline = 15 * time.Minute

// SyncResult are a finished sync's counts.
type SyncResult struct {
	Fetched        int  `json:"fetched"`         // distinct students received
	Skipped        int  `json:"skipped"`         // records without id or name
	New            int  `json:"new"`             // students created
	Updated        int  `json:"updated"`         // students whose data changed
	Unchanged      int  `json:"unchanged"`       // students already up to date
	Deactivated    int  `json:"deactivated"`     // made inactive: absent from a complete sync, or status not active
	Relinked       int  `json:"relinked"`        // re-created in student affairs, found again by NISN or NIS
	Departments    int  `json:"departments"`     // departments in the source
	DepartmentsNew int  `json:"departments_new"` // of which created
	Classes        int  `json:"classes"`         // classes in the source
	ClassesNew     int  `json:"classes_new"`     // of which created
	Complete       bool `json:"complete"`        // every page and every student arrived
	// Warnings are rendered in the reader's language from WarningCodes;
	// runs stored before the catalogue hold Indonesian text only.
	Warnings     []string  `json:"warnings" jsonschema_description:"in the request's language"`
	WarningCodes []Message `json:"warning_codes"`
}

// warn adds a warning.
func (r *SyncResult) warn(key string, kv ...any) {
	r.WarningCodes = append(r.WarningCodes, msg(key, kv...))
}

// localize renders the warnings in lang.
func (r *SyncResult) localize(lang locale.Lang) {
	if r.WarningCodes == nil {
		r.WarningCodes = []Message{}
	}
	if len(r.WarningCodes) > 0 || r.Warnings == nil {
		r.Warnings = make([]string, len(r.WarningCodes))
		for i, m := range r.WarningCodes {
			r.Warnings[i] = m.Render(lang)
		}
	}
}

// SyncRun is one sync, running or finished, for the progress indicator.
type SyncRun struct {
	ID         int64       `json:"id" db:"id"`
	Status     string      `json:"status" db:"status" jsonschema:"enum=running,enum=succeeded,enum=failed"`
	Trigger    string      `json:"trigger" db:"trigger" jsonschema:"enum=manual,enum=schedule,enum=demo"`
	Phase      string      `json:"phase" db:"phase" jsonschema:"enum=fetching,enum=saving,enum=done"`
	ActorName  string      `json:"actor_name" db:"actor_name"`
	StartedAt  time.Time   `json:"started_at" db:"started_at"`
	FinishedAt *time.Time  `json:"finished_at" db:"finished_at"`
	PagesDone  int         `json:"pages_done" db:"pages_done"`
	PagesTotal int         `json:"pages_total" db:"pages_total"`
	Fetched    int         `json:"fetched" db:"fetched"`
	Expected   int         `json:"expected" db:"expected" jsonschema_description:"meta.total of the source"`
	Progress   int         `json:"progress" db:"-" jsonschema:"minimum=0,maximum=100"`
	Result     *SyncResult `json:"result" db:"-"`
	// Error is the failure in the reader's language, rendered from
	// ErrorCode and its parameters (runs stored before the catalogue keep
	// their Indonesian text).
	Error       string       `json:"error" db:"error" jsonschema_description:"what went wrong, for people, in the request's language (failed runs)"`
	ErrorCode   string       `json:"error_code" db:"error_code" jsonschema_description:"the catalogue key of error (empty for runs stored before it existed)"`
	ErrorParams StoredParams `json:"-" db:"error_params"`
	RawResult   []byte       `json:"-" db:"result"`
}

func (r *SyncRun) fill(lang locale.Lang) {
	if len(r.RawResult) > 2 {
		var res SyncResult
		if json.Unmarshal(r.RawResult, &res) == nil {
			res.localize(lang)
			r.Result = &res
		}
	}
	if r.ErrorCode != "" {
		r.Error = Message{Key: r.ErrorCode, Params: r.ErrorParams}.Render(lang)
	}
	switch {
	case r.Status != SyncRunning:
		r.Progress = 100
	case r.Phase == "saving":
		r.Progress = 95
	case r.PagesTotal > 0:
		r.Progress = min(90, 90*r.PagesDone/r.PagesTotal)
	}
}

const runColumns = `id, status, trigger, phase, actor_name, started_at, finished_at, pages_done, pages_total, fetched, expected, result, error, error_code, error_params`

// AfterSyncFunc runs inside a successful sync's transaction, after the
// students are stored (attendance applies its parked entries here).
type AfterSyncFunc func(ctx context.Context, tx *sqlx.Tx) error

// Syncer runs student syncs.
type Syncer struct {
	db  *sqlx.DB
	log *slog.Logger
	wg  sync.WaitGroup
	// allowLocal lets the connection reach loopback, link-local and
	// unspecified addresses (TATIB_ALLOW_LOCAL_SOURCES).
	allowLocal bool
	after      []AfterSyncFunc
}

// NewSyncer returns a Syncer; TATIB_ALLOW_LOCAL_SOURCES decides whether it
// may reach local addresses.
//
// after run, in order, in every successful sync's transaction, once the
// students are stored (the journal applies its parked entries there).
func NewSyncer(db *sqlx.DB, log *slog.Logger, after ...AfterSyncFunc) *Syncer {
	return &Syncer{db: db, log: log, allowLocal: netguard.LocalAllowed(), after: after}
}

// Wait blocks until every sync this Syncer started has finished.
func (s *Syncer) Wait() { s.wg.Wait() }

// Start records a running sync and runs it in the background. It refuses
// (Conflict) while another sync runs on any replica, and (Invalid) when no
// student-affairs URL is set.
func (s *Syncer) Start(ctx context.Context, actor audit.Actor, trigger string) (SyncRun, error) {
	cfg, err := LoadStudentAffairs(ctx, s.db)
	if err != nil {
		return SyncRun{}, err
	}
	if cfg.URL == "" {
		return SyncRun{}, apperr.New(apperr.Invalid, "school.sync.not_configured").WithField("url", "school.url.not_set")
	}
	run, err := s.begin(ctx, actor, trigger)
	if err != nil {
		return SyncRun{}, err
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		// The request that started the sync ends now; the sync does not.
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), syncDeadline)
		defer cancel()
		s.run(ctx, run.ID, actor, cfg)
	}()
	return run, nil
}

// RunNow runs a sync to its end and returns the finished run (the schedule
// and tests use it).
func (s *Syncer) RunNow(ctx context.Context, actor audit.Actor, trigger string) (SyncRun, error) {
	cfg, err := LoadStudentAffairs(ctx, s.db)
	if err != nil {
		return SyncRun{}, err
	}
	if cfg.URL == "" {
		return SyncRun{}, apperr.New(apperr.Invalid, "school.sync.not_configured")
	}
	run, err := s.begin(ctx, actor, trigger)
	if err != nil {
		return SyncRun{}, err
	}
	s.run(ctx, run.ID, actor, cfg)
	return GetSync(ctx, s.db, run.ID)
}

func (s *Syncer) begin(ctx context.Context, actor audit.Actor, trigger string) (SyncRun, error) {
	const stale = `UPDATE student_syncs SET status = 'failed', phase = 'done', finished_at = now(),
		error = '', error_code = 'school.sync.stale', error_params = '{}'
		WHERE status = 'running' AND heartbeat_at < now() - $1::interval`
	if _, err := s.db.ExecContext(ctx, stale, fmt.Sprintf("%d seconds", int(staleAfter.Seconds()))); err != nil {
		return SyncRun{}, fmt.Errorf("school: sync: clear stale: %w", err)
	}
	var actorID *int64
	if actor.ID != 0 {
		actorID = &actor.ID
	}
	var run SyncRun
	const q = `INSERT INTO student_syncs (trigger, actor_id, actor_name) VALUES ($1, $2, $3) RETURNING ` + runColumns
	err := s.db.GetContext(ctx, &run, q, trigger, actorID, actor.Name)
	if pg.IsUnique(err, "student_syncs_one_running") {
		var other SyncRun
		_ = s.db.GetContext(ctx, &other, `SELECT `+runColumns+` FROM student_syncs WHERE status = 'running'`)
		var by any = other.ActorName
		if other.ActorName == "" {
			by = locale.Key("school.actor_system")
		}
		return SyncRun{}, apperr.New(apperr.Conflict, "school.sync.running",
			"id", strconv.FormatInt(other.ID, 10), "time", schoolday.In(other.StartedAt).Format("15:04"), "by", by)
	}
	if err != nil {
		return SyncRun{}, fmt.Errorf("school: sync: begin: %w", err)
	}
	run.fill(locale.FromContext(ctx))
	return run, nil
}

// run fetches every page, then stores everything in one transaction, and
// records the outcome on the run row. Any failure leaves the students as
// they were.
func (s *Syncer) run(ctx context.Context, id int64, actor audit.Actor, cfg StudentAffairs) {
	hbCtx, stopHB := context.WithCancel(ctx)
	defer stopHB()
	go func() {
		t := time.NewTicker(staleAfter / 6)
		defer t.Stop()
		for {
			select {
			case <-hbCtx.Done():
				return
			case <-t.C:
				_, _ = s.db.ExecContext(hbCtx, `UPDATE student_syncs SET heartbeat_at = now() WHERE id = $1 AND status = 'running'`, id)
			}
		}
	}()

	progress := func(done, total, fetched, expected int) {
		const q = `UPDATE student_syncs SET pages_done = $2, pages_total = $3, fetched = $4, expected = $5, heartbeat_at = now() WHERE id = $1`
		if _, err := s.db.ExecContext(ctx, q, id, done, total, fetched, expected); err != nil {
			s.log.Warn("student sync: progress", "err", err)
		}
	}
	recs, res, err := fetchAll(ctx, cfg, s.allowLocal, progress)
	if err == nil {
		if _, err2 := s.db.ExecContext(ctx, `UPDATE student_syncs SET phase = 'saving', heartbeat_at = now() WHERE id = $1`, id); err2 != nil {
			s.log.Warn("student sync: phase", "err", err2)
		}
		err = pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
			if err := apply(ctx, tx, recs, &res, time.Now(), s.after); err != nil {
				return err
			}
			res.localize(locale.ID)
			if err := audit.Record(ctx, tx, actor, "students.sync", "student_sync", strconv.FormatInt(id, 10), res); err != nil {
				return err
			}
			b, _ := json.Marshal(res)
			const done = `UPDATE student_syncs SET status = 'succeeded', phase = 'done', finished_at = now(), result = $2, fetched = $3 WHERE id = $1`
			_, err := tx.ExecContext(ctx, done, id, string(b), res.Fetched)
			return err
		})
	}
	if err == nil {
		s.log.Info("student sync finished", "id", id, "new", res.New, "updated", res.Updated, "deactivated", res.Deactivated, "fetched", res.Fetched)
		return
	}
	m := failureMessage(err)
	if m.Key == "school.sync.save_failed" {
		s.log.Error("student sync failed", "id", id, "err", err)
	}
	// The run's own context may be what ended; the outcome is still written.
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	// The audit entry and the run's status in one transaction: whoever sees the run failed
	// also finds it in the audit log.
	const failed = `UPDATE student_syncs SET status = 'failed', phase = 'done', finished_at = now(), error = '', error_code = $2, error_params = $3
		WHERE id = $1`
	text := m.Render(locale.ID)
	if err := pg.InTx(wctx, s.db, func(tx *sqlx.Tx) error {
		if err := audit.Record(wctx, tx, actor, "students.sync.failed", "student_sync", strconv.FormatInt(id, 10),
			map[string]any{"error": text, "error_code": m.Key}); err != nil {
			return err
		}
		_, err := tx.ExecContext(wctx, failed, id, m.Key, m.Params)
		return err
	}); err != nil {
		s.log.Error("student sync: record failure with its audit entry", "id", id, "err", err)
		// The run must not stay "running": its status alone, then.
		if _, err := s.db.ExecContext(wctx, failed, id, m.Key, m.Params); err != nil {
			s.log.Error("student sync: record failure", "id", id, "err", err)
		}
	}
	s.log.Warn("student sync failed", "id", id, "error", text)
}

// failureMessage is what a failed run records: the source's own message,
// an application error's key, or for anything else (a database failure) a
// plain "could not be saved": its details are for the log only.
func failureMessage(err error) Message {
	var se *SourceError
	var ae *apperr.Error
	switch {
	case errors.As(err, &se):
		return se.Msg
	case errors.As(err, &ae):
		return Message{Key: ae.Msg.Key, Params: StoredParams(ae.Msg.Params)}
	default:
		return msg("school.sync.save_failed")
	}
}

// fetchAll pulls every page. It returns the distinct records (the last
// copy of an id wins) and a result with Fetched, Skipped, Complete set.
func fetchAll(ctx context.Context, cfg StudentAffairs, allowLocal bool, progress func(done, total, fetched, expected int)) ([]sourceStudent, SyncResult, error) {
	var res SyncResult
	src, err := newSource(cfg.URL, cfg.Token, allowLocal)
	if err != nil {
		return nil, res, err
	}
	defer src.close()
	byID := map[int64]int{}
	var recs []sourceStudent
	add := func(p *sourcePage) {
		res.Skipped += p.Skipped
		for _, r := range p.Records {
			if i, ok := byID[r.ID]; ok {
				recs[i] = r
				continue
			}
			byID[r.ID] = len(recs)
			recs = append(recs, r)
		}
	}
	first, err := src.fetch(ctx, 1, fetchPerPage)
	if err != nil {
		return nil, res, err
	}
	add(first)
	total, last := first.Total, first.LastPage
	expected := max(total, 0)
	progress(1, max(last, 1), len(recs), expected)
	page := 1
	for {
		more := (last > 0 && page < last) || (last == 0 && first.HasPaged && first.HasNext)
		if !more {
			break
		}
		if page >= 10000 {
			return nil, res, srcErr(KindWrongShape, "school.source.endless_paging", "pages", 10000)
		}
		page++
		p, err := src.fetch(ctx, page, fetchPerPage)
		if err != nil {
			return nil, res, err
		}
		if len(p.Records) == 0 && p.Skipped == 0 {
			break
		}
		add(p)
		first.HasNext = p.HasNext
		progress(page, max(last, page), len(recs), expected)
	}
	res.Fetched = len(recs)
	res.Complete = total < 0 || len(recs)+res.Skipped >= total
	if !res.Complete {
		res.warn("school.sync.incomplete", "total", total, "received", len(recs)+res.Skipped)
	}
	if res.Skipped > 0 {
		res.warn("school.sync.skipped", "count", res.Skipped)
	}
	return recs, res, nil
}

// syncLock serialises everything that writes students in bulk (a sync, the
// demo load) across replicas.
const syncLock = `SELECT pg_advisory_xact_lock(hashtext('tatib.students.sync'))`

// apply stores recs in tx: departments, classes, then students, set-based.
// When res.Complete, active students absent from recs become inactive.
// after then run in tx.
func apply(ctx context.Context, tx *sqlx.Tx, recs []sourceStudent, res *SyncResult, now time.Time, after []AfterSyncFunc) error {
	if _, err := tx.ExecContext(ctx, syncLock); err != nil {
		return fmt.Errorf("school: sync lock: %w", err)
	}
	if res.WarningCodes == nil {
		res.WarningCodes = []Message{}
	}
	if len(recs) == 0 {
		var active int
		if err := tx.GetContext(ctx, &active, `SELECT count(*) FROM students WHERE active`); err != nil {
			return err
		}
		if active > 0 {
			return apperr.New(apperr.Conflict, "school.sync.empty_source", "active", active)
		}
	}
	if err := applyDepartments(ctx, tx, recs, res); err != nil {
		return err
	}
	if err := applyClasses(ctx, tx, recs, res); err != nil {
		return err
	}
	if err := applyStudents(ctx, tx, recs, res, now); err != nil {
		return err
	}
	for _, h := range after {
		if err := h(ctx, tx); err != nil {
			return err
		}
	}
	return nil
}

func applyDepartments(ctx context.Context, tx *sqlx.Tx, recs []sourceStudent, res *SyncResult) error {
	names := map[string]string{}
	var codes []string
	for _, r := range recs {
		if r.DeptCode == "" {
			continue
		}
		if _, ok := names[r.DeptCode]; !ok {
			codes = append(codes, r.DeptCode)
			names[r.DeptCode] = ""
		}
		if names[r.DeptCode] == "" && r.DeptName != "" {
			names[r.DeptCode] = r.DeptName
		}
	}
	res.Departments = len(codes)
	if len(codes) == 0 {
		return nil
	}
	ns := make([]string, len(codes))
	for i, c := range codes {
		ns[i] = names[c]
	}
	const ins = `INSERT INTO departments (code, name)
		SELECT code, COALESCE(NULLIF(name, ''), code) FROM unnest($1::text[], $2::text[]) AS i(code, name)
		ON CONFLICT (code) DO NOTHING`
	r, err := tx.ExecContext(ctx, ins, pq.Array(codes), pq.Array(ns))
	if err != nil {
		return fmt.Errorf("school: sync departments: %w", err)
	}
	n, _ := r.RowsAffected()
	res.DepartmentsNew = int(n)
	const upd = `UPDATE departments d SET name = i.name, updated_at = now()
		FROM unnest($1::text[], $2::text[]) AS i(code, name)
		WHERE d.code = i.code AND i.name <> '' AND d.name <> i.name`
	if _, err := tx.ExecContext(ctx, upd, pq.Array(codes), pq.Array(ns)); err != nil {
		return fmt.Errorf("school: sync departments: %w", err)
	}
	return nil
}

func applyClasses(ctx context.Context, tx *sqlx.Tx, recs []sourceStudent, res *SyncResult) error {
	seen := map[string]bool{}
	var names, depts, years []string
	var grades []int64
	var srcIDs []int64
	noGrade := 0
	for _, r := range recs {
		if r.ClassName == "" || seen[r.ClassName] {
			continue
		}
		if r.Grade == 0 {
			noGrade++
			continue
		}
		seen[r.ClassName] = true
		names = append(names, r.ClassName)
		grades = append(grades, int64(r.Grade))
		depts = append(depts, r.DeptCode)
		years = append(years, r.AcademicYear)
		srcIDs = append(srcIDs, r.ClassSourceID)
	}
	if noGrade > 0 {
		res.warn("school.sync.classes_without_grade", "count", noGrade)
	}
	res.Classes = len(names)
	if len(names) == 0 {
		return nil
	}
	// A class renamed in student affairs (same classroom id) keeps its row,
	// and with it its homeroom teacher.
	const rename = `UPDATE classes c SET name = i.name, updated_at = now()
		FROM unnest($1::text[], $2::bigint[]) AS i(name, source_id)
		WHERE i.source_id <> 0 AND c.source_id = i.source_id AND c.name <> i.name
		  AND NOT EXISTS (SELECT 1 FROM classes x WHERE x.name = i.name)`
	if _, err := tx.ExecContext(ctx, rename, pq.Array(names), pq.Array(srcIDs)); err != nil {
		return fmt.Errorf("school: sync classes: rename: %w", err)
	}
	const input = `SELECT i.name, i.grade, d.id AS department_id, i.academic_year, NULLIF(i.source_id, 0) AS source_id
		FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::bigint[]) AS i(name, grade, dept, academic_year, source_id)
		LEFT JOIN departments d ON d.code = i.dept`
	r, err := tx.ExecContext(ctx, `INSERT INTO classes (name, grade, department_id, academic_year, source_id) `+input+`
		ON CONFLICT (name) DO NOTHING`, pq.Array(names), pq.Array(grades), pq.Array(depts), pq.Array(years), pq.Array(srcIDs))
	if err != nil {
		return fmt.Errorf("school: sync classes: insert: %w", err)
	}
	n, _ := r.RowsAffected()
	res.ClassesNew = int(n)
	const upd = `UPDATE classes c SET grade = n.grade, department_id = COALESCE(n.department_id, c.department_id),
			academic_year = COALESCE(NULLIF(n.academic_year, ''), c.academic_year),
			source_id = COALESCE(n.source_id, c.source_id), updated_at = now()
		FROM (` + input + `) AS n
		WHERE c.name = n.name AND (c.grade, c.department_id, c.academic_year, c.source_id) IS DISTINCT FROM
			(n.grade, COALESCE(n.department_id, c.department_id), COALESCE(NULLIF(n.academic_year, ''), c.academic_year), COALESCE(n.source_id, c.source_id))`
	if _, err := tx.ExecContext(ctx, upd, pq.Array(names), pq.Array(grades), pq.Array(depts), pq.Array(years), pq.Array(srcIDs)); err != nil {
		return fmt.Errorf("school: sync classes: update: %w", err)
	}
	return nil
}

func applyStudents(ctx context.Context, tx *sqlx.Tx, recs []sourceStudent, res *SyncResult, now time.Time) error {
	n := len(recs)
	ids := make([]int64, n)
	nisn, nis, name, gender, pob, dob, addr, phone, email, class, parent, parentPhone, photo := make([]string, n), make([]string, n),
		make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n),
		make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	active := make([]bool, n)
	for i, r := range recs {
		ids[i], nisn[i], nis[i], name[i], gender[i], pob[i], dob[i] = r.ID, r.NISN, r.NIS, r.FullName, r.Gender, r.PlaceOfBirth, r.DateOfBirth
		addr[i], phone[i], email[i], class[i], parent[i], parentPhone[i], photo[i] = r.Address, r.Phone, r.Email, r.ClassName, r.ParentName, r.ParentPhone, r.PhotoPath
		active[i] = r.Active
	}

	// Re-link: a student re-created in student affairs gets a new id; the
	// stored student whose old id is gone and whose NISN (else NIS) matches
	// takes the new id, keeping its history. One-to-one only.
	for _, key := range []string{"nisn", "nis"} {
		vals := nisn
		cond := `i.key <> ''`
		if key == "nis" {
			vals = nis
			cond = `i.key <> '' AND (i.nisn = '' OR s.nisn = '')`
		}
		q := `UPDATE students s SET source_id = m.new_id, updated_at = now()
			FROM (
				SELECT s.id, i.source_id AS new_id,
					row_number() OVER (PARTITION BY s.id ORDER BY i.source_id) AS rs,
					count(*) OVER (PARTITION BY i.source_id) AS ci
				FROM unnest($1::bigint[], $2::text[], $3::text[]) AS i(source_id, key, nisn)
				JOIN students s ON s.` + key + ` = i.key
				WHERE ` + cond + `
				  AND NOT EXISTS (SELECT 1 FROM students x WHERE x.source_id = i.source_id)
				  AND NOT (s.source_id = ANY($1::bigint[]))
			) m
			WHERE s.id = m.id AND m.rs = 1 AND m.ci = 1`
		r, err := tx.ExecContext(ctx, q, pq.Array(ids), pq.Array(vals), pq.Array(nisn))
		if err != nil {
			return fmt.Errorf("school: sync students: relink by %s: %w", key, err)
		}
		k, _ := r.RowsAffected()
		res.Relinked += int(k)
	}

	// The source is authoritative, except that an empty NISN, NIS, class,
	// parent name or parent phone keeps what is stored. The parent's name
	// and phone always land in synced_parent_*; they reach parent_name and
	// parent_phone only while the contact follows student affairs
	// (parent_contact_source 'sync'): a staff edit survives the sync.
	const upsert = `WITH i AS (
			SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
				$9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[], $15::boolean[])
			AS t(source_id, nisn, nis, full_name, gender, place_of_birth, dob, address, phone, email, class_name, parent_name, parent_phone, photo_path, active)
		),
		prev AS (SELECT s.source_id, s.active FROM students s JOIN i USING (source_id)),
		up AS (
			INSERT INTO students AS s (source_id, nisn, nis, full_name, gender, place_of_birth, date_of_birth, address, phone, email,
				class_id, parent_name, parent_phone, synced_parent_name, synced_parent_phone, photo_path, active, synced_at)
			SELECT i.source_id, i.nisn, i.nis, i.full_name, i.gender, i.place_of_birth, NULLIF(i.dob, '')::date, i.address, i.phone, i.email,
				c.id, i.parent_name, i.parent_phone, i.parent_name, i.parent_phone, i.photo_path, i.active, $16
			FROM i LEFT JOIN classes c ON c.name = i.class_name
			ON CONFLICT (source_id) DO UPDATE SET
				nisn = COALESCE(NULLIF(EXCLUDED.nisn, ''), s.nisn),
				nis = COALESCE(NULLIF(EXCLUDED.nis, ''), s.nis),
				full_name = EXCLUDED.full_name, gender = EXCLUDED.gender, place_of_birth = EXCLUDED.place_of_birth,
				date_of_birth = EXCLUDED.date_of_birth, address = EXCLUDED.address, phone = EXCLUDED.phone, email = EXCLUDED.email,
				class_id = COALESCE(EXCLUDED.class_id, s.class_id),
				parent_name = CASE WHEN s.parent_contact_source = 'sync' THEN COALESCE(NULLIF(EXCLUDED.parent_name, ''), s.parent_name) ELSE s.parent_name END,
				parent_phone = CASE WHEN s.parent_contact_source = 'sync' THEN COALESCE(NULLIF(EXCLUDED.parent_phone, ''), s.parent_phone) ELSE s.parent_phone END,
				synced_parent_name = COALESCE(NULLIF(EXCLUDED.synced_parent_name, ''), s.synced_parent_name),
				synced_parent_phone = COALESCE(NULLIF(EXCLUDED.synced_parent_phone, ''), s.synced_parent_phone),
				photo_path = EXCLUDED.photo_path, active = EXCLUDED.active, updated_at = now()
			WHERE (s.nisn, s.nis, s.full_name, s.gender, s.place_of_birth, s.date_of_birth, s.address, s.phone, s.email,
					s.class_id, s.parent_name, s.parent_phone, s.synced_parent_name, s.synced_parent_phone, s.photo_path, s.active)
				IS DISTINCT FROM
				(COALESCE(NULLIF(EXCLUDED.nisn, ''), s.nisn), COALESCE(NULLIF(EXCLUDED.nis, ''), s.nis), EXCLUDED.full_name, EXCLUDED.gender,
					EXCLUDED.place_of_birth, EXCLUDED.date_of_birth, EXCLUDED.address, EXCLUDED.phone, EXCLUDED.email,
					COALESCE(EXCLUDED.class_id, s.class_id),
					CASE WHEN s.parent_contact_source = 'sync' THEN COALESCE(NULLIF(EXCLUDED.parent_name, ''), s.parent_name) ELSE s.parent_name END,
					CASE WHEN s.parent_contact_source = 'sync' THEN COALESCE(NULLIF(EXCLUDED.parent_phone, ''), s.parent_phone) ELSE s.parent_phone END,
					COALESCE(NULLIF(EXCLUDED.synced_parent_name, ''), s.synced_parent_name),
					COALESCE(NULLIF(EXCLUDED.synced_parent_phone, ''), s.synced_parent_phone), EXCLUDED.photo_path, EXCLUDED.active)
			RETURNING s.source_id, (s.xmax = 0) AS inserted, s.active
		)
		SELECT count(*) FILTER (WHERE up.inserted),
			count(*) FILTER (WHERE NOT up.inserted),
			count(*) FILTER (WHERE NOT up.inserted AND prev.active AND NOT up.active)
		FROM up LEFT JOIN prev USING (source_id)`
	var newN, updN, deactN int
	err := tx.QueryRowxContext(ctx, upsert, pq.Array(ids), pq.Array(nisn), pq.Array(nis), pq.Array(name), pq.Array(gender), pq.Array(pob),
		pq.Array(dob), pq.Array(addr), pq.Array(phone), pq.Array(email), pq.Array(class), pq.Array(parent), pq.Array(parentPhone),
		pq.Array(photo), pq.Array(active), now).Scan(&newN, &updN, &deactN)
	if err != nil {
		return fmt.Errorf("school: sync students: upsert: %w", err)
	}
	res.New, res.Updated, res.Deactivated = newN, updN, deactN
	res.Unchanged = n - newN - updN
	if _, err := tx.ExecContext(ctx, `UPDATE students SET synced_at = $2 WHERE source_id = ANY($1::bigint[])`, pq.Array(ids), now); err != nil {
		return fmt.Errorf("school: sync students: synced_at: %w", err)
	}
	if res.Complete {
		r, err := tx.ExecContext(ctx, `UPDATE students SET active = false, updated_at = now()
			WHERE active AND NOT (source_id = ANY($1::bigint[]))`, pq.Array(ids))
		if err != nil {
			return fmt.Errorf("school: sync students: deactivate: %w", err)
		}
		k, _ := r.RowsAffected()
		res.Deactivated += int(k)
	}
	return nil
}

// GetSync returns one sync run.
func GetSync(ctx context.Context, q sqlx.QueryerContext, id int64) (SyncRun, error) {
	var r SyncRun
	err := sqlx.GetContext(ctx, q, &r, `SELECT `+runColumns+` FROM student_syncs WHERE id = $1`, id)
	if err != nil {
		return r, pg.Error(err, "entity.sync_run")
	}
	r.fill(locale.FromContext(ctx))
	return r, nil
}

// LatestSync returns the newest run, or nil when none ever ran.
func LatestSync(ctx context.Context, q sqlx.QueryerContext) (*SyncRun, error) {
	var r SyncRun
	err := sqlx.GetContext(ctx, q, &r, `SELECT `+runColumns+` FROM student_syncs ORDER BY started_at DESC, id DESC LIMIT 1`)
	if err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, nil
		}
		return nil, fmt.Errorf("school: latest sync: %w", err)
	}
	r.fill(locale.FromContext(ctx))
	return &r, nil
}

// ListSyncs returns a page of runs, newest first.
func ListSyncs(ctx context.Context, q sqlx.QueryerContext, limit, offset int) ([]SyncRun, int, error) {
	var rows []struct {
		SyncRun
		Total int `db:"total"`
	}
	err := sqlx.SelectContext(ctx, q, &rows, `SELECT `+runColumns+`, count(*) OVER () AS total FROM student_syncs
		ORDER BY started_at DESC, id DESC LIMIT $1 OFFSET $2`, limit, offset)
	if err != nil {
		return nil, 0, fmt.Errorf("school: list syncs: %w", err)
	}
	out := make([]SyncRun, 0, len(rows))
	total := 0
	for _, r := range rows {
		r.SyncRun.fill(locale.FromContext(ctx))
		out = append(out, r.SyncRun)
		total = r.Total
	}
	return out, total, nil
}

// TestResult answers "Test connection". Error is in the request's
// language and describes the answer in Tatib's words (its status, the
// shape expected and the kind of thing seen), never with the remote side's
// text.
type TestResult struct {
	OK        bool   `json:"ok"`
	Count     int    `json:"count,omitempty"`
	Error     string `json:"error,omitempty" jsonschema_description:"in the request's language"`
	ErrorCode string `json:"error_code,omitempty"`
	Kind      string `json:"kind,omitempty" jsonschema:"enum=bad_url,enum=dns,enum=refused,enum=timeout,enum=tls,enum=network,enum=not_http,enum=local,enum=unauthorized,enum=forbidden,enum=not_found,enum=http_status,enum=not_json,enum=wrong_shape,enum=not_configured"`
	Status    int    `json:"status,omitempty" jsonschema_description:"the HTTP status the source answered, when it answered one"`
}

// TestConnection asks the first page with per_page=1 and reports
// meta.total (or the number of records when the source gives no total),
// or what went wrong. Unless allowLocal, loopback, link-local and
// unspecified addresses are refused.
func TestConnection(ctx context.Context, cfg StudentAffairs, allowLocal bool) TestResult {
	lang := locale.FromContext(ctx)
	fail := func(se *SourceError) TestResult {
		return TestResult{Error: se.Msg.Render(lang), ErrorCode: se.Msg.Key, Kind: se.Kind, Status: se.Status}
	}
	if cfg.URL == "" {
		return fail(srcErr(KindNotSet, "school.url.not_set"))
	}
	src, err := newSource(cfg.URL, cfg.Token, allowLocal)
	if err != nil {
		var se *SourceError
		errors.As(err, &se)
		return fail(se)
	}
	defer src.close()
	p, err := src.fetch(ctx, 1, 1)
	if err != nil {
		var se *SourceError
		if !errors.As(err, &se) {
			se = srcErr(KindNetwork, "school.source.network", "host", src.base.Host)
		}
		return fail(se)
	}
	n := p.Total
	if n < 0 {
		n = len(p.Records) + p.Skipped
	}
	return TestResult{OK: true, Count: n}
}
