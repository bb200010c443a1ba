package violation

import (
	"context"
	"database/sql"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/locale"
	"github.com/tatib/tatib/server/internal/schoolday"
	"github.com/tatib/tatib/server/internal/xlsxw"
	"github.com/tatib/tatib/shared/api"
)

// MaxExportRows bounds one export. The rows stream with flat memory, but
// excelize builds the compressed file in memory (about 6 MB per 100,000
// rows): narrower filters past this.
const MaxExportRows = 200000

// The export's 19 columns (PRODUCT.md "Violation export"), their header
// keys, and the width a column gets at least (and at most, for long text).
var exportCols = [19]struct {
	key      string
	min, max float64
}{
	{"violationlist.export.col.no", 6, 8},
	{"violationlist.export.col.date", 12, 12},
	{"violationlist.export.col.time", 8, 8},
	{"violationlist.export.col.nisn", 12, 14},
	{"violationlist.export.col.student", 16, 40},
	{"violationlist.export.col.class", 8, 20},
	{"violationlist.export.col.department", 10, 40},
	{"violationlist.export.col.type", 16, 50},
	{"violationlist.export.col.category", 10, 24},
	{"violationlist.export.col.points", 6, 8},
	{"violationlist.export.col.sanction", 12, 40},
	{"violationlist.export.col.location", 10, 30},
	{"violationlist.export.col.description", 40, 40},
	{"violationlist.export.col.recorded_by", 16, 30},
	{"violationlist.export.col.verification", 16, 20},
	{"violationlist.export.col.handling_status", 16, 20},
	{"violationlist.export.col.handlings", 24, 40},
	{"violationlist.export.col.handlers", 30, 50},
	{"violationlist.export.col.created_at", 16, 16},
}

// Columns whose width follows the longest value (index into exportCols →
// position in the sizing query).
var measured = []int{4, 5, 6, 7, 8, 10, 11, 13}

const recordedNameSQL = `CASE WHEN v.recorded_by IS NULL THEN '' WHEN v.recorded_by_name <> '' THEN v.recorded_by_name ELSE coalesce(ru.name, '') END`

// exportSizeSQL counts the rows and measures the columns sized to fit.
const exportSizeSQL = `SELECT count(*),
		coalesce(max(length(s.full_name)), 0), coalesce(max(length(` + classNameSQL + `)), 0),
		coalesce(max(length(d.name)), 0), coalesce(max(length(t.name)), 0), coalesce(max(length(cat.name)), 0),
		coalesce(max(length(v.sanction)), 0), coalesce(max(length(v.location)), 0),
		coalesce(max(length(` + recordedNameSQL + `)), 0)` + fromSQL

// exportRowSQL reads one row of the export: handling types in date order,
// participants once each with their role; shared records count for every
// violation they cover (the view violation_handlings).
const exportRowSQL = `SELECT v.occurred_at, s.nisn, s.full_name, ` + classNameSQL + `, coalesce(d.name, ''),
		t.name, cat.name, v.points, v.sanction, v.location, v.description,
		v.recorded_by IS NULL, ` + recordedNameSQL + `, v.verified_at IS NOT NULL, v.handling_status,
		coalesce((SELECT string_agg(ht.name, ', ' ORDER BY h.handled_on, h.id) FROM violation_handlings vh
			JOIN handlings h ON h.id = vh.handling_id
			JOIN handling_types ht ON ht.id = h.handling_type_id WHERE vh.violation_id = v.id), ''),
		coalesce((SELECT string_agg(DISTINCT hp.name || ' (' || hp.role || ')', ', ') FROM violation_handlings vh
			JOIN handling_participants hp ON hp.handling_id = vh.handling_id WHERE vh.violation_id = v.id), ''),
		v.created_at` + fromSQL

