package attendancerecap

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/locale"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/xlsxw"
	"github.com/tatib/tatib/shared/api"
)

// semesterClassesSQL lists the classes within scope ($1: the homeroom
// teacher's user id or 0), one ($2) or all ($2 = 0), in school order, with
// their homeroom teacher's name.
const semesterClassesSQL = `SELECT c.id, c.name, coalesce(u.name, '') AS homeroom
	FROM classes c LEFT JOIN users u ON u.id = c.homeroom_teacher_id
	WHERE ($1::bigint = 0 OR c.homeroom_teacher_id = $1) AND ($2::bigint = 0 OR c.id = $2)
	ORDER BY c.grade, c.name, c.id`

// semesterSQL is the semester in days per student of the classes $3 (the
// caller's scope, $4, again in the join): attendance_days of the semester
// ($1..$2) classified by the day rule ($5) and counted per student in one
// pass, then every active student of those classes, with or without days,
// in the class's order (by name, as e-Rapor lists a class).
var semesterSQL = `WITH per AS (
		SELECT x.student_id,
			count(*) FILTER (WHERE x.st = 'H') AS dh, count(*) FILTER (WHERE x.st = 'S') AS ds,
			count(*) FILTER (WHERE x.st = 'I') AS di, count(*) FILTER (WHERE x.st = 'A') AS da,
			count(*) FILTER (WHERE x.st = 'T') AS dt, count(*) AS n,
			sum(x.h) AS h, sum(x.s) AS s, sum(x.i) AS i, sum(x.a) AS a, sum(x.t) AS t
		FROM (SELECT d.student_id, d.h, d.s, d.i, d.a, d.t, ` + dayStatusSQL(5) + ` AS st
			FROM attendance_days d
			JOIN students s ON s.id = d.student_id AND s.active AND s.class_id = ANY($3::bigint[])
			WHERE d.date BETWEEN $1 AND $2 AND (d.h + d.s + d.i + d.a + d.t) > 0) x
		GROUP BY x.student_id)
	SELECT s.class_id, s.id, s.nisn, s.nis, s.full_name,
		coalesce(per.dh, 0), coalesce(per.ds, 0), coalesce(per.di, 0), coalesce(per.da, 0), coalesce(per.dt, 0), coalesce(per.n, 0),
		coalesce(per.h, 0), coalesce(per.s, 0), coalesce(per.i, 0), coalesce(per.a, 0), coalesce(per.t, 0)
	FROM students s
	JOIN classes c ON c.id = s.class_id AND ($4::bigint = 0 OR c.homeroom_teacher_id = $4)
	LEFT JOIN per ON per.student_id = s.id
	WHERE s.active AND s.class_id = ANY($3::bigint[])
	ORDER BY s.class_id, s.full_name, s.id`

