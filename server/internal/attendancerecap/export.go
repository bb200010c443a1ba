package attendancerecap

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/locale"
	"github.com/tatib/tatib/server/internal/schoolday"
	"github.com/tatib/tatib/server/internal/xlsxw"
	"github.com/tatib/tatib/shared/api"
)

// MaxExportClasses bounds the classes of one weekly export (one sheet
// each): a large school has about 50.
const MaxExportClasses = 60

// dayKeys name Monday..Sunday in a day column's header.
var dayKeys = [7]string{
	"attendancerecap.export.day.mon", "attendancerecap.export.day.tue", "attendancerecap.export.day.wed",
	"attendancerecap.export.day.thu", "attendancerecap.export.day.fri", "attendancerecap.export.day.sat",
	"attendancerecap.export.day.sun",
}

// statusKeys name H, S, I, A, T in the legend.
var statusKeys = [5]string{
	"attendancerecap.status.h", "attendancerecap.status.s", "attendancerecap.status.i",
	"attendancerecap.status.a", "attendancerecap.status.t",
}

// WeeklyFile is a built weekly export: the file and its name.
type WeeklyFile struct {
	Data     []byte
	FileName string
}

// WeeklyExport builds the weekly recap of the week containing date for the
// classes ids (all the caller may see when empty), one sheet per class in
// school order plus a legend sheet, words in lang. Each sheet: a title,
// the week's first and last day as real dates, one row per student with
// each day's hours in a compact cell ("H8 A2"), the week's hours per
// status and the attendance percentage.
func (s *Store) WeeklyExport(ctx context.Context, sc Scope, ids []int64, date schoolday.Date, lang locale.Lang) (WeeklyFile, error) {
	if len(ids) > MaxExportClasses {
		return WeeklyFile{}, apperr.New(apperr.Invalid, "form.invalid").
			WithField("class_id", "attendancerecap.export.too_many", "max", MaxExportClasses)
	}
	p := periodOf(Weekly, date)
	var recaps []api.AttendanceRecap
	err := s.readTx(ctx, func(tx *sqlx.Tx) error {
		classes, err := s.visibleClasses(ctx, tx, sc, ids)
		if err != nil {
			return err
		}
		if len(classes) > MaxExportClasses {
			return apperr.New(apperr.Invalid, "form.invalid").
				WithField("class_id", "attendancerecap.export.too_many", "max", MaxExportClasses)
		}
		if len(classes) == 0 {
			return apperr.New(apperr.NotFound, "attendancerecap.export.no_class")
		}
		for _, c := range classes {
			r, err := s.classRecap(ctx, tx, sc, c.ID, p)
			if err != nil {
				return err
			}
			recaps = append(recaps, r)
		}
		return nil
	})
	if err != nil {
		return WeeklyFile{}, err
	}
	data, err := weeklyBook(recaps, p, lang)
	if err != nil {
		return WeeklyFile{}, err
	}
	name := "semua-kelas"
	if len(recaps) == 1 {
		name = slug(recaps[0].ClassName)
	} else if len(ids) > 0 {
		name = strconv.Itoa(len(recaps)) + "-kelas"
	}
	return WeeklyFile{Data: data, FileName: "rekap-absensi-mingguan-" + name + "-" + p.From.String() + ".xlsx"}, nil
}

