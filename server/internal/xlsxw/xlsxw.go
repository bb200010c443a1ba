// Package xlsxw is the one place Tatib writes spreadsheet cells. Every text
// it writes is an explicit string cell, and a text that a spreadsheet would
// take for a formula when typed (=, +, -, @, tab, carriage return: OWASP's
// CSV-injection list) also gets the "quote prefix" style, so it stays text
// even when someone edits the cell and presses Enter. The value itself is
// kept as it is, so a file exported and imported again round-trips.
//
// Numbers stay numbers and dates are written as dates.
package xlsxw

import (
	"fmt"
	"strings"
	"time"

	"github.com/xuri/excelize/v2"
)

// numFmtText is Excel's built-in number format "@" (text).
const numFmtText = 49

// Book is a workbook being written.
type Book struct {
	f      *excelize.File
	sheets int
	list   []*Sheet
	// styles, created once per book.
	header, text, quoted, date int
}

// Column is a header cell and its column's width (0 keeps the default).
type Column struct {
	Title string
	Width float64
}

// New returns an empty workbook; the first Sheet call names its only sheet.
func New() (*Book, error) {
	b := &Book{f: excelize.NewFile()}
	var err error
	if b.header, err = b.f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true},
		Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"#E7F5FF"}}}); err != nil {
		return nil, fmt.Errorf("xlsxw: header style: %w", err)
	}
	if b.text, err = b.f.NewStyle(&excelize.Style{NumFmt: numFmtText}); err != nil {
		return nil, fmt.Errorf("xlsxw: text style: %w", err)
	}
	if b.quoted, err = quotedStyle(b.f); err != nil {
		return nil, err
	}
	if b.date, err = b.f.NewStyle(&excelize.Style{NumFmt: 14}); err != nil { // locale's short date
		return nil, fmt.Errorf("xlsxw: date style: %w", err)
	}
	return b, nil
}

// Close releases the workbook's temporary files.
func (b *Book) Close() error { return b.f.Close() }

// Sheet adds a sheet named name (the first call renames the default one).
func (b *Book) Sheet(name string) (*Sheet, error) {
	if b.sheets == 0 {
		if err := b.f.SetSheetName(b.f.GetSheetName(0), name); err != nil {
			return nil, fmt.Errorf("xlsxw: sheet %q: %w", name, err)
		}
	} else if _, err := b.f.NewSheet(name); err != nil {
		return nil, fmt.Errorf("xlsxw: sheet %q: %w", name, err)
	}
	b.sheets++
	sh := &Sheet{b: b, name: name}
	b.list = append(b.list, sh)
	return sh, nil
}

// Bytes returns the workbook as .xlsx bytes, its first sheet active. Each
// sheet's <dimension> covers the cells written (excelize leaves it at A1,
// and readers such as openpyxl in read-only mode trust it).
func (b *Book) Bytes() ([]byte, error) {
	for _, sh := range b.list {
		if sh.row == 0 || sh.cols == 0 {
			continue
		}
		last, err := excelize.CoordinatesToCellName(sh.cols, sh.row)
		if err != nil {
			return nil, fmt.Errorf("xlsxw: dimension: %w", err)
		}
		if err := b.f.SetSheetDimension(sh.name, "A1:"+last); err != nil {
			return nil, fmt.Errorf("xlsxw: dimension: %w", err)
		}
	}
	b.f.SetActiveSheet(0)
	buf, err := b.f.WriteToBuffer()
	if err != nil {
		return nil, fmt.Errorf("xlsxw: write: %w", err)
	}
	return buf.Bytes(), nil
}

// Sheet writes rows one after another.
type Sheet struct {
	b    *Book
	name string
	row  int // last row written (1-based)
	cols int // widest row written
}

// Header writes cols as a bold header row, sets the column widths, freezes
// the row and puts an autofilter on it.
func (s *Sheet) Header(cols ...Column) error {
	if len(cols) == 0 {
		return nil
	}
	cells := make([]any, len(cols))
	for i, c := range cols {
		cells[i] = c.Title
	}
	if err := s.SetRow(cells...); err != nil {
		return err
	}
	r := s.row
	first, _ := excelize.CoordinatesToCellName(1, r)
	last, _ := excelize.CoordinatesToCellName(len(cols), r)
	if err := s.b.f.SetCellStyle(s.name, first, last, s.b.header); err != nil {
		return fmt.Errorf("xlsxw: header style: %w", err)
	}
	for i, c := range cols {
		if c.Width <= 0 {
			continue
		}
		col, _ := excelize.ColumnNumberToName(i + 1)
		if err := s.b.f.SetColWidth(s.name, col, col, c.Width); err != nil {
			return fmt.Errorf("xlsxw: width: %w", err)
		}
	}
	below, _ := excelize.CoordinatesToCellName(1, r+1)
	if err := s.b.f.SetPanes(s.name, &excelize.Panes{Freeze: true, YSplit: r, TopLeftCell: below, ActivePane: "bottomLeft"}); err != nil {
		return fmt.Errorf("xlsxw: freeze: %w", err)
	}
	if err := s.b.f.AutoFilter(s.name, first+":"+last, nil); err != nil {
		return fmt.Errorf("xlsxw: autofilter: %w", err)
	}
	return nil
}

// SetRow writes the next row. A string (or fmt.Stringer) becomes a string
// cell, never a formula; integers and floats stay numbers; a time.Time is a
// date; nil leaves the cell empty; a bool is a boolean.
func (s *Sheet) SetRow(cells ...any) error {
	s.row++
	s.cols = max(s.cols, len(cells))
	for i, v := range cells {
		cell, err := excelize.CoordinatesToCellName(i+1, s.row)
		if err != nil {
			return fmt.Errorf("xlsxw: cell: %w", err)
		}
		if err := s.set(cell, v); err != nil {
			return fmt.Errorf("xlsxw: %s!%s: %w", s.name, cell, err)
		}
	}
	return nil
}

func (s *Sheet) set(cell string, v any) error {
	f := s.b.f
	switch x := v.(type) {
	case nil:
		return nil
	case string:
		return s.text(cell, x)
	case time.Time: // before fmt.Stringer: a time is one
		if err := f.SetCellValue(s.name, cell, x); err != nil {
			return err
		}
		return f.SetCellStyle(s.name, cell, cell, s.b.date)
	case Date:
		if err := f.SetCellFloat(s.name, cell, day(time.Time(x)), -1, 64); err != nil {
			return err
		}
		return f.SetCellStyle(s.name, cell, cell, s.b.date)
	case fmt.Stringer:
		return s.text(cell, x.String())
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, float32, float64, bool:
		return f.SetCellValue(s.name, cell, x)
	default:
		return s.text(cell, fmt.Sprint(x))
	}
}

func (s *Sheet) text(cell, v string) error {
	if err := s.b.f.SetCellStr(s.name, cell, v); err != nil {
		return err
	}
	style := s.b.text
	if Risky(v) {
		style = s.b.quoted
	}
	return s.b.f.SetCellStyle(s.name, cell, cell, style)
}

// Risky reports whether a spreadsheet would read v as a formula when it is
// typed into a cell: it starts with =, +, -, @, a tab or a carriage return
// (leading spaces do not protect it: Excel trims them).
func Risky(v string) bool {
	t := strings.TrimLeft(v, " ")
	return t != "" && strings.ContainsRune("=+-@\t\r", rune(t[0]))
}
