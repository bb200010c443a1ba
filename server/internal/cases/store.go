package cases

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/locale"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/schoolday"
	"github.com/tatib/tatib/shared/api"
)

// SettingsKey is the settings row of the stage durations.
const SettingsKey = "cases.stage_days"

// Reader is who reads or changes a case: what decides their level in SQL.
type Reader struct {
	UserID int64
	Name   string
	Admin  bool
	// Manage: the reader holds cases.manage.
	Manage bool
	// HomeroomID is the user id of a homeroom teacher, 0 for others.
	HomeroomID int64
}

// levelExpr is what reader $1..$4 (user id, admin, manage, homeroom id)
// may see of case c: full, managed, homeroom, or NULL (nothing).
const levelExpr = `CASE
	WHEN $2::boolean OR EXISTS (SELECT 1 FROM case_team t WHERE t.case_id = c.id AND t.user_id = $1::bigint) THEN 'full'
	WHEN $3::boolean THEN 'managed'
	WHEN $4::bigint > 0 AND EXISTS (SELECT 1 FROM case_participants p JOIN students s ON s.id = p.student_id JOIN classes k ON k.id = s.class_id
		WHERE p.case_id = c.id AND k.homeroom_teacher_id = $4::bigint) THEN 'homeroom'
	END`

const visibleCTE = `WITH visible AS (SELECT c.*, ` + levelExpr + ` AS level FROM cases c)`

func (r Reader) args(more ...any) []any {
	return append([]any{r.UserID, r.Admin, r.Manage, r.HomeroomID}, more...)
}

// Store reads and writes cases.
type Store struct {
	db  *sqlx.DB
	now func() time.Time
}

// NewStore returns a Store.
func NewStore(db *sqlx.DB) *Store { return &Store{db: db, now: time.Now} }

func (s *Store) today() string { return schoolday.Of(s.now()) }

// ListFilter narrows the case list.
type ListFilter struct {
	Stage      string
	CategoryID int64
	Overdue    bool
	Limit      int
	Offset     int
}

// summaryCols are a case's list columns from visible c; $5 is today.
const summaryCols = `c.id, c.level,
	CASE WHEN c.level = 'homeroom' THEN '' ELSE c.title END AS title,
	c.occurred_at, c.category_id, cc.name AS category_name, c.source, c.classification, c.stage,
	COALESCE(ou.name, '') AS stage_owner_name, to_char(st.due_on, 'YYYY-MM-DD') AS stage_due_on,
	COALESCE(st.due_on < $5::date AND st.completed_at IS NULL, false) AS overdue,
	(SELECT count(*) FROM case_participants p LEFT JOIN students s ON s.id = p.student_id LEFT JOIN classes k ON k.id = s.class_id
		WHERE p.case_id = c.id AND (c.level <> 'homeroom' OR k.homeroom_teacher_id = $4::bigint)) AS participants`

const summaryFrom = `FROM visible c JOIN case_categories cc ON cc.id = c.category_id
	LEFT JOIN case_stages st ON st.case_id = c.id AND st.stage = c.stage
	LEFT JOIN users ou ON ou.id = st.owner_id`

// List returns the cases the reader may see, newest first, and logs each
// as read.
func (s *Store) List(ctx context.Context, rd Reader, f ListFilter) ([]api.CaseSummary, int, error) {
	q := visibleCTE + ` SELECT ` + summaryCols + `, count(*) OVER () AS total ` + summaryFrom + `
		WHERE c.level IS NOT NULL AND ($6 = '' OR c.stage = $6) AND ($7 = 0 OR c.category_id = $7)
			AND (NOT $8::boolean OR (st.due_on < $5::date AND st.completed_at IS NULL))
		ORDER BY c.occurred_at DESC, c.id DESC LIMIT $9 OFFSET $10`
	var rows []struct {
		api.CaseSummary
		Total int `db:"total"`
	}
	out := []api.CaseSummary{}
	total := 0
	err := pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		if err := tx.SelectContext(ctx, &rows, q, rd.args(s.today(), f.Stage, f.CategoryID, f.Overdue, f.Limit, f.Offset)...); err != nil {
			return fmt.Errorf("cases: list: %w", err)
		}
		ids := make([]int64, len(rows))
		levels := make([]string, len(rows))
		for i, r := range rows {
			out = append(out, r.CaseSummary)
			total = r.Total
			ids[i], levels[i] = r.ID, r.Level
		}
		return logReads(ctx, tx, rd, ids, levels, "list")
	})
	return out, total, err
}

