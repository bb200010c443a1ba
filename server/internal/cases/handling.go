package cases

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/locale"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/violation"
	"github.com/tatib/tatib/shared/api"
)

// Limits of the handling records.
const (
	MaxSessionPeople = 50
	MaxAgreementItem = 30
	MaxAction        = 1000
)

// loadHandling fills the case's sessions, agreements and recovery actions
// (the team and admins only) and its violations (also a case manager).
func loadHandling(ctx context.Context, tx *sqlx.Tx, out *api.Case) error {
	out.Sessions, out.Agreements, out.Recovery, out.Violations = []api.CaseSession{}, []api.CaseAgreement{}, []api.CaseRecoveryAction{}, []api.CaseViolation{}
	out.Referrals = []api.CaseReferral{}
	id := out.ID
	if out.Level == api.CaseLevelFull || out.Level == api.CaseLevelManaged {
		if err := tx.SelectContext(ctx, &out.Violations, `SELECT v.id, v.student_id, s.full_name AS student_name, t.name AS type_name, v.points, v.occurred_at
			FROM violations v JOIN students s ON s.id = v.student_id JOIN violation_types t ON t.id = v.violation_type_id
			WHERE v.case_id = $1 ORDER BY v.occurred_at, v.id`, id); err != nil {
			return fmt.Errorf("cases: violations: %w", err)
		}
	}
	if out.Level != api.CaseLevelFull {
		return nil
	}
	var sessions []struct {
		api.CaseSession
		People pq.StringArray `db:"people"`
		Staff  pq.StringArray `db:"staff"`
	}
	if err := tx.SelectContext(ctx, &sessions, `SELECT cs.id, cs.held_at, cs.handling_type_id, cs.handling_type_name, cs.notes, cs.created_by_name,
			ARRAY(SELECT COALESCE(s.full_name, p.name) FROM unnest(cs.participant_ids) WITH ORDINALITY AS x(pid, i)
				JOIN case_participants p ON p.id = x.pid LEFT JOIN students s ON s.id = p.student_id ORDER BY x.i) AS people,
			ARRAY(SELECT u.name FROM unnest(cs.staff_ids) WITH ORDINALITY AS x(uid, i) JOIN users u ON u.id = x.uid ORDER BY x.i) AS staff
		FROM case_sessions cs WHERE cs.case_id = $1 ORDER BY cs.held_at, cs.id`, id); err != nil {
		return fmt.Errorf("cases: sessions: %w", err)
	}
	for _, s := range sessions {
		s.CaseSession.People, s.CaseSession.Staff = []string(s.People), []string(s.Staff)
		out.Sessions = append(out.Sessions, s.CaseSession)
	}
	if err := tx.SelectContext(ctx, &out.Agreements, `SELECT id, to_char(agreed_on, 'YYYY-MM-DD') AS agreed_on, notes, created_by_name
		FROM case_agreements WHERE case_id = $1 ORDER BY agreed_on, id`, id); err != nil {
		return fmt.Errorf("cases: agreements: %w", err)
	}
	var items []struct {
		api.CaseAgreementItem
		AgreementID int64 `db:"agreement_id"`
	}
	if err := tx.SelectContext(ctx, &items, `SELECT i.id, i.agreement_id, i.participant_id, COALESCE(s.full_name, p.name) AS party_name, p.role AS party_role,
			i.action, to_char(i.due_on, 'YYYY-MM-DD') AS due_on, i.status, i.checked_by_name, i.checked_at, i.check_notes
		FROM case_agreement_items i JOIN case_agreements a ON a.id = i.agreement_id
		JOIN case_participants p ON p.id = i.participant_id LEFT JOIN students s ON s.id = p.student_id
		WHERE a.case_id = $1 ORDER BY i.id`, id); err != nil {
		return fmt.Errorf("cases: agreement items: %w", err)
	}
	for i := range out.Agreements {
		out.Agreements[i].Items = []api.CaseAgreementItem{}
		for _, it := range items {
			if it.AgreementID == out.Agreements[i].ID {
				out.Agreements[i].Items = append(out.Agreements[i].Items, it.CaseAgreementItem)
			}
		}
	}
	if err := tx.SelectContext(ctx, &out.Recovery, `SELECT r.id, r.participant_id, COALESCE(s.full_name, p.name) AS party_name, r.kind, r.description,
			to_char(r.planned_on, 'YYYY-MM-DD') AS planned_on, r.created_by_name
		FROM case_recovery_actions r JOIN case_participants p ON p.id = r.participant_id LEFT JOIN students s ON s.id = p.student_id
		WHERE r.case_id = $1 ORDER BY r.planned_on, r.id`, id); err != nil {
		return fmt.Errorf("cases: recovery: %w", err)
	}
	if err := loadReport(ctx, tx, out); err != nil {
		return err
	}
	if err := tx.SelectContext(ctx, &out.Referrals, `SELECT id, sent_to, to_char(sent_on, 'YYYY-MM-DD') AS sent_on, notes, created_by_name
		FROM case_referrals WHERE case_id = $1 ORDER BY sent_on, id`, id); err != nil {
		return fmt.Errorf("cases: referrals: %w", err)
	}
	return nil
}

