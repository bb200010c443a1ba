package attendance

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/tatib/tatib/server/internal/app"
	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/auth"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/server/internal/schoolday"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

// MaxFormEntries bounds one form save: 40 students × 16 hours with room
// to spare.
const MaxFormEntries = 5000

// Mount registers the class form's routes.
func Mount(r *httpx.Router, d app.Deps) {
	NewHandler(d.DB, d.Auth).Routes(r)
}

// Permissions answers whether a role holds a permission (auth.Service
// does).
type Permissions interface {
	Actor(r *http.Request) audit.Actor
	Can(ctx context.Context, role perm.Role, p perm.Name) (bool, error)
}

// Handler serves the class attendance form.
type Handler struct {
	db   *sqlx.DB
	auth Permissions
	// now is the clock (tests move it).
	now func() time.Time
}

// NewHandler returns a Handler.
func NewHandler(db *sqlx.DB, a Permissions) *Handler {
	return &Handler{db: db, auth: a, now: time.Now}
}

// Routes registers the routes.
func (h *Handler) Routes(r *httpx.Router) {
	r.Get("/classes/{id}/attendance/{date}", perm.AttendanceView, h.form)
	r.Put("/classes/{id}/attendance/{date}", perm.AttendanceRecord, h.save)
	r.Post("/classes/{id}/attendance/{date}/preview", perm.AttendanceRecord, h.preview)
	r.Post("/classes/{id}/attendance/{date}/journal-conflicts", perm.AttendanceRecord, h.journalConflicts)
}

func (h *Handler) form(w http.ResponseWriter, r *http.Request) error {
	classID, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	date, err := dateParam(r)
	if err != nil {
		return err
	}
	f, err := LoadForm(r.Context(), h.db, classID, date, auth.HomeroomID(r.Context()))
	if err != nil {
		return err
	}
	if f.CanEdit, err = h.auth.Can(r.Context(), auth.UserFrom(r.Context()).Role, perm.AttendanceRecord); err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, f)
}

func (h *Handler) save(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	classID, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	var req api.SaveAttendanceRequest
	if err := httpx.DecodeJSON(r, &req); err != nil {
		return err
	}
	date, err := dateParam(r)
	if err != nil {
		return err
	}
	homeroom := auth.HomeroomID(ctx)
	u := auth.UserFrom(ctx)
	var out api.SaveAttendanceResponse
	err = pg.InTx(ctx, h.db, func(tx *sqlx.Tx) error {
		entries, ow, err := h.prepare(ctx, tx, classID, homeroom, date, req.Entries, u.ID)
		if err != nil {
			return err
		}
		if ow.NeedsConfirmation() && !req.Confirm {
			return confirmRequired(ow)
		}
		applied, err := ApplyDetailedTx(ctx, tx, entries, Origin{UserID: u.ID, Actor: h.auth.Actor(r)})
		if err != nil {
			return err
		}
		out.Results = applied.AttendanceResult
		if out.Letters, err = LetterChangesTx(ctx, tx, applied.Letters, false); err != nil {
			return err
		}
		out.Form, err = LoadForm(ctx, tx, classID, date, homeroom)
		return err
	})
	if err != nil {
		return err
	}
	out.Form.CanEdit = true
	return httpx.JSON(w, http.StatusOK, out)
}

// prepare is the common start of a save and its preview, through tx: the
// class (another class of a homeroom teacher is not found, whatever the
// entries say), the entries checked, the students' locks taken (so no
// push changes a cell between the count and the save) and the cells the
// save would change that others set.
func (h *Handler) prepare(ctx context.Context, tx *sqlx.Tx, classID, homeroom int64, date string, in []api.AttendanceEntry,
	userID int64) ([]Entry, Overwrites, error) {
	if _, err := loadClass(ctx, tx, classID, homeroom); err != nil {
		return nil, Overwrites{}, err
	}
	entries, err := h.validate(ctx, tx, classID, date, in)
	if err != nil {
		return nil, Overwrites{}, err
	}
	if err := lockStudents(ctx, tx, entries); err != nil {
		return nil, Overwrites{}, err
	}
	ow, err := OverwritesTx(ctx, tx, entries, userID)
	return entries, ow, err
}

// errDryRun rolls a preview's transaction back.
var errDryRun = errors.New("attendance: dry run")

