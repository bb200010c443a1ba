package roster

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/phone"
	"github.com/tatib/tatib/shared/api"
)

// Where a student's parent contact comes from (students.parent_contact_source).
const (
	ContactFromSync  = "sync"
	ContactFromStaff = "staff"
)

// Limits of a staff-edited parent contact.
const (
	maxParentName  = 150
	maxParentPhone = 30
)

// tidyPhone trims a typed phone number and collapses its runs of spaces:
// the number is stored as staff typed it ("0812-3456-7890" reads better on
// a screen than 6281234567890); the outbox normalises it when it queues a
// message.
func tidyPhone(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// contactEdit is a validated ParentContactInput.
type contactEdit struct {
	name, phone *string
	toSync      bool
}

// validateContact checks in field by field: the name at most 150
// characters without control characters; the phone empty (no number) or
// one WhatsApp can reach (phone.Normalize: not a landline, not garbage);
// the source "sync" (hand the contact back to student affairs, alone) or
// "staff".
func validateContact(in api.ParentContactInput) (contactEdit, error) {
	f := apperr.Fields{}
	var e contactEdit
	if in.ParentName != nil {
		n := strings.TrimSpace(*in.ParentName)
		switch {
		case strings.IndexFunc(n, unicode.IsControl) >= 0:
			f.Add("parent_name", "school.parent_name.control")
		case len([]rune(n)) > maxParentName:
			f.Add("parent_name", "school.parent_name.too_long", "max", maxParentName)
		}
		e.name = &n
	}
	if in.ParentPhone != nil {
		p := tidyPhone(*in.ParentPhone)
		if p != "" {
			if _, problem := phone.Normalize(p); problem != phone.None || len(p) > maxParentPhone {
				if problem == phone.None {
					problem = phone.Invalid
				}
				f.Add("parent_phone", "school.parent_phone."+string(problem))
			}
		}
		e.phone = &p
	}
	if in.ContactSource != nil {
		switch *in.ContactSource {
		case ContactFromSync:
			if in.ParentName != nil || in.ParentPhone != nil {
				f.Add("parent_contact_source", "school.parent_contact.sync_alone")
			}
			e.toSync = true
		case ContactFromStaff:
		default:
			f.Add("parent_contact_source", "school.parent_contact.source")
		}
	}
	return e, f.Err()
}

// contactRow is the stored parent contact, before and after an edit.
type contactRow struct {
	Name        string `db:"parent_name"`
	Phone       string `db:"parent_phone"`
	Source      string `db:"parent_contact_source"`
	SyncedName  string `db:"synced_parent_name"`
	SyncedPhone string `db:"synced_parent_phone"`
}

// EditParentContact changes a student's parent name and phone (absent
// fields keep what is stored) and marks the contact as staff-edited, so
// the next sync leaves it alone; or, with source "sync", hands it back to
// student affairs (the synced values are restored). A homeroom teacher may
// edit only students of their own class. Audited, old → new.
func (s *Store) EditParentContact(ctx context.Context, actor audit.Actor, sc Scope, id int64, in api.ParentContactInput) (Student, error) {
	e, err := validateContact(in)
	if err != nil {
		return Student{}, err
	}
	var out Student
	err = pg.InTx(ctx, s.db, func(tx *sqlx.Tx) error {
		var before contactRow
		const lock = `SELECT s.parent_name, s.parent_phone, s.parent_contact_source, s.synced_parent_name, s.synced_parent_phone
			FROM students s LEFT JOIN classes c ON c.id = s.class_id
			WHERE s.id = $1 AND ($2::bigint = 0 OR c.homeroom_teacher_id = $2)
			FOR UPDATE OF s`
		if err := tx.GetContext(ctx, &before, lock, id, sc.HomeroomID); err != nil {
			return studentNotFound(ctx, tx, sc, id, err)
		}
		after := before
		switch {
		case e.toSync:
			after.Name, after.Phone, after.Source = before.SyncedName, before.SyncedPhone, ContactFromSync
		case e.name != nil || e.phone != nil || in.ContactSource != nil:
			if e.name != nil {
				after.Name = *e.name
			}
			if e.phone != nil {
				after.Phone = *e.phone
			}
			after.Source = ContactFromStaff
		}
		if after != before {
			const upd = `UPDATE students SET parent_name = $2, parent_phone = $3, parent_contact_source = $4, updated_at = now()
				WHERE id = $1`
			if _, err := tx.ExecContext(ctx, upd, id, after.Name, after.Phone, after.Source); err != nil {
				return fmt.Errorf("school: edit parent contact: %w", err)
			}
			if err := audit.Record(ctx, tx, actor, "student.parent_contact.update", "student", strconv.FormatInt(id, 10),
				contactChanges(before, after)); err != nil {
				return err
			}
		}
		out, err = getStudent(ctx, tx, Scope{}, id)
		return err
	})
	return out, err
}

// contactChanges lists the changed fields as {from, to}.
func contactChanges(before, after contactRow) map[string]any {
	out := map[string]any{}
	add := func(k, from, to string) {
		if from != to {
			out[k] = map[string]string{"from": from, "to": to}
		}
	}
	add("parent_name", before.Name, after.Name)
	add("parent_phone", before.Phone, after.Phone)
	add("parent_contact_source", before.Source, after.Source)
	return out
}