// Export builds the xlsx of the violations f matches within sc, in f's
// order, headers and words in lang. The count, the column sizes and the
// rows come from one read-only snapshot, so the sheet's declared size is
// exactly what it holds. The rows stream from a database cursor into the
// sheet; the caller writes the result (Stream.WriteTo) and closes it.
func (s *ListStore) Export(ctx context.Context, sc Scope, f Filter, lang locale.Lang) (*xlsxw.Stream, error) {
	tx, err := s.db.BeginTxx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("violationlist: export: begin: %w", err)
	}
	defer tx.Rollback()
	// The planner's cost for 100,000 rows with their handling sub-selects
	// crosses jit_above_cost; compiling the query costs more than the
	// simple expressions it would speed up (4 s against 1.6 s measured).
	if _, err := tx.ExecContext(ctx, `SET LOCAL jit = off`); err != nil {
		return nil, fmt.Errorf("violationlist: export: %w", err)
	}

	var a Args
	where := f.Where(sc, &a)
	var total int
	lens := make([]int, len(measured))
	dest := []any{&total}
	for i := range lens {
		dest = append(dest, &lens[i])
	}
	if err := tx.QueryRowContext(ctx, exportSizeSQL+" WHERE "+where, a...).Scan(dest...); err != nil {
		return nil, fmt.Errorf("violationlist: export: count: %w", err)
	}
	if total > MaxExportRows {
		return nil, apperr.New(apperr.Invalid, "violationlist.export.too_many", "max", MaxExportRows, "count", total)
	}

	t := func(key string) string { return locale.Render(lang, key, nil) }
	cols := make([]xlsxw.Column, len(exportCols))
	for i, c := range exportCols {
		cols[i] = xlsxw.Column{Title: t(c.key), Width: c.min}
		cols[i].Width = max(c.min, width(cols[i].Title))
	}
	for j, i := range measured {
		cols[i].Width = min(max(cols[i].Width, float64(lens[j])+2), max(exportCols[i].max, width(cols[i].Title)))
	}
	st, err := xlsxw.NewStream(t("violationlist.export.sheet"), total, cols...)
	if err != nil {
		return nil, err
	}
	ok := false
	defer func() {
		if !ok {
			_ = st.Close()
		}
	}()

	words := map[string]string{
		api.HandlingUnhandled:  t("violationlist.status.unhandled"),
		api.HandlingInProgress: t("violationlist.status.in_progress"),
		api.HandlingResolved:   t("violationlist.status.resolved"),
	}
	verified, unverified, journal := t("violationlist.verified.yes"), t("violationlist.verified.no"), t("violationlist.recorder.journal")

	rows, err := tx.QueryContext(ctx, exportRowSQL+" WHERE "+where+" ORDER BY "+f.OrderBy(), a...)
	if err != nil {
		return nil, fmt.Errorf("violationlist: export: query: %w", err)
	}
	defer rows.Close()
	// One goroutine decodes rows from the cursor while this one writes the
	// sheet: both take about as long, and the channel bounds what waits.
	ch := make(chan exportRow, 512)
	scanErr := make(chan error, 1)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		defer close(ch)
		for rows.Next() {
			var r exportRow
			if err := rows.Scan(&r.occurred, &r.nisn, &r.name, &r.class, &r.dept, &r.typ, &r.cat, &r.points, &r.sanction,
				&r.location, &r.desc, &r.fromJournal, &r.recorder, &r.verified, &r.status, &r.handlings, &r.handlers, &r.created); err != nil {
				scanErr <- fmt.Errorf("violationlist: export: scan: %w", err)
				return
			}
			select {
			case ch <- r:
			case <-stop:
				return
			}
		}
		if err := rows.Err(); err != nil {
			scanErr <- fmt.Errorf("violationlist: export: rows: %w", err)
		}
	}()
	n := 0
	for r := range ch {
		n++
		at := schoolday.In(r.occurred)
		if r.fromJournal {
			r.recorder = journal
		}
		v := unverified
		if r.verified {
			v = verified
		}
		if err := st.SetRow(n, xlsxw.Date(at), xlsxw.Clock(at), r.nisn, r.name, r.class, r.dept, r.typ, r.cat, r.points, r.sanction,
			r.location, r.desc, r.recorder, v, words[r.status], r.handlings, r.handlers, xlsxw.DateTime(schoolday.In(r.created))); err != nil {
			return nil, err
		}
	}
	select {
	case err := <-scanErr:
		return nil, err
	default:
	}
	if n != total {
		return nil, fmt.Errorf("violationlist: export: %d rows read, %d counted", n, total)
	}
	ok = true
	return st, nil
}

// exportRow is one row as read from the cursor.
type exportRow struct {
	occurred, created                                                     time.Time
	nisn, name, class, dept, typ, cat, sanction, location, desc, recorder string
	status, handlings, handlers                                           string
	points                                                                int64
	fromJournal, verified                                                 bool
}

// width is a column width that fits s (about one unit per character, plus
// room for the filter button).
func width(s string) float64 { return float64(utf8.RuneCountInString(s)) + 4 }

// FileName is the export's file name for the Jakarta day of now.
func FileName(now time.Time) string {
	return "pelanggaran-" + schoolday.Of(now) + ".xlsx"
}
