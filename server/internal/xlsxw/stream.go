package xlsxw

import (
	"fmt"
	"io"
	"time"

	"github.com/xuri/excelize/v2"
)

// Date, DateTime and Clock are cells written as real spreadsheet dates with
// a date, date-and-time or time-of-day format. Each is written by its wall
// clock in its own location: convert to Asia/Jakarta before wrapping. A plain
// time.Time is written as a Date.
type (
	// Date is a calendar day.
	Date time.Time
	// DateTime is a day and a time of day (to the minute in the format).
	DateTime time.Time
	// Clock is a time of day.
	Clock time.Time
)

// serialEpoch is day 0 of the spreadsheet date system for every date after
// 1 March 1900 (Excel's phantom 29 February 1900 shifts the real 31 Dec 1899).
var serialEpoch = time.Date(1899, 12, 30, 0, 0, 0, 0, time.UTC)

// day is t's calendar day (wall clock) as a spreadsheet date number: whole
// days since the epoch.
func day(t time.Time) float64 {
	y, m, d := t.Date()
	return float64(time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Sub(serialEpoch) / (24 * time.Hour))
}

// serial is t's wall clock as a spreadsheet date-and-time number.
func serial(t time.Time) float64 { return day(t) + clock(t) }

// clock is t's time of day as a fraction of a day.
func clock(t time.Time) float64 {
	h, mi, s := t.Clock()
	return float64(h*3600+mi*60+s) / 86400
}

// Built-in number formats: 14 the locale's short date, 22 short date and
// time, 20 h:mm.
const (
	numFmtDate     = 14
	numFmtDateTime = 22
	numFmtClock    = 20
)

// Stream writes a one-sheet workbook row by row through excelize's
// StreamWriter, so a sheet of any length costs a small, flat amount of memory
// on top of the compressed file itself (excelize builds the final zip in
// memory). Rows go to excelize's buffer (a temporary file past 16 MB) and
// reach the writer only in WriteTo.
//
// The number of data rows is declared up front: the sheet's <dimension>
// precedes its rows in the file, and readers such as openpyxl in read-only
// mode trust it, so it must cover every cell. WriteTo refuses a sheet whose
// written rows differ from the declared count.
type Stream struct {
	f     *excelize.File
	sw    *excelize.StreamWriter
	name  string
	cols  int
	rows  int // declared data rows
	row   int // last row written (1-based; the header is row 1)
	cells []any
	// styles
	header, text, quoted, date, dateTime, clock int
}

// NewStream starts a workbook whose only sheet is name, with cols as its
// bold, frozen, filterable header row, and room declared for exactly rows
// data rows below it.
func NewStream(name string, rows int, cols ...Column) (*Stream, error) {
	if len(cols) == 0 {
		return nil, fmt.Errorf("xlsxw: stream without columns")
	}
	if rows < 0 || rows+1 > excelize.TotalRows {
		return nil, fmt.Errorf("xlsxw: %d rows do not fit a sheet", rows)
	}
	s := &Stream{f: excelize.NewFile(), name: name, cols: len(cols), rows: rows, cells: make([]any, len(cols))}
	ok := false
	defer func() {
		if !ok {
			_ = s.f.Close()
		}
	}()
	if err := s.f.SetSheetName(s.f.GetSheetName(0), name); err != nil {
		return nil, fmt.Errorf("xlsxw: sheet %q: %w", name, err)
	}
	if err := s.styles(); err != nil {
		return nil, err
	}
	last, _ := excelize.CoordinatesToCellName(len(cols), rows+1)
	lastHeader, _ := excelize.CoordinatesToCellName(len(cols), 1)
	// Both live in the sheet's header part, which the stream writer copies
	// when it starts (dimension) or finishes (autofilter).
	if err := s.f.SetSheetDimension(name, "A1:"+last); err != nil {
		return nil, fmt.Errorf("xlsxw: dimension: %w", err)
	}
	if err := s.f.AutoFilter(name, "A1:"+lastHeader, nil); err != nil {
		return nil, fmt.Errorf("xlsxw: autofilter: %w", err)
	}
	sw, err := s.f.NewStreamWriter(name)
	if err != nil {
		return nil, fmt.Errorf("xlsxw: stream: %w", err)
	}
	s.sw = sw
	for i, c := range cols {
		if c.Width <= 0 {
			continue
		}
		if err := sw.SetColWidth(i+1, i+1, c.Width); err != nil {
			return nil, fmt.Errorf("xlsxw: width: %w", err)
		}
	}
	if err := sw.SetPanes(&excelize.Panes{Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft"}); err != nil {
		return nil, fmt.Errorf("xlsxw: freeze: %w", err)
	}
	head := make([]any, len(cols))
	for i, c := range cols {
		style := s.header
		if Risky(c.Title) {
			style = s.quoted
		}
		head[i] = excelize.Cell{StyleID: style, Value: c.Title}
	}
	if err := sw.SetRow("A1", head); err != nil {
		return nil, fmt.Errorf("xlsxw: header: %w", err)
	}
	s.row = 1
	ok = true
	return s, nil
}

func (s *Stream) styles() error {
	var err error
	if s.header, err = s.f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true},
		Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"#E7F5FF"}}}); err != nil {
		return fmt.Errorf("xlsxw: header style: %w", err)
	}
	if s.text, err = s.f.NewStyle(&excelize.Style{NumFmt: numFmtText}); err != nil {
		return fmt.Errorf("xlsxw: text style: %w", err)
	}
	if s.quoted, err = quotedStyle(s.f); err != nil {
		return err
	}
	if s.date, err = s.f.NewStyle(&excelize.Style{NumFmt: numFmtDate}); err != nil {
		return fmt.Errorf("xlsxw: date style: %w", err)
	}
	if s.dateTime, err = s.f.NewStyle(&excelize.Style{NumFmt: numFmtDateTime}); err != nil {
		return fmt.Errorf("xlsxw: date-time style: %w", err)
	}
	if s.clock, err = s.f.NewStyle(&excelize.Style{NumFmt: numFmtClock}); err != nil {
		return fmt.Errorf("xlsxw: time style: %w", err)
	}
	return nil
}