// preview is the save run and rolled back: what it would change, by whom
// the cells were set, and the violations and letters that would follow,
// exactly as ApplyDetailedTx computes them.
func (h *Handler) preview(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	classID, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	var req api.SaveAttendanceRequest
	if err := httpx.DecodeJSON(r, &req); err != nil {
		return err
	}
	date, err := dateParam(r)
	if err != nil {
		return err
	}
	u := auth.UserFrom(ctx)
	out := api.AttendancePreview{Letters: []api.LetterChange{}}
	err = pg.InTx(ctx, h.db, func(tx *sqlx.Tx) error {
		entries, ow, err := h.prepare(ctx, tx, classID, auth.HomeroomID(ctx), date, req.Entries, u.ID)
		if err != nil {
			return err
		}
		applied, err := ApplyDetailedTx(ctx, tx, entries, Origin{UserID: u.ID, Actor: h.auth.Actor(r)})
		if err != nil {
			return err
		}
		if out.Letters, err = LetterChangesTx(ctx, tx, applied.Letters, true); err != nil {
			return err
		}
		out.CellsChanged, out.CellsFromJournal, out.CellsFromKiosk, out.CellsFromOthers = ow.Changed, ow.Journal, ow.Kiosk, ow.Others
		out.ViolationsCreated, out.ViolationsRemoved = applied.ViolationsCreated, applied.ViolationsRemoved
		out.ViolationsUpdated = applied.ViolationsUpdated
		out.NeedsConfirmation = ow.NeedsConfirmation()
		return errDryRun
	})
	if err != nil && !errors.Is(err, errDryRun) {
		return err
	}
	return httpx.JSON(w, http.StatusOK, out)
}

// journalConflicts decides journal conflicts of the form's day: keep (the
// notice goes, the cells stay) or use_journal (the journal's status is
// stored as the caller's explicit entry, with what follows from it).
func (h *Handler) journalConflicts(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	classID, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	var req api.JournalConflictsRequest
	if err := httpx.DecodeJSON(r, &req); err != nil {
		return err
	}
	date, err := dateParam(r)
	if err != nil {
		return err
	}
	f := apperr.Fields{}
	if req.Action != api.ConflictKeep && req.Action != api.ConflictUseJournal {
		f.Add("action", "attendance.conflicts.action")
	}
	switch {
	case len(req.Cells) == 0:
		f.Add("cells", "attendance.conflicts.cells_required")
	case len(req.Cells) > MaxFormEntries:
		f.Add("cells", "attendance.entries.too_many", "max", MaxFormEntries)
	}
	for i, c := range req.Cells {
		// No stored hour is outside 1..16 (and the query's smallint would
		// refuse it).
		if c.LessonHour < 1 || c.LessonHour > 16 {
			f.Add("cells["+strconv.Itoa(i)+"]", "attendance.conflicts.not_found")
		}
	}
	if len(f) > 0 {
		return invalid(f)
	}
	homeroom := auth.HomeroomID(ctx)
	u := auth.UserFrom(ctx)
	actor := h.auth.Actor(r)
	out := api.SaveAttendanceResponse{Letters: []api.LetterChange{}}
	err = pg.InTx(ctx, h.db, func(tx *sqlx.Tx) error {
		if _, err := loadClass(ctx, tx, classID, homeroom); err != nil {
			return err
		}
		// The students' locks first, in id order (every writer of their
		// cells and conflicts holds them): a push cannot settle or renew
		// a conflict between the read and the decision.
		lock := make([]Entry, len(req.Cells))
		for i, c := range req.Cells {
			lock[i].StudentID = c.StudentID
		}
		if err := lockStudents(ctx, tx, lock); err != nil {
			return err
		}
		rows, err := classConflicts(ctx, tx, classID, date, req.Cells)
		if err != nil {
			return err
		}
		found := make(map[api.AttendanceCellKey]conflictRow, len(rows))
		for _, c := range rows {
			found[api.AttendanceCellKey{StudentID: c.StudentID, LessonHour: c.LessonHour}] = c
		}
		for i, c := range req.Cells {
			if _, ok := found[c]; !ok {
				f.Add("cells["+strconv.Itoa(i)+"]", "attendance.conflicts.not_found")
			}
		}
		if len(f) > 0 {
			return invalid(f)
		}
		details := map[string]any{"class_id": classID, "date": date, "cells": conflictKeys(rows)}
		if req.Action == api.ConflictKeep {
			sids, hours := make([]int64, len(rows)), make([]int64, len(rows))
			for i, c := range rows {
				sids[i], hours[i] = c.StudentID, int64(c.LessonHour)
			}
			if _, err := tx.ExecContext(ctx, `DELETE FROM attendance_journal_conflicts c
				USING unnest($1::bigint[], $2::smallint[]) AS k(student_id, lesson_hour)
				WHERE c.student_id = k.student_id AND c.lesson_hour = k.lesson_hour AND c.date = $3::date`,
				pq.Array(sids), pq.Array(hours), date); err != nil {
				return fmt.Errorf("attendance: keep conflicts: %w", err)
			}
			out.Results.Unchanged = len(rows)
		} else {
			sent := make([]api.AttendanceEntry, len(rows))
			for i, c := range rows {
				sent[i] = api.AttendanceEntry{StudentID: c.StudentID, LessonHour: c.LessonHour, Status: c.JournalStatus}
			}
			entries, err := h.validate(ctx, tx, classID, date, sent)
			if err != nil {
				return err
			}
			// The caller's explicit entry: it settles the conflicts as any
			// save of those cells does.
			applied, err := ApplyDetailedTx(ctx, tx, entries, Origin{UserID: u.ID, Actor: actor})
			if err != nil {
				return err
			}
			out.Results = applied.AttendanceResult
			if out.Letters, err = LetterChangesTx(ctx, tx, applied.Letters, false); err != nil {
				return err
			}
		}
		if err := audit.Record(ctx, tx, actor, "attendance.journal_conflicts."+req.Action, "attendance", date, details); err != nil {
			return err
		}
		out.Form, err = LoadForm(ctx, tx, classID, date, homeroom)
		return err
	})
	if err != nil {
		return err
	}
	out.Form.CanEdit = true
	return httpx.JSON(w, http.StatusOK, out)
}