// checkParticipants refuses ids that are not participants of case id.
func checkParticipants(ctx context.Context, tx *sqlx.Tx, caseID int64, field string, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	var missing []int64
	if err := tx.SelectContext(ctx, &missing, `SELECT i FROM unnest($2::bigint[]) AS i
		WHERE NOT EXISTS (SELECT 1 FROM case_participants p WHERE p.id = i AND p.case_id = $1)`, caseID, pq.Array(ids)); err != nil {
		return fmt.Errorf("cases: participants: %w", err)
	}
	if len(missing) > 0 {
		return apperr.New(apperr.Invalid, "cases.invalid").WithField(field, "cases.participant.not_in_case")
	}
	return nil
}

func validDate(s string) bool {
	_, err := time.Parse(time.DateOnly, s)
	return err == nil
}

// CreateSession records a session of case id.
func (s *Store) CreateSession(ctx context.Context, actor audit.Actor, rd Reader, id int64, in api.CreateCaseSessionRequest) (api.Case, error) {
	f := apperr.Fields{}
	at := checkOccurred(f, "held_at", in.HeldAt, s.now())
	in.Notes = strings.TrimSpace(in.Notes)
	if tooLong(in.Notes, MaxNotes) {
		f.Add("notes", "cases.notes.too_long", "max", MaxNotes)
	}
	if len(in.ParticipantIDs) == 0 {
		f.Add("participant_ids", "cases.session.people_required")
	}
	if in.StaffIDs == nil { // absent from the body: none (a NULL array was a 500)
		in.StaffIDs = []int64{}
	}
	if len(in.ParticipantIDs) > MaxSessionPeople || len(in.StaffIDs) > MaxSessionPeople {
		f.Add("participant_ids", "cases.participants.too_many", "max", MaxSessionPeople)
	}
	if len(f) > 0 {
		return api.Case{}, invalid(f)
	}
	err := pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		if _, _, err := lockForChange(ctx, tx, rd, id); err != nil {
			return err
		}
		if err := checkParticipants(ctx, tx, id, "participant_ids", in.ParticipantIDs); err != nil {
			return err
		}
		if err := checkUsers(ctx, tx, "staff_ids", in.StaffIDs); err != nil {
			return err
		}
		typeName, err := checkHandlingType(ctx, tx, in.HandlingTypeID)
		if err != nil {
			return err
		}
		var sid int64
		if err := tx.GetContext(ctx, &sid, `INSERT INTO case_sessions (case_id, held_at, participant_ids, staff_ids, notes, created_by, created_by_name,
				handling_type_id, handling_type_name)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`, id, at, pq.Array(in.ParticipantIDs), pq.Array(in.StaffIDs), in.Notes,
			nullID(actor.ID), actor.Display(), in.HandlingTypeID, typeName); err != nil {
			return fmt.Errorf("cases: session: %w", err)
		}
		return audit.Record(ctx, tx, actor, "case.session.create", "case", strconv.FormatInt(id, 10), map[string]any{
			"session_id": sid, "held_at": at, "participants": in.ParticipantIDs, "staff": in.StaffIDs,
			"handling_type_id": in.HandlingTypeID, "handling_type": typeName})
	})
	if err != nil {
		return api.Case{}, err
	}
	return s.Get(ctx, rd, id, "update")
}