// weeklyBook writes the workbook.
func weeklyBook(recaps []api.AttendanceRecap, p Period, lang locale.Lang) ([]byte, error) {
	t := func(key string, kv ...any) string { return locale.Render(lang, key, locale.Params(kv...)) }
	b, err := xlsxw.New()
	if err != nil {
		return nil, err
	}
	defer b.Close()

	cols := []xlsxw.Column{
		{Title: t("attendancerecap.export.col.no"), Width: 5},
		{Title: t("attendancerecap.export.col.nisn"), Width: 13},
		{Title: t("attendancerecap.export.col.name"), Width: 28},
	}
	for i := range 7 {
		d := p.From.AddDays(i)
		cols = append(cols, xlsxw.Column{Title: t(dayKeys[i]) + " " + d.Time().Format("02/01"), Width: 11})
	}
	for _, st := range api.AttendanceStatuses {
		cols = append(cols, xlsxw.Column{Title: st, Width: 5})
	}
	cols = append(cols, xlsxw.Column{Title: t("attendancerecap.export.col.percentage"), Width: 10})

	used := map[string]bool{}
	for _, r := range recaps {
		sh, err := b.Sheet(sheetName(r.ClassName, used))
		if err != nil {
			return nil, err
		}
		if err := sh.SetRow(t("attendancerecap.export.title", "class", r.ClassName)); err != nil {
			return nil, err
		}
		if err := sh.SetRow(t("attendancerecap.export.week"), xlsxw.Date(p.From.Time()), t("attendancerecap.export.until"), xlsxw.Date(p.To.Time())); err != nil {
			return nil, err
		}
		if err := sh.SetRow(); err != nil {
			return nil, err
		}
		if err := sh.Header(cols...); err != nil {
			return nil, err
		}
		for i, st := range r.Students {
			row := []any{i + 1, st.NISN, st.FullName}
			for _, d := range st.Days {
				if c := compact(d); c != "" {
					row = append(row, c)
				} else {
					row = append(row, nil) // belum: an empty cell
				}
			}
			c := st.Counts
			row = append(row, c.H, c.S, c.I, c.A, c.T)
			if st.Percentage != nil {
				row = append(row, *st.Percentage)
			} else {
				row = append(row, nil)
			}
			if err := sh.SetRow(row...); err != nil {
				return nil, err
			}
		}
		// The class's line: hours per status and unique students per status.
		h := r.Hours
		total := []any{nil, nil, t("attendancerecap.export.total_hours")}
		total = append(total, make([]any, 7)...)
		total = append(total, h.H, h.S, h.I, h.A, h.T)
		if pc := Percentage(h); pc != nil {
			total = append(total, *pc)
		}
		if err := sh.SetRow(total...); err != nil {
			return nil, err
		}
		w := r.StudentsWith
		with := []any{nil, nil, t("attendancerecap.export.total_students")}
		with = append(with, make([]any, 7)...)
		with = append(with, w.H, w.S, w.I, w.A, w.T)
		if err := sh.SetRow(with...); err != nil {
			return nil, err
		}
		if err := sh.SetRow(); err != nil {
			return nil, err
		}
		if err := sh.SetRow(legendLine(t)); err != nil {
			return nil, err
		}
		if err := sh.SetRow(t("attendancerecap.export.legend_cell")); err != nil {
			return nil, err
		}
	}

	lg, err := b.Sheet(sheetName(t("attendancerecap.export.legend_sheet"), used))
	if err != nil {
		return nil, err
	}
	if err := lg.Header(xlsxw.Column{Title: t("attendancerecap.export.col.code"), Width: 8},
		xlsxw.Column{Title: t("attendancerecap.export.col.meaning"), Width: 60}); err != nil {
		return nil, err
	}
	for i, st := range api.AttendanceStatuses {
		if err := lg.SetRow(st, t(statusKeys[i])); err != nil {
			return nil, err
		}
	}
	for _, k := range []string{"attendancerecap.export.legend_cell", "attendancerecap.export.legend_percentage", "attendancerecap.export.legend_students"} {
		if err := lg.SetRow(nil, t(k)); err != nil {
			return nil, err
		}
	}
	return b.Bytes()
}

// compact writes a day's hours as "H8 A2" (statuses with hours, in the
// usual order); "" when nothing is stored.
func compact(c api.AttendanceCounts) string {
	var parts []string
	for i, n := range []int{c.H, c.S, c.I, c.A, c.T} {
		if n > 0 {
			parts = append(parts, api.AttendanceStatuses[i]+strconv.Itoa(n))
		}
	}
	return strings.Join(parts, " ")
}

// legendLine is "Keterangan: H = Hadir, S = Sakit, ...".
func legendLine(t func(string, ...any) string) string {
	parts := make([]string, len(statusKeys))
	for i, k := range statusKeys {
		parts[i] = api.AttendanceStatuses[i] + " = " + t(k)
	}
	return t("attendancerecap.export.legend") + ": " + strings.Join(parts, ", ")
}

// sheetName makes name a valid, unique sheet name: at most 31 characters,
// none of []:*?/\ and not starting or ending with an apostrophe.
func sheetName(name string, used map[string]bool) string {
	clean := strings.Map(func(r rune) rune {
		if strings.ContainsRune(`[]:*?/\`, r) || unicode.IsControl(r) {
			return '-'
		}
		return r
	}, name)
	clean = strings.Trim(clean, "' ")
	if clean == "" {
		clean = "Sheet"
	}
	base := []rune(clean)
	if len(base) > 31 {
		base = base[:31]
	}
	out := string(base)
	for n := 2; used[strings.ToLower(out)]; n++ {
		suffix := fmt.Sprintf(" (%d)", n)
		r := base
		if len(r)+len([]rune(suffix)) > 31 {
			r = r[:31-len([]rune(suffix))]
		}
		out = string(r) + suffix
	}
	used[strings.ToLower(out)] = true
	return out
}

// slug is a class name in a file name: lower case letters, digits and
// hyphens.
func slug(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	s := strings.TrimRight(b.String(), "-")
	if s == "" {
		return "kelas"
	}
	return s
}