// logReads writes one access-log row per case read.
func logReads(ctx context.Context, tx *sqlx.Tx, rd Reader, ids []int64, levels []string, what string) error {
	if len(ids) == 0 {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO case_access_log (case_id, user_id, user_name, what, level)
		SELECT id, $3, $4, $5, lvl FROM unnest($1::bigint[], $2::text[]) AS r(id, lvl)`,
		pq.Array(ids), pq.Array(levels), nullID(rd.UserID), rd.Name, what); err != nil {
		return fmt.Errorf("cases: access log: %w", err)
	}
	return nil
}

func nullID(id int64) sql.NullInt64 { return sql.NullInt64{Int64: id, Valid: id > 0} }

// level is what rd may see of case id; NotFound when nothing.
func level(ctx context.Context, q sqlx.QueryerContext, rd Reader, id int64) (string, error) {
	var lvl sql.NullString
	err := sqlx.GetContext(ctx, q, &lvl, visibleCTE+` SELECT c.level FROM visible c WHERE c.id = $5`, rd.args(id)...)
	if err != nil {
		return "", pg.Error(err, "cases.entity.case")
	}
	if !lvl.Valid {
		return "", apperr.New(apperr.NotFound, "db.not_found", "what", locale.Key("cases.entity.case"))
	}
	return lvl.String, nil
}

// Get returns case id as rd may see it and logs the read as what.
func (s *Store) Get(ctx context.Context, rd Reader, id int64, what string) (api.Case, error) {
	var out api.Case
	err := pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		var err error
		out, err = s.get(ctx, tx, rd, id)
		if err != nil {
			return err
		}
		return logReads(ctx, tx, rd, []int64{id}, []string{out.Level}, what)
	})
	return out, err
}

func (s *Store) get(ctx context.Context, tx *sqlx.Tx, rd Reader, id int64) (api.Case, error) {
	var row struct {
		api.CaseSummary
		Place       string         `db:"place"`
		Description sql.NullString `db:"description"`
		CreatedAt   time.Time      `db:"created_at"`
		CreatedBy   string         `db:"created_by"`
	}
	q := visibleCTE + ` SELECT ` + summaryCols + `,
		CASE WHEN c.level = 'homeroom' THEN '' ELSE c.place END AS place,
		CASE WHEN c.level = 'full' THEN c.description END AS description,
		c.created_at, COALESCE(cu.name, '') AS created_by ` + summaryFrom + `
		LEFT JOIN users cu ON cu.id = c.created_by
		WHERE c.level IS NOT NULL AND c.id = $6`
	if err := tx.GetContext(ctx, &row, q, rd.args(s.today(), id)...); err != nil {
		return api.Case{}, pg.Error(err, "cases.entity.case")
	}
	out := api.Case{CaseSummary: row.CaseSummary, Place: row.Place, CreatedAt: row.CreatedAt, CreatedBy: row.CreatedBy,
		Stages: []api.CaseStage{}, Team: []api.CaseTeamMember{}, People: []api.CaseParticipant{}}
	if row.Description.Valid {
		out.Description = &row.Description.String
	}
	out.CanEdit = out.Level == api.CaseLevelFull && (rd.Admin || rd.Manage)
	if err := tx.SelectContext(ctx, &out.Stages, `SELECT st.stage, st.owner_id, COALESCE(u.name, '') AS owner_name, to_char(st.due_on, 'YYYY-MM-DD') AS due_on,
			st.started_at, st.completed_at, (st.due_on < $3::date AND st.completed_at IS NULL AND st.started_at IS NOT NULL) AS overdue,
			CASE WHEN $2 = 'full' THEN st.notes END AS notes
		FROM case_stages st LEFT JOIN users u ON u.id = st.owner_id WHERE st.case_id = $1
		ORDER BY array_position(ARRAY['identification','handling','conclusions'], st.stage)`, id, out.Level, s.today()); err != nil {
		return api.Case{}, fmt.Errorf("cases: stages: %w", err)
	}
	if err := tx.SelectContext(ctx, &out.Team, `SELECT t.user_id, u.name FROM case_team t JOIN users u ON u.id = t.user_id
		WHERE t.case_id = $1 ORDER BY u.name, u.id`, id); err != nil {
		return api.Case{}, fmt.Errorf("cases: team: %w", err)
	}
	// A case manager outside the team sees the suspected students and the
	// staff by name; a homeroom teacher only their own students.
	if err := tx.SelectContext(ctx, &out.People, `SELECT p.id, p.kind,
			CASE WHEN shown THEN p.student_id END AS student_id, p.user_id,
			CASE WHEN shown THEN COALESCE(s.full_name, p.name) END AS name,
			CASE WHEN shown THEN COALESCE(k.name, '') ELSE '' END AS class_name, p.role, p.relation
		FROM case_participants p LEFT JOIN students s ON s.id = p.student_id LEFT JOIN classes k ON k.id = s.class_id,
			LATERAL (SELECT $2 IN ('full', 'homeroom') OR p.kind = 'staff' OR p.role = 'terduga_pelaku' AS shown) v
		WHERE p.case_id = $1 AND ($2 <> 'homeroom' OR (p.kind = 'student' AND k.homeroom_teacher_id = $3))
		ORDER BY array_position(ARRAY['student','staff','outsider'], p.kind),
			array_position(ARRAY['terduga_pelaku','korban','saksi','pelapor'], p.role), p.id`, id, out.Level, rd.HomeroomID); err != nil {
		return api.Case{}, fmt.Errorf("cases: people: %w", err)
	}
	if err := loadHandling(ctx, tx, &out); err != nil {
		return api.Case{}, err
	}
	return out, nil
}

// lockForChange locks case id for a change by rd: only the team and admins
// change a case (Forbidden for a manager outside it), and a closed case
// takes no change (Conflict). It returns the case's stage and class.
func lockForChange(ctx context.Context, tx *sqlx.Tx, rd Reader, id int64) (stage, class string, err error) {
	lvl, err := level(ctx, tx, rd, id)
	if err != nil {
		return "", "", err
	}
	if lvl != api.CaseLevelFull {
		return "", "", apperr.New(apperr.Forbidden, "cases.not_in_team")
	}
	var row struct {
		Stage string `db:"stage"`
		Class string `db:"classification"`
	}
	if err := tx.GetContext(ctx, &row, `SELECT stage, classification FROM cases WHERE id = $1 FOR UPDATE`, id); err != nil {
		return "", "", pg.Error(err, "cases.entity.case")
	}
	if row.Stage == api.CaseStageClosed {
		return "", "", apperr.New(apperr.Conflict, "cases.closed")
	}
	return row.Stage, row.Class, nil
}

// Settings returns the stage durations.
func Settings(ctx context.Context, q sqlx.QueryerContext) (api.CaseSettings, error) {
	out := DefaultSettings()
	var raw string
	err := sqlx.GetContext(ctx, q, &raw, `SELECT value::text FROM settings WHERE key = $1`, SettingsKey)
	if errors.Is(err, sql.ErrNoRows) {
		return out, nil
	}
	if err != nil {
		return out, fmt.Errorf("cases: settings: %w", err)
	}
	if err := json.Unmarshal([]byte(raw), &out); err != nil {
		return DefaultSettings(), nil
	}
	return out, nil
}

// SaveSettings stores the stage durations.
func (s *Store) SaveSettings(ctx context.Context, actor audit.Actor, in api.CaseSettings) (api.CaseSettings, error) {
	if err := validateSettings(in); err != nil {
		return in, err
	}
	b, err := json.Marshal(in)
	if err != nil {
		return in, err
	}
	err = pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		before, err := Settings(ctx, tx)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO settings (key, value, updated_at, updated_by) VALUES ($1, $2::jsonb, now(), $3)
			ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now(), updated_by = EXCLUDED.updated_by`,
			SettingsKey, string(b), nullID(actor.ID)); err != nil {
			return fmt.Errorf("cases: save settings: %w", err)
		}
		return audit.Record(ctx, tx, actor, "settings.cases.update", "setting", SettingsKey, map[string]any{"before": before, "after": in})
	})
	return in, err
}