// lockStudents takes the row locks of the entries' students in id order,
// the lock ApplyDetailedTx (and every change to a student's points)
// takes.
func lockStudents(ctx context.Context, tx *sqlx.Tx, entries []Entry) error {
	ids := make([]int64, len(entries))
	for i, e := range entries {
		ids[i] = e.StudentID
	}
	if _, err := tx.ExecContext(ctx, `SELECT 1 FROM students WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE`, pq.Array(ids)); err != nil {
		return fmt.Errorf("attendance: lock students: %w", err)
	}
	return nil
}

// dateParam reads the {date} path parameter (YYYY-MM-DD).
func dateParam(r *http.Request) (string, error) {
	v := r.PathValue("date")
	if v == "" {
		v = chi.URLParam(r, "date")
	}
	if _, err := time.Parse(time.DateOnly, v); err != nil {
		return "", invalid(apperr.Fields{"date": apperr.M("attendance.date.format")})
	}
	return v, nil
}

// validate checks a form's entries against the school profile, the date
// rules and the class's active students, naming every bad entry by index.
// Nothing is stored when any is bad.
func (h *Handler) validate(ctx context.Context, q sqlx.QueryerContext, classID int64, date string, in []api.AttendanceEntry) ([]Entry, error) {
	f := apperr.Fields{}
	if len(in) > MaxFormEntries {
		f.Add("entries", "attendance.entries.too_many", "max", MaxFormEntries)
		return nil, invalid(f)
	}
	profile, err := school.LoadProfile(ctx, q)
	if err != nil {
		return nil, fmt.Errorf("attendance: profile: %w", err)
	}
	day, _ := schoolday.ParseDate(date) // checked by the caller
	today := schoolday.DateOf(h.now())
	earliest := profile.YearStartOf(today).AddDate(-1, 0, 0)
	switch {
	case day.After(today):
		f.Add("date", "attendance.date.future")
	case day.Before(earliest):
		f.Add("date", "attendance.date.too_old", "date", earliest.String())
	}
	ids := make([]int64, 0, len(in))
	for _, e := range in {
		ids = append(ids, e.StudentID)
	}
	var members []int64
	if err := sqlx.SelectContext(ctx, q, &members, `SELECT id FROM students
		WHERE id = ANY($1::bigint[]) AND class_id = $2 AND active`, pq.Array(ids), classID); err != nil {
		return nil, fmt.Errorf("attendance: class members: %w", err)
	}
	member := make(map[int64]bool, len(members))
	for _, id := range members {
		member[id] = true
	}
	out := make([]Entry, 0, len(in))
	for i, e := range in {
		at := "entries[" + strconv.Itoa(i) + "]"
		if !member[e.StudentID] {
			f.Add(at+".student_id", "attendance.student.not_in_class")
		}
		if e.LessonHour < 1 || e.LessonHour > profile.LessonHoursPerDay {
			f.Add(at+".lesson_hour", "attendance.lesson_hour.range", "max", profile.LessonHoursPerDay)
		}
		code, ok := ParseStatus(e.Status)
		if !ok {
			f.Add(at+".status", "attendance.status.unknown")
		}
		out = append(out, Entry{StudentID: e.StudentID, Date: date, LessonHour: e.LessonHour, Status: code})
	}
	if len(f) > 0 {
		return nil, invalid(f)
	}
	return out, nil
}