// semesters reads the semester hand-off of class id (0: every class the
// caller may see), one AttendanceSemester per class in school order. A
// class the caller may not see is NotFound.
func (s *Store) semesters(ctx context.Context, sc Scope, id int64, q SemesterQuery, now time.Time) ([]api.AttendanceSemester, SemesterSpan, error) {
	var out []api.AttendanceSemester
	var sem SemesterSpan
	err := s.readTx(ctx, func(tx *sqlx.Tx) error {
		set, err := loadSettings(ctx, tx)
		if err != nil {
			return err
		}
		sem = q.resolve(set.profile, now)
		sd, err := schoolDays(ctx, tx, sem.From, sem.To)
		if err != nil {
			return err
		}
		var classes []struct {
			ID       int64  `db:"id"`
			Name     string `db:"name"`
			Homeroom string `db:"homeroom"`
		}
		if err := tx.SelectContext(ctx, &classes, semesterClassesSQL, sc.HomeroomID, id); err != nil {
			return fmt.Errorf("attendancerecap: semester classes: %w", err)
		}
		if id != 0 && len(classes) == 0 {
			return pg.Error(sql.ErrNoRows, "entity.class")
		}
		ids := make([]int64, len(classes))
		index := map[int64]int{}
		for i, c := range classes {
			ids[i] = c.ID
			index[c.ID] = i
			out = append(out, api.AttendanceSemester{ClassID: c.ID, ClassName: c.Name, HomeroomTeacher: c.Homeroom,
				Year: sem.Year, AcademicYear: sem.AcademicYear(), Semester: sem.Number,
				From: sem.From.String(), To: sem.To.String(), DayRule: set.rule,
				SchoolDays: sd, Students: []api.AttendanceSemesterStudent{}})
		}
		rows, err := tx.QueryContext(ctx, semesterSQL, sem.From, sem.To, pq.Array(ids), sc.HomeroomID, set.rule)
		if err != nil {
			return fmt.Errorf("attendancerecap: semester: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var classID int64
			var st api.AttendanceSemesterStudent
			h := &st.Hours
			if err := rows.Scan(&classID, &st.ID, &st.NISN, &st.NIS, &st.FullName, &st.Hadir, &st.Sakit, &st.Izin, &st.Alpa,
				&st.Terlambat, &st.DaysRecorded, &h.H, &h.S, &h.I, &h.A, &h.T); err != nil {
				return fmt.Errorf("attendancerecap: semester: %w", err)
			}
			i, ok := index[classID]
			if !ok {
				continue
			}
			c := &out[i]
			st.No = len(c.Students) + 1
			st.DaysUnrecorded = max(0, sd-st.DaysRecorded)
			c.Students = append(c.Students, st)
		}
		return rows.Err()
	})
	return out, sem, err
}

// ClassSemester is class id's semester in days per student.
func (s *Store) ClassSemester(ctx context.Context, sc Scope, id int64, q SemesterQuery, now time.Time) (api.AttendanceSemester, error) {
	out, _, err := s.semesters(ctx, sc, id, q, now)
	if err != nil {
		return api.AttendanceSemester{}, err
	}
	return out[0], nil
}

// SemesterFile is a built semester workbook: the file and its name.
type SemesterFile struct {
	Data     []byte
	FileName string
}

// SemesterExport builds the semester workbook of class id, or of every
// class the caller may see (id 0: one sheet per class in school order),
// words in lang. Each sheet: a title, the homeroom teacher, the semester's
// first and last day as real dates, the school days and the day rule, then
// one row per student: No, name, NISN, NIS, then sakit, izin and alpa in
// days in the order of e-Rapor's homeroom "Ketidakhadiran" screen, then
// present and late days, days recorded and not, and hours per status.
func (s *Store) SemesterExport(ctx context.Context, sc Scope, id int64, q SemesterQuery, now time.Time, lang locale.Lang) (SemesterFile, error) {
	sems, span, err := s.semesters(ctx, sc, id, q, now)
	if err != nil {
		return SemesterFile{}, err
	}
	if len(sems) == 0 {
		return SemesterFile{}, apperr.New(apperr.NotFound, "attendancerecap.export.no_class")
	}
	data, err := semesterBook(sems, span, lang)
	if err != nil {
		return SemesterFile{}, err
	}
	name := "semua-kelas"
	if id != 0 {
		name = slug(sems[0].ClassName)
	}
	return SemesterFile{Data: data, FileName: fmt.Sprintf("ketidakhadiran-%s-%d-%d-semester-%d.xlsx", name, span.Year, span.Year+1, span.Number)}, nil
}

// semesterBook writes the workbook.
func semesterBook(sems []api.AttendanceSemester, span SemesterSpan, lang locale.Lang) ([]byte, error) {
	t := func(key string, kv ...any) string { return locale.Render(lang, key, locale.Params(kv...)) }
	b, err := xlsxw.New()
	if err != nil {
		return nil, err
	}
	defer b.Close()

	cols := []xlsxw.Column{
		{Title: t("attendancerecap.export.col.no"), Width: 5},
		{Title: t("attendancerecap.semester_export.col.name"), Width: 30},
		{Title: t("attendancerecap.export.col.nisn"), Width: 13},
		{Title: t("attendancerecap.semester_export.col.nis"), Width: 10},
		{Title: t("attendancerecap.semester_export.col.sakit"), Width: 8},
		{Title: t("attendancerecap.semester_export.col.izin"), Width: 8},
		{Title: t("attendancerecap.semester_export.col.alpa"), Width: 12},
		{Title: t("attendancerecap.semester_export.col.hadir"), Width: 8},
		{Title: t("attendancerecap.semester_export.col.terlambat"), Width: 10},
		{Title: t("attendancerecap.semester_export.col.recorded"), Width: 10},
		{Title: t("attendancerecap.semester_export.col.unrecorded"), Width: 10},
	}
	for _, st := range api.AttendanceStatuses {
		cols = append(cols, xlsxw.Column{Title: t("attendancerecap.semester_export.col.hours", "status", st), Width: 7})
	}

	used := map[string]bool{}
	for _, sem := range sems {
		sh, err := b.Sheet(sheetName(sem.ClassName, used))
		if err != nil {
			return nil, err
		}
		lines := [][]any{
			{t("attendancerecap.semester_export.title", "semester", sem.Semester, "year", sem.AcademicYear, "class", sem.ClassName)},
			{t("attendancerecap.semester_export.homeroom"), sem.HomeroomTeacher},
			{t("attendancerecap.semester_export.period"), xlsxw.Date(span.From.Time()), t("attendancerecap.export.until"), xlsxw.Date(span.To.Time())},
			{t("attendancerecap.semester_export.school_days"), sem.SchoolDays},
			{t("attendancerecap.semester_export.rule"), t("attendancerecap.day_rule." + sem.DayRule)},
			{},
		}
		for _, l := range lines {
			if err := sh.SetRow(l...); err != nil {
				return nil, err
			}
		}
		if err := sh.Header(cols...); err != nil {
			return nil, err
		}
		for _, st := range sem.Students {
			h := st.Hours
			if err := sh.SetRow(st.No, st.FullName, st.NISN, st.NIS, st.Sakit, st.Izin, st.Alpa, st.Hadir, st.Terlambat,
				st.DaysRecorded, st.DaysUnrecorded, h.H, h.S, h.I, h.A, h.T); err != nil {
				return nil, err
			}
		}
		for _, l := range [][]any{{}, {t("attendancerecap.semester_export.legend_days")}, {t("attendancerecap.semester_export.legend_erapor")}} {
			if err := sh.SetRow(l...); err != nil {
				return nil, err
			}
		}
	}
	return b.Bytes()
}