// Create opens a case: its stages planned from the school's durations, its
// creator the owner of every stage and a member of the team.
func (s *Store) Create(ctx context.Context, actor audit.Actor, rd Reader, in api.CreateCaseRequest) (api.Case, error) {
	at, err := validateCreate(&in, s.now())
	if err != nil {
		return api.Case{}, err
	}
	var id int64
	err = pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		if err := checkCategory(ctx, tx, in.CategoryID, "category_id"); err != nil {
			return err
		}
		team := append([]int64{rd.UserID}, in.Team...)
		if err := checkUsers(ctx, tx, "team", team[1:]); err != nil {
			return err
		}
		if err := checkPeople(ctx, tx, "participants.", in.Participants); err != nil {
			return err
		}
		if err := tx.GetContext(ctx, &id, `INSERT INTO cases (title, occurred_at, place, description, category_id, source, created_by)
			VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
			in.Title, at, in.Place, in.Description, in.CategoryID, in.Source, nullID(rd.UserID)); err != nil {
			return fmt.Errorf("cases: insert: %w", err)
		}
		set, err := Settings(ctx, tx)
		if err != nil {
			return err
		}
		// Due dates follow one another from today: identification, then
		// handling, then conclusions.
		if _, err := tx.ExecContext(ctx, `INSERT INTO case_stages (case_id, stage, owner_id, due_on, started_at)
			SELECT $1, st, $2, $3::date + (sum(d) OVER (ORDER BY i))::int, CASE WHEN i = 1 THEN now() END
			FROM unnest(ARRAY['identification','handling','conclusions'], ARRAY[$4, $5, $6]::int[]) WITH ORDINALITY AS x(st, d, i)`,
			id, nullID(rd.UserID), s.today(), set.IdentificationDays, set.HandlingDays, set.ConclusionsDays); err != nil {
			return fmt.Errorf("cases: stages: %w", err)
		}
		if err := setTeam(ctx, tx, id, team); err != nil {
			return err
		}
		if err := insertPeople(ctx, tx, id, in.Participants); err != nil {
			return err
		}
		return audit.Record(ctx, tx, actor, "case.create", "case", strconv.FormatInt(id, 10), map[string]any{
			"category_id": in.CategoryID, "source": in.Source, "participants": len(in.Participants), "team": team})
	})
	if err != nil {
		return api.Case{}, err
	}
	return s.Get(ctx, rd, id, "create")
}

func checkCategory(ctx context.Context, tx *sqlx.Tx, id int64, field string) error {
	var active bool
	err := tx.GetContext(ctx, &active, `SELECT active FROM case_categories WHERE id = $1`, id)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && !active) {
		return apperr.New(apperr.Invalid, "cases.invalid").WithField(field, "cases.category.not_found")
	}
	if err != nil {
		return fmt.Errorf("cases: category: %w", err)
	}
	return nil
}

// checkUsers refuses users who do not exist or are inactive.
func checkUsers(ctx context.Context, tx *sqlx.Tx, field string, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	var missing []int64
	if err := tx.SelectContext(ctx, &missing, `SELECT i FROM unnest($1::bigint[]) AS i
		WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.id = i AND u.active)`, pq.Array(ids)); err != nil {
		return fmt.Errorf("cases: users: %w", err)
	}
	if len(missing) > 0 {
		return apperr.New(apperr.Invalid, "cases.invalid").WithField(field, "cases.user_not_found", "id", missing[0])
	}
	return nil
}

// checkPeople refuses students and users who do not exist or are inactive.
func checkPeople(ctx context.Context, tx *sqlx.Tx, prefix string, ps []api.CaseParticipantInput) error {
	if len(ps) == 0 {
		return nil
	}
	students := make([]int64, len(ps))
	users := make([]int64, len(ps))
	for i, p := range ps {
		if p.StudentID != nil {
			students[i] = *p.StudentID
		}
		if p.UserID != nil {
			users[i] = *p.UserID
		}
	}
	var bad []struct {
		I     int    `db:"i"`
		Field string `db:"field"`
	}
	if err := tx.SelectContext(ctx, &bad, `SELECT i - 1 AS i, CASE WHEN st <> 0 THEN 'student_id' ELSE 'user_id' END AS field
		FROM unnest($1::bigint[], $2::bigint[]) WITH ORDINALITY AS x(st, us, i)
		WHERE (st <> 0 AND NOT EXISTS (SELECT 1 FROM students s WHERE s.id = st AND s.active))
		   OR (us <> 0 AND NOT EXISTS (SELECT 1 FROM users u WHERE u.id = us AND u.active))
		ORDER BY i`, pq.Array(students), pq.Array(users)); err != nil {
		return fmt.Errorf("cases: people: %w", err)
	}
	if len(bad) > 0 {
		e := apperr.New(apperr.Invalid, "cases.invalid")
		for _, b := range bad {
			key := "cases.participant.student_not_found"
			if b.Field == "user_id" {
				key = "cases.user_not_found"
			}
			e.WithField(prefix+strconv.Itoa(b.I)+"."+b.Field, key)
		}
		return e
	}
	return nil
}

// insertPeople stores participants; a staff member's name is the user's.
// A student already in the case in the same role is Conflict.
func insertPeople(ctx context.Context, tx *sqlx.Tx, caseID int64, ps []api.CaseParticipantInput) error {
	if len(ps) == 0 {
		return nil
	}
	kinds := make([]string, len(ps))
	students := make([]sql.NullInt64, len(ps))
	users := make([]sql.NullInt64, len(ps))
	names := make([]string, len(ps))
	roles := make([]string, len(ps))
	relations := make([]string, len(ps))
	for i, p := range ps {
		kinds[i], names[i], roles[i], relations[i] = p.Kind, p.Name, p.Role, p.Relation
		if p.StudentID != nil {
			students[i] = sql.NullInt64{Int64: *p.StudentID, Valid: true}
		}
		if p.UserID != nil {
			users[i] = sql.NullInt64{Int64: *p.UserID, Valid: true}
		}
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO case_participants (case_id, kind, student_id, user_id, name, role, relation)
		SELECT $1, k, st, us, COALESCE(u.name, n), r, rel
		FROM unnest($2::text[], $3::bigint[], $4::bigint[], $5::text[], $6::text[], $7::text[]) WITH ORDINALITY AS x(k, st, us, n, r, rel, i)
		LEFT JOIN users u ON u.id = x.us
		ORDER BY i`, caseID, pq.Array(kinds), pq.Array(students), pq.Array(users), pq.Array(names), pq.Array(roles), pq.Array(relations))
	if pg.IsUnique(err, "") {
		return apperr.New(apperr.Conflict, "cases.participant.duplicate")
	}
	if err != nil {
		return fmt.Errorf("cases: participants: %w", err)
	}
	return nil
}