type classRow struct {
	ID   int64  `db:"id"`
	Name string `db:"name"`
}

// loadClass returns the class when the caller may see it: a homeroom
// teacher (homeroom != 0) only their own.
func loadClass(ctx context.Context, q sqlx.QueryerContext, classID, homeroom int64) (classRow, error) {
	var c classRow
	err := sqlx.GetContext(ctx, q, &c, `SELECT id, name FROM classes
		WHERE id = $1 AND ($2::bigint = 0 OR homeroom_teacher_id = $2)`, classID, homeroom)
	if errors.Is(err, sql.ErrNoRows) {
		return c, apperr.New(apperr.NotFound, "attendance.class.not_found")
	}
	if err != nil {
		return c, fmt.Errorf("attendance: class: %w", err)
	}
	return c, nil
}

// LoadForm returns the class form of date (YYYY-MM-DD): the class's active
// students by name and what is stored for them that day. A homeroom
// teacher (homeroom != 0) sees only their own class: another one is not
// found. CanEdit is left false for the caller to set.
func LoadForm(ctx context.Context, q sqlx.QueryerContext, classID int64, date string, homeroom int64) (api.AttendanceForm, error) {
	c, err := loadClass(ctx, q, classID, homeroom)
	if err != nil {
		return api.AttendanceForm{}, err
	}
	profile, err := school.LoadProfile(ctx, q)
	if err != nil {
		return api.AttendanceForm{}, fmt.Errorf("attendance: profile: %w", err)
	}
	f := api.AttendanceForm{ClassID: c.ID, ClassName: c.Name, Date: date, LessonHours: profile.LessonHoursPerDay,
		Students: []api.AttendanceFormStudent{}, JournalConflicts: []api.JournalConflict{}}
	var students []struct {
		ID       int64  `db:"id"`
		NISN     string `db:"nisn"`
		NIS      string `db:"nis"`
		FullName string `db:"full_name"`
		Gender   string `db:"gender"`
	}
	if err := sqlx.SelectContext(ctx, q, &students, `SELECT id, nisn, nis, full_name, gender FROM students
		WHERE class_id = $1 AND active ORDER BY lower(full_name), id`, c.ID); err != nil {
		return f, fmt.Errorf("attendance: students: %w", err)
	}
	var cells []struct {
		StudentID   int64     `db:"student_id"`
		LessonHour  int       `db:"lesson_hour"`
		Status      string    `db:"status"`
		FromJournal bool      `db:"from_journal"`
		SetBy       string    `db:"set_by"`
		UpdatedBy   string    `db:"updated_by"`
		UpdatedAt   time.Time `db:"updated_at"`
		Notes       string    `db:"notes"`
	}
	if err := sqlx.SelectContext(ctx, q, &cells, `SELECT a.student_id, a.lesson_hour, a.status, a.from_journal, a.set_by,
		    CASE WHEN a.from_journal THEN '' ELSE COALESCE(u.name, '') END AS updated_by, a.updated_at, COALESCE(a.notes, '') AS notes
		FROM students s JOIN attendance a ON a.student_id = s.id AND a.date = $2::date
		LEFT JOIN users u ON u.id = a.updated_by
		WHERE s.class_id = $1 AND s.active
		ORDER BY a.student_id, a.lesson_hour`, c.ID, date); err != nil {
		return f, fmt.Errorf("attendance: cells: %w", err)
	}
	at := make(map[int64]int, len(students))
	for i, s := range students {
		at[s.ID] = i
		f.Students = append(f.Students, api.AttendanceFormStudent{ID: s.ID, NISN: s.NISN, NIS: s.NIS, FullName: s.FullName,
			Gender: s.Gender, Cells: []api.AttendanceCell{}})
	}
	for _, c := range cells {
		if i, ok := at[c.StudentID]; ok {
			f.Students[i].Cells = append(f.Students[i].Cells, api.AttendanceCell{LessonHour: c.LessonHour, Status: c.Status,
				FromJournal: c.FromJournal, SetBy: c.SetBy, UpdatedBy: c.UpdatedBy, UpdatedAt: c.UpdatedAt, Notes: c.Notes})
		}
	}
	conflicts, err := classConflicts(ctx, q, c.ID, date, nil)
	if err != nil {
		return f, err
	}
	for _, c := range conflicts {
		f.JournalConflicts = append(f.JournalConflicts, api.JournalConflict{StudentID: c.StudentID, LessonHour: c.LessonHour,
			JournalStatus: c.JournalStatus, Status: c.Status, SetByName: c.SetByName, SetAt: c.SetAt, PushedAt: c.PushedAt})
	}
	return f, nil
}