// quotedStyle adds a text style carrying quotePrefix, which excelize's Style
// cannot express: it is set on the stored xf. It must differ from the plain
// text style (an explicit left alignment) or excelize would reuse that one.
func quotedStyle(f *excelize.File) (int, error) {
	id, err := f.NewStyle(&excelize.Style{NumFmt: numFmtText, Alignment: &excelize.Alignment{Horizontal: "left"}})
	if err != nil {
		return 0, fmt.Errorf("xlsxw: quoted style: %w", err)
	}
	if f.Styles == nil || f.Styles.CellXfs == nil || id >= len(f.Styles.CellXfs.Xf) {
		return 0, fmt.Errorf("xlsxw: quoted style: no cell format %d", id)
	}
	yes := true
	f.Styles.CellXfs.Xf[id].QuotePrefix = &yes
	return id, nil
}

// SetRow writes the next data row, cells as Sheet.SetRow takes them, plus
// Date, DateTime and Clock. A row longer than the header is refused.
func (s *Stream) SetRow(cells ...any) error {
	if len(cells) > s.cols {
		return fmt.Errorf("xlsxw: row of %d cells under %d columns", len(cells), s.cols)
	}
	if s.row-1 >= s.rows {
		return fmt.Errorf("xlsxw: more than the %d rows declared", s.rows)
	}
	s.row++
	out := s.cells[:len(cells)]
	for i, v := range cells {
		out[i] = s.cell(v)
	}
	ref, err := excelize.CoordinatesToCellName(1, s.row)
	if err != nil {
		return fmt.Errorf("xlsxw: cell: %w", err)
	}
	if err := s.sw.SetRow(ref, out); err != nil {
		return fmt.Errorf("xlsxw: %s row %d: %w", s.name, s.row, err)
	}
	return nil
}

func (s *Stream) cell(v any) any {
	switch x := v.(type) {
	case nil:
		return nil
	case string:
		return s.textCell(x)
	case Date:
		return excelize.Cell{StyleID: s.date, Value: day(time.Time(x))}
	case DateTime:
		return excelize.Cell{StyleID: s.dateTime, Value: serial(time.Time(x))}
	case Clock:
		return excelize.Cell{StyleID: s.clock, Value: clock(time.Time(x))}
	case time.Time: // before fmt.Stringer: a time is one
		return excelize.Cell{StyleID: s.date, Value: day(x)}
	case fmt.Stringer:
		return s.textCell(x.String())
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, float32, float64, bool:
		return x
	default:
		return s.textCell(fmt.Sprint(x))
	}
}

func (s *Stream) textCell(v string) excelize.Cell {
	style := s.text
	if Risky(v) {
		style = s.quoted
	}
	return excelize.Cell{StyleID: style, Value: v}
}

// Rows is the number of data rows written so far.
func (s *Stream) Rows() int { return s.row - 1 }

// WriteTo finishes the sheet and writes the .xlsx to w.
func (s *Stream) WriteTo(w io.Writer) (int64, error) {
	if s.row-1 != s.rows {
		return 0, fmt.Errorf("xlsxw: %d rows written, %d declared", s.row-1, s.rows)
	}
	if err := s.sw.Flush(); err != nil {
		return 0, fmt.Errorf("xlsxw: flush: %w", err)
	}
	n, err := s.f.WriteTo(w)
	if err != nil {
		return n, fmt.Errorf("xlsxw: write: %w", err)
	}
	return n, nil
}

// Close releases the workbook's temporary files.
func (s *Stream) Close() error { return s.f.Close() }