func setTeam(ctx context.Context, tx *sqlx.Tx, caseID int64, ids []int64) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM case_team WHERE case_id = $1 AND NOT (user_id = ANY($2::bigint[]))`, caseID, pq.Array(ids)); err != nil {
		return fmt.Errorf("cases: team: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO case_team (case_id, user_id) SELECT DISTINCT $1::bigint, u FROM unnest($2::bigint[]) AS u WHERE u > 0
		ON CONFLICT DO NOTHING`, caseID, pq.Array(ids)); err != nil {
		return fmt.Errorf("cases: team: %w", err)
	}
	return nil
}

// AddParticipant adds one participant to case id.
func (s *Store) AddParticipant(ctx context.Context, actor audit.Actor, rd Reader, id int64, in api.CaseParticipantInput) (api.Case, error) {
	f := apperr.Fields{}
	validateParticipant(f, "", &in)
	if len(f) > 0 {
		return api.Case{}, invalid(f)
	}
	err := pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		if _, _, err := lockForChange(ctx, tx, rd, id); err != nil {
			return err
		}
		var n int
		if err := tx.GetContext(ctx, &n, `SELECT count(*) FROM case_participants WHERE case_id = $1`, id); err != nil {
			return fmt.Errorf("cases: count: %w", err)
		}
		if n >= MaxParticipants {
			return apperr.New(apperr.Invalid, "cases.invalid").WithField("kind", "cases.participants.too_many", "max", MaxParticipants)
		}
		if err := checkPeople(ctx, tx, "", []api.CaseParticipantInput{in}); err != nil {
			// one participant: its fields are the body's own
			var e *apperr.Error
			if errors.As(err, &e) {
				nf := apperr.Fields{}
				for k, v := range e.Fields {
					nf[k[len("0."):]] = v
				}
				e.Fields = nf
			}
			return err
		}
		if err := insertPeople(ctx, tx, id, []api.CaseParticipantInput{in}); err != nil {
			return err
		}
		return audit.Record(ctx, tx, actor, "case.participant.add", "case", strconv.FormatInt(id, 10), map[string]any{
			"kind": in.Kind, "student_id": in.StudentID, "user_id": in.UserID, "role": in.Role, "relation": in.Relation})
	})
	if err != nil {
		return api.Case{}, err
	}
	return s.Get(ctx, rd, id, "update")
}