// checkHandlingType answers the name of handling type id (nil: none, "")
// and refuses one that does not exist or is inactive, as a violation's
// handling does.
func checkHandlingType(ctx context.Context, tx *sqlx.Tx, id *int64) (string, error) {
	if id == nil {
		return "", nil
	}
	var t struct {
		Name   string `db:"name"`
		Active bool   `db:"active"`
	}
	err := tx.GetContext(ctx, &t, `SELECT name, active FROM handling_types WHERE id = $1 FOR SHARE`, *id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", apperr.New(apperr.Invalid, "cases.invalid").WithField("handling_type_id", "cases.session.handling_type_not_found")
	}
	if err != nil {
		return "", fmt.Errorf("cases: handling type: %w", err)
	}
	if !t.Active {
		return "", apperr.New(apperr.Invalid, "cases.invalid").WithField("handling_type_id", "cases.session.handling_type_inactive", "name", t.Name)
	}
	return t.Name, nil
}

// CreateAgreement records a restorative agreement: one item per party's
// commitment.
func (s *Store) CreateAgreement(ctx context.Context, actor audit.Actor, rd Reader, id int64, in api.CreateCaseAgreementRequest) (api.Case, error) {
	f := apperr.Fields{}
	if !validDate(in.AgreedOn) {
		f.Add("agreed_on", "cases.due_on.invalid")
	} else if in.AgreedOn > s.today() {
		f.Add("agreed_on", "cases.agreement.future")
	}
	in.Notes = strings.TrimSpace(in.Notes)
	if tooLong(in.Notes, MaxNotes) {
		f.Add("notes", "cases.notes.too_long", "max", MaxNotes)
	}
	switch {
	case len(in.Items) == 0:
		f.Add("items", "cases.agreement.items_required")
	case len(in.Items) > MaxAgreementItem:
		f.Add("items", "cases.agreement.too_many", "max", MaxAgreementItem)
	}
	parties := make([]int64, 0, len(in.Items))
	for i := range in.Items {
		it := &in.Items[i]
		p := "items." + strconv.Itoa(i) + "."
		it.Action = strings.TrimSpace(it.Action)
		switch {
		case it.Action == "":
			f.Add(p+"action", "cases.agreement.action_required")
		case tooLong(it.Action, MaxAction):
			f.Add(p+"action", "cases.agreement.action_too_long", "max", MaxAction)
		}
		if !validDate(it.DueOn) {
			f.Add(p+"due_on", "cases.due_on.invalid")
		} else if validDate(in.AgreedOn) && it.DueOn < in.AgreedOn {
			f.Add(p+"due_on", "cases.agreement.due_before")
		}
		parties = append(parties, it.ParticipantID)
	}
	if len(f) > 0 {
		return api.Case{}, invalid(f)
	}
	err := pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		if _, _, err := lockForChange(ctx, tx, rd, id); err != nil {
			return err
		}
		if err := checkParticipants(ctx, tx, id, "items", parties); err != nil {
			return err
		}
		var aid int64
		if err := tx.GetContext(ctx, &aid, `INSERT INTO case_agreements (case_id, agreed_on, notes, created_by, created_by_name)
			VALUES ($1, $2, $3, $4, $5) RETURNING id`, id, in.AgreedOn, in.Notes, nullID(actor.ID), actor.Display()); err != nil {
			return fmt.Errorf("cases: agreement: %w", err)
		}
		actions := make([]string, len(in.Items))
		dues := make([]string, len(in.Items))
		for i, it := range in.Items {
			actions[i], dues[i] = it.Action, it.DueOn
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO case_agreement_items (agreement_id, participant_id, action, due_on)
			SELECT $1, p, a, d::date FROM unnest($2::bigint[], $3::text[], $4::text[]) WITH ORDINALITY AS x(p, a, d, i) ORDER BY i`,
			aid, pq.Array(parties), pq.Array(actions), pq.Array(dues)); err != nil {
			return fmt.Errorf("cases: agreement items: %w", err)
		}
		return audit.Record(ctx, tx, actor, "case.agreement.create", "case", strconv.FormatInt(id, 10), map[string]any{
			"agreement_id": aid, "items": len(in.Items)})
	})
	if err != nil {
		return api.Case{}, err
	}
	return s.Get(ctx, rd, id, "update")
}

// CheckAgreement records whether items of agreement aid of case id were
// done, and who checked.
func (s *Store) CheckAgreement(ctx context.Context, actor audit.Actor, rd Reader, id, aid int64, in api.UpdateCaseAgreementRequest) (api.Case, error) {
	f := apperr.Fields{}
	if len(in.Items) == 0 {
		f.Add("items", "cases.agreement.items_required")
	}
	if len(in.Items) > MaxAgreementItem {
		f.Add("items", "cases.agreement.too_many", "max", MaxAgreementItem)
	}
	ids := make([]int64, len(in.Items))
	statuses := make([]string, len(in.Items))
	notes := make([]string, len(in.Items))
	for i, it := range in.Items {
		p := "items." + strconv.Itoa(i) + "."
		if it.Status != api.AgreementOpen && it.Status != api.AgreementDone && it.Status != api.AgreementNotDone {
			f.Add(p+"status", "cases.agreement.status_choose")
		}
		notes[i] = strings.TrimSpace(it.Notes)
		if tooLong(notes[i], MaxNotes) {
			f.Add(p+"notes", "cases.notes.too_long", "max", MaxNotes)
		}
		if slices.Contains(ids[:i], it.ID) {
			f.Add(p+"id", "cases.agreement.item_twice")
		}
		ids[i], statuses[i] = it.ID, it.Status
	}
	if len(f) > 0 {
		return api.Case{}, invalid(f)
	}
	err := pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		if _, _, err := lockForChange(ctx, tx, rd, id); err != nil {
			return err
		}
		var n int
		if err := tx.GetContext(ctx, &n, `SELECT count(*) FROM case_agreements WHERE id = $1 AND case_id = $2`, aid, id); err != nil {
			return fmt.Errorf("cases: agreement: %w", err)
		}
		if n == 0 {
			return apperr.New(apperr.NotFound, "db.not_found", "what", locale.Key("cases.entity.agreement"))
		}
		res, err := tx.ExecContext(ctx, `UPDATE case_agreement_items i SET status = x.st,
				checked_by = CASE WHEN x.st = 'open' THEN NULL ELSE $3::bigint END,
				checked_by_name = CASE WHEN x.st = 'open' THEN '' ELSE $4 END,
				checked_at = CASE WHEN x.st = 'open' THEN NULL ELSE now() END,
				check_notes = x.n
			FROM unnest($2::bigint[], $5::text[], $6::text[]) AS x(id, st, n)
			WHERE i.id = x.id AND i.agreement_id = $1`, aid, pq.Array(ids), nullID(actor.ID), actor.Display(), pq.Array(statuses), pq.Array(notes))
		if err != nil {
			return fmt.Errorf("cases: check: %w", err)
		}
		if k, _ := res.RowsAffected(); int(k) != len(ids) {
			return apperr.New(apperr.Invalid, "cases.invalid").WithField("items", "cases.agreement.item_not_found")
		}
		return audit.Record(ctx, tx, actor, "case.agreement.check", "case", strconv.FormatInt(id, 10), map[string]any{
			"agreement_id": aid, "items": in.Items})
	})
	if err != nil {
		return api.Case{}, err
	}
	return s.Get(ctx, rd, id, "update")
}

// CreateRecovery plans a recovery action for a victim of case id.
func (s *Store) CreateRecovery(ctx context.Context, actor audit.Actor, rd Reader, id int64, in api.CreateCaseRecoveryRequest) (api.Case, error) {
	f := apperr.Fields{}
	if !slices.Contains(api.CaseRecoveryKinds, in.Kind) {
		f.Add("kind", "cases.recovery.kind_choose")
	}
	in.Description = strings.TrimSpace(in.Description)
	if tooLong(in.Description, MaxAction) {
		f.Add("description", "cases.agreement.action_too_long", "max", MaxAction)
	}
	if !validDate(in.PlannedOn) {
		f.Add("planned_on", "cases.due_on.invalid")
	}
	if len(f) > 0 {
		return api.Case{}, invalid(f)
	}
	err := pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		if _, _, err := lockForChange(ctx, tx, rd, id); err != nil {
			return err
		}
		var victim bool
		if err := tx.GetContext(ctx, &victim, `SELECT EXISTS (SELECT 1 FROM case_participants WHERE id = $1 AND case_id = $2 AND role = 'korban')`,
			in.ParticipantID, id); err != nil {
			return fmt.Errorf("cases: recovery: %w", err)
		}
		if !victim {
			return apperr.New(apperr.Invalid, "cases.invalid").WithField("participant_id", "cases.recovery.not_victim")
		}
		var rid int64
		if err := tx.GetContext(ctx, &rid, `INSERT INTO case_recovery_actions (case_id, participant_id, kind, description, planned_on, created_by, created_by_name)
			VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`, id, in.ParticipantID, in.Kind, in.Description, in.PlannedOn,
			nullID(actor.ID), actor.Display()); err != nil {
			return fmt.Errorf("cases: recovery: %w", err)
		}
		return audit.Record(ctx, tx, actor, "case.recovery.create", "case", strconv.FormatInt(id, 10), map[string]any{
			"recovery_id": rid, "kind": in.Kind, "participant_id": in.ParticipantID})
	})
	if err != nil {
		return api.Case{}, err
	}
	return s.Get(ctx, rd, id, "update")
}

// RecordViolation records a violation of a student of case id through the
// violation service (points, letters and messages as for any violation),
// linked to the case. A student who is not in the case, or is in it only
// as a victim or witness, is refused.
func (s *Store) RecordViolation(ctx context.Context, actor audit.Actor, rd Reader, id int64, in violation.Record) (api.CreateViolationsResponse, error) {
	in.CaseID = &id
	in.Before = func(ctx context.Context, tx *sqlx.Tx) error {
		if _, _, err := lockForChange(ctx, tx, rd, id); err != nil {
			return err
		}
		var roles pq.StringArray
		if err := tx.GetContext(ctx, &roles, `SELECT COALESCE(array_agg(role), '{}') FROM case_participants WHERE case_id = $1 AND student_id = $2`,
			id, in.StudentID); err != nil {
			return fmt.Errorf("cases: roles: %w", err)
		}
		if len(roles) == 0 {
			return apperr.New(apperr.Invalid, "cases.invalid").WithField("student_id", "cases.violation.not_in_case")
		}
		if !slices.ContainsFunc(roles, func(r string) bool { return r != api.CaseRoleVictim && r != api.CaseRoleWitness }) {
			return apperr.New(apperr.Invalid, "cases.invalid").WithField("student_id", "cases.violation.victim_or_witness")
		}
		return audit.Record(ctx, tx, actor, "case.violation.record", "case", strconv.FormatInt(id, 10), map[string]any{"student_id": in.StudentID})
	}
	return violation.NewStore(s.db).Record(ctx, in, actor)
}