// Update changes case id; absent fields stay.
func (s *Store) Update(ctx context.Context, actor audit.Actor, rd Reader, id int64, in api.UpdateCaseRequest) (api.Case, error) {
	f := apperr.Fields{}
	var at *time.Time
	if in.Title != nil {
		*in.Title = clean(*in.Title)
		switch {
		case *in.Title == "":
			f.Add("title", "cases.title.required")
		case tooLong(*in.Title, MaxTitle):
			f.Add("title", "cases.title.too_long", "max", MaxTitle)
		}
	}
	if in.OccurredAt != nil {
		t := checkOccurred(f, "occurred_at", *in.OccurredAt, s.now())
		at = &t
	}
	if in.Place != nil {
		*in.Place = clean(*in.Place)
		if tooLong(*in.Place, MaxPlace) {
			f.Add("place", "cases.place.too_long", "max", MaxPlace)
		}
	}
	if in.Description != nil && tooLong(*in.Description, MaxDescription) {
		f.Add("description", "cases.description.too_long", "max", MaxDescription)
	}
	if in.Source != nil && !sources[*in.Source] {
		f.Add("source", "cases.source.choose")
	}
	if in.Classification != nil && *in.Classification != api.CaseClassSchoolRule && *in.Classification != api.CaseClassSuspectedLaw {
		f.Add("classification", "cases.classification.choose")
	}
	if in.Team != nil {
		switch {
		case len(*in.Team) == 0:
			f.Add("team", "cases.team.required")
		case len(*in.Team) > MaxTeam:
			f.Add("team", "cases.team.too_many", "max", MaxTeam)
		}
	}
	for i, st := range in.Stages {
		p := "stages." + strconv.Itoa(i) + "."
		if st.Stage != api.CaseStageIdentification && st.Stage != api.CaseStageHandling && st.Stage != api.CaseStageConclusions {
			f.Add(p+"stage", "cases.stage.choose")
		}
		if st.DueOn != nil {
			if _, err := time.Parse(time.DateOnly, *st.DueOn); err != nil {
				f.Add(p+"due_on", "cases.due_on.invalid")
			}
		}
	}
	if len(in.Stages) > 3 {
		f.Add("stages", "cases.stage.choose")
	}
	if len(f) > 0 {
		return api.Case{}, invalid(f)
	}
	err := pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		if _, _, err := lockForChange(ctx, tx, rd, id); err != nil {
			return err
		}
		if in.CategoryID != nil {
			if err := checkCategory(ctx, tx, *in.CategoryID, "category_id"); err != nil {
				return err
			}
		}
		if in.Team != nil {
			if err := checkUsers(ctx, tx, "team", *in.Team); err != nil {
				return err
			}
			if err := setTeam(ctx, tx, id, *in.Team); err != nil {
				return err
			}
		}
		owners := []int64{}
		for _, st := range in.Stages {
			if st.OwnerID != nil {
				owners = append(owners, *st.OwnerID)
			}
		}
		if err := checkUsers(ctx, tx, "stages", owners); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE cases SET title = COALESCE($2, title), occurred_at = COALESCE($3, occurred_at),
			place = COALESCE($4, place), description = COALESCE($5, description), category_id = COALESCE($6, category_id),
			source = COALESCE($7, source), classification = COALESCE($8, classification), updated_at = now() WHERE id = $1`,
			id, in.Title, at, in.Place, in.Description, in.CategoryID, in.Source, in.Classification); err != nil {
			return fmt.Errorf("cases: update: %w", err)
		}
		for _, st := range in.Stages {
			if _, err := tx.ExecContext(ctx, `UPDATE case_stages SET owner_id = COALESCE($3, owner_id), due_on = COALESCE($4::date, due_on)
				WHERE case_id = $1 AND stage = $2`, id, st.Stage, st.OwnerID, st.DueOn); err != nil {
				return fmt.Errorf("cases: stage: %w", err)
			}
		}
		return audit.Record(ctx, tx, actor, "case.update", "case", strconv.FormatInt(id, 10), in)
	})
	if err != nil {
		return api.Case{}, err
	}
	return s.Get(ctx, rd, id, "update")
}

// MoveStage moves case id to the next stage; the notes close the stage
// left. Handling needs a classification.
func (s *Store) MoveStage(ctx context.Context, actor audit.Actor, rd Reader, id int64, in api.CaseStageRequest) (api.Case, error) {
	if tooLong(in.Notes, MaxNotes) {
		return api.Case{}, apperr.New(apperr.Invalid, "cases.invalid").WithField("notes", "cases.notes.too_long", "max", MaxNotes)
	}
	err := pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		stage, class, err := lockForChange(ctx, tx, rd, id)
		if err != nil {
			return err
		}
		if in.To != nextStage(stage) {
			return apperr.New(apperr.Invalid, "cases.invalid").WithField("to", "cases.stage.not_next", "next", nextStage(stage))
		}
		if in.To == api.CaseStageHandling && class == "" {
			return apperr.New(apperr.Invalid, "cases.invalid").WithField("to", "cases.stage.classify_first")
		}
		if _, err := tx.ExecContext(ctx, `UPDATE case_stages SET completed_at = now(), notes = $3 WHERE case_id = $1 AND stage = $2`,
			id, stage, in.Notes); err != nil {
			return fmt.Errorf("cases: stage: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE case_stages SET started_at = now() WHERE case_id = $1 AND stage = $2`, id, in.To); err != nil {
			return fmt.Errorf("cases: stage: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE cases SET stage = $2, updated_at = now() WHERE id = $1`, id, in.To); err != nil {
			return fmt.Errorf("cases: stage: %w", err)
		}
		return audit.Record(ctx, tx, actor, "case.stage", "case", strconv.FormatInt(id, 10), map[string]any{"from": stage, "to": in.To})
	})
	if err != nil {
		return api.Case{}, err
	}
	return s.Get(ctx, rd, id, "update")
}

// AccessLog returns the reads of case id, newest first, and logs this read.
func (s *Store) AccessLog(ctx context.Context, rd Reader, id int64) ([]api.CaseAccess, error) {
	out := []api.CaseAccess{}
	err := pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		lvl, err := level(ctx, tx, rd, id)
		if err != nil {
			return err
		}
		if err := logReads(ctx, tx, rd, []int64{id}, []string{lvl}, "access_log"); err != nil {
			return err
		}
		if err := tx.SelectContext(ctx, &out, `SELECT id, user_id, user_name, at, what, level FROM case_access_log
			WHERE case_id = $1 ORDER BY at DESC, id DESC LIMIT 500`, id); err != nil {
			return fmt.Errorf("cases: access log: %w", err)
		}
		return nil
	})
	return out, err
}

// Counts are all cases counted by category, stage and class (the classes
// of their student participants): no names, no case.
func (s *Store) Counts(ctx context.Context) (api.CaseCounts, error) {
	out := api.CaseCounts{ByCategory: []api.CaseCount{}, ByStage: []api.CaseCount{}, ByClass: []api.CaseCount{}}
	if err := s.db.GetContext(ctx, &out, `SELECT count(*) AS total, count(*) FILTER (WHERE c.stage <> 'closed') AS open,
		count(*) FILTER (WHERE st.due_on < $1::date AND st.completed_at IS NULL) AS overdue
		FROM cases c LEFT JOIN case_stages st ON st.case_id = c.id AND st.stage = c.stage`, s.today()); err != nil {
		return out, fmt.Errorf("cases: counts: %w", err)
	}
	if err := s.db.SelectContext(ctx, &out.ByCategory, `SELECT cc.id::text AS key, cc.name AS label, count(c.id) AS count
		FROM case_categories cc LEFT JOIN cases c ON c.category_id = cc.id
		GROUP BY cc.id HAVING count(c.id) > 0 OR cc.active ORDER BY cc.sort_order, cc.name`); err != nil {
		return out, fmt.Errorf("cases: counts: %w", err)
	}
	if err := s.db.SelectContext(ctx, &out.ByStage, `SELECT st AS key, '' AS label, count(c.id) AS count
		FROM unnest(ARRAY['identification','handling','conclusions','closed']) WITH ORDINALITY AS x(st, i)
		LEFT JOIN cases c ON c.stage = x.st GROUP BY st, i ORDER BY i`); err != nil {
		return out, fmt.Errorf("cases: counts: %w", err)
	}
	if err := s.db.SelectContext(ctx, &out.ByClass, `SELECT COALESCE(k.id::text, '') AS key, COALESCE(k.name, '') AS label, count(DISTINCT p.case_id) AS count
		FROM case_participants p JOIN students s ON s.id = p.student_id LEFT JOIN classes k ON k.id = s.class_id
		GROUP BY k.id, k.name ORDER BY k.name NULLS LAST`); err != nil {
		return out, fmt.Errorf("cases: counts: %w", err)
	}
	return out, nil
}

// Categories lists the categories, active first.
func (s *Store) Categories(ctx context.Context) ([]api.CaseCategory, error) {
	out := []api.CaseCategory{}
	if err := s.db.SelectContext(ctx, &out, `SELECT id, name, active, sort_order FROM case_categories ORDER BY active DESC, sort_order, name`); err != nil {
		return nil, fmt.Errorf("cases: categories: %w", err)
	}
	return out, nil
}

// SaveCategory creates (id 0) or changes a category.
func (s *Store) SaveCategory(ctx context.Context, actor audit.Actor, id int64, in api.CaseCategoryInput) (api.CaseCategory, error) {
	f := apperr.Fields{}
	if in.Name != nil {
		*in.Name = clean(*in.Name)
		switch {
		case *in.Name == "":
			f.Add("name", "cases.category.name_required")
		case tooLong(*in.Name, MaxCategoryName):
			f.Add("name", "cases.category.name_too_long", "max", MaxCategoryName)
		}
	} else if id == 0 {
		f.Add("name", "cases.category.name_required")
	}
	if in.SortOrder != nil && (*in.SortOrder < 0 || *in.SortOrder > 10000) {
		f.Add("sort_order", "request.field_range", "min", 0, "max", 10000)
	}
	if len(f) > 0 {
		return api.CaseCategory{}, invalid(f)
	}
	var out api.CaseCategory
	err := pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		var err error
		if id == 0 {
			err = tx.GetContext(ctx, &out, `INSERT INTO case_categories (name, active, sort_order) VALUES ($1, COALESCE($2, true), COALESCE($3, 0))
				RETURNING id, name, active, sort_order`, in.Name, in.Active, in.SortOrder)
		} else {
			err = tx.GetContext(ctx, &out, `UPDATE case_categories SET name = COALESCE($2, name), active = COALESCE($3, active),
				sort_order = COALESCE($4, sort_order), updated_at = now() WHERE id = $1 RETURNING id, name, active, sort_order`,
				id, in.Name, in.Active, in.SortOrder)
		}
		if err != nil {
			return pg.Error(err, "cases.entity.category")
		}
		return audit.Record(ctx, tx, actor, "case_category.save", "case_category", strconv.FormatInt(out.ID, 10), out)
	})
	return out, err
}

// TeamOptions are the active users a case team, a stage owner or a staff
// participant may be chosen from: names and roles only.
func (s *Store) TeamOptions(ctx context.Context) ([]api.CaseUserOption, error) {
	out := []api.CaseUserOption{}
	if err := s.db.SelectContext(ctx, &out, `SELECT id, name, role FROM users WHERE active ORDER BY name, id`); err != nil {
		return nil, fmt.Errorf("cases: team options: %w", err)
	}
	return out, nil
}
