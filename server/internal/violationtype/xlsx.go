package violationtype

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/xuri/excelize/v2"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/locale"
	"github.com/tatib/tatib/server/internal/xlsximport"
	"github.com/tatib/tatib/server/internal/xlsxw"
)

// Import limits. The upload is read into memory (at most MaxImportBytes).
// Only the parts the import needs (the workbook, its relationships, the
// first sheet, shared strings and styles) are ever decompressed, each
// through a limit, and together at most maxImportXML bytes; they are copied
// into a small new archive that excelize opens, so whatever else the file
// carries (pictures, other sheets, padding) is never inflated. How much
// memory that costs per import and in total: docs/violation-types.md.
const (
	MaxImportBytes      = 5 << 20  // the .xlsx file itself
	MaxImportRows       = 2000     // data rows (blank rows not counted)
	maxUncompressed     = 50 << 20 // all zip entries together, as declared
	maxImportXML        = 16 << 20 // the needed parts together, decompressed
	maxEntryRatio       = 100      // uncompressed/compressed of one entry above 1 MB
	maxZipEntries       = 1000
	maxExcelRow         = 1048576
	maxWorkbookPartSize = 2 << 20 // workbook.xml and its relationships
	// excelize keeps a sheet above this size in a temporary file rather
	// than in memory.
	sheetInMemory = 1 << 20
)

// XLSXContentType is the media type of .xlsx files.
const XLSXContentType = xlsximport.ContentType

// The import's columns.
const (
	colCategory = iota
	colName
	colPoints
	colSanction
	colDescription
	numCols
)

var headerAliases = map[string]int{
	"kategori": colCategory, "category": colCategory,
	"nama": colName, "name": colName,
	"poin": colPoints, "points": colPoints, "point": colPoints,
	"sanksi": colSanction, "sanction": colSanction,
	"deskripsi": colDescription, "description": colDescription,
}

var header = xlsximport.Header{
	Aliases: headerAliases, Labels: []string{"kategori", "nama", "poin", "sanksi", "deskripsi"}, Key: nameKey,
	Required: [][]int{{colCategory}, {colName}, {colPoints}},
	Twice:    "violationtype.headers.twice", Missing: "violationtype.headers.missing", TwiceCells: true,
}

// ImportRow is one data row of an import file, as read.
type ImportRow struct {
	Num         int // the row number Excel shows
	Category    string
	Name        string
	Points      string
	Sanction    string
	Description string
	// Formula is the cell (e.g. "C5") of the first mapped cell holding a
	// formula instead of a value; empty when there is none.
	Formula string
}

// invalidFile is a refusal of the whole file, on the field "file".
func invalidFile(key string, kv ...any) error {
	return apperr.New(apperr.Invalid, key, kv...).WithField("file", key, kv...)
}

// invalidHeaders is a refusal of the header row, on the field "headers".
func invalidHeaders(key string, kv ...any) error {
	return apperr.New(apperr.Invalid, key, kv...).WithField("headers", key, kv...)
}

func tooLarge() error {
	return apperr.New(apperr.TooLarge, "violationtype.file.too_large", "mb", MaxImportBytes>>20)
}

// ParseImport reads the first sheet of an .xlsx import file. Errors are
// application errors: TooLarge past MaxImportBytes, Invalid for anything
// that is not a readable .xlsx with the expected header row and at most
// MaxImportRows data rows.
func ParseImport(data []byte) (rows []ImportRow, err error) {
	defer func() {
		// excelize is third-party code reading hostile input: a panic in it
		// is a bad file, not a crashed request.
		if v := recover(); v != nil {
			rows, err = nil, invalidFile("violationtype.file.damaged")
		}
	}()
	f, wb, err := openImport(data)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rows, cols, err := readRows(f, f.GetSheetList()[0])
	if err != nil {
		return nil, err
	}
	if err := markFormulas(wb.sheet, rows, cols); err != nil {
		return nil, err
	}
	return rows, nil
}

// openImport checks data (size, kind, archive) and opens the small archive
// of its first sheet.
func openImport(data []byte) (*excelize.File, workbook, error) {
	if len(data) == 0 {
		return nil, workbook{}, invalidFile("violationtype.file.empty")
	}
	if len(data) > MaxImportBytes {
		return nil, workbook{}, tooLarge()
	}
	if err := sniff(data); err != nil {
		return nil, workbook{}, err
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, workbook{}, invalidFile("violationtype.file.not_openable")
	}
	wb, err := checkArchive(zr)
	if err != nil {
		return nil, wb, err
	}
	small, err := wb.minimal()
	if err != nil {
		return nil, wb, err
	}
	f, err := excelize.OpenReader(bytes.NewReader(small), excelize.Options{
		UnzipSizeLimit:    maxImportXML,
		UnzipXMLSizeLimit: sheetInMemory,
	})
	if err != nil {
		return nil, wb, invalidFile("violationtype.file.unreadable")
	}
	if len(f.GetSheetList()) == 0 {
		_ = f.Close()
		return nil, wb, invalidFile("violationtype.file.no_sheets")
	}
	return f, wb, nil
}

// SheetRow is one non-blank row of a sheet: its cells' raw values and the
// row number Excel shows.
type SheetRow struct {
	Num   int
	Cells []string
}

// SheetRows reads the first sheet of an .xlsx file with ParseImport's
// checks and limits (size, kind, archive, at most MaxImportRows rows under
// the header): the non-blank rows, the header first. Other imports
// (achievement types) map their own columns.
func SheetRows(data []byte) (rows []SheetRow, err error) {
	defer func() {
		if v := recover(); v != nil {
			rows, err = nil, invalidFile("violationtype.file.damaged")
		}
	}()
	f, _, err := openImport(data)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	it, err := f.Rows(f.GetSheetList()[0])
	if err != nil {
		return nil, invalidFile("violationtype.file.sheet_unreadable")
	}
	defer it.Close()
	for n := 1; it.Next() && n <= maxExcelRow; n++ {
		cells, err := it.Columns(excelize.Options{RawCellValue: true})
		if err != nil {
			return nil, invalidFile("violationtype.file.row_unreadable", "row", n)
		}
		if blank(cells) {
			continue
		}
		if len(rows) > MaxImportRows {
			return nil, invalidFile("violationtype.file.too_many_rows", "max", MaxImportRows)
		}
		rows = append(rows, SheetRow{Num: n, Cells: cells})
	}
	if err := it.Error(); err != nil {
		return nil, invalidFile("violationtype.file.sheet_unreadable")
	}
	if len(rows) == 0 {
		return nil, invalidFile("violationtype.file.sheet_empty")
	}
	if len(rows) == 1 {
		return nil, invalidFile("violationtype.file.no_data_rows")
	}
	return rows, nil
}

// IsExample reports whether a template's name cell marks an example row
// ("Contoh: …"), which an import skips.
func IsExample(name string) bool { return isExample(name) }

// NameKey is how names compare: trimmed, inner spaces collapsed, lower case.
func NameKey(s string) string { return nameKey(s) }

// CleanText is text from a form or a file as stored: control characters
// removed, trimmed.
func CleanText(s string) string { return cleanText(s) }

// sniff refuses what is clearly not an .xlsx, saying what it looks like.
func sniff(data []byte) error {
	switch {
	case bytes.HasPrefix(data, []byte("PK\x03\x04")):
		return nil
	case bytes.HasPrefix(data, []byte("\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1")):
		return invalidFile("violationtype.file.old_xls")
	case bytes.HasPrefix(data, []byte("PK")):
		return invalidFile("violationtype.file.damaged_or_empty")
	}
	kind := http.DetectContentType(data)
	switch {
	case strings.HasPrefix(kind, "text/"):
		return invalidFile("violationtype.file.text")
	case strings.HasPrefix(kind, "image/"):
		return invalidFile("violationtype.file.image", "kind", kind)
	case kind == "application/pdf":
		return invalidFile("violationtype.file.pdf")
	}
	return invalidFile("violationtype.file.not_xlsx")
}

// workbook is the parts of an archive the import reads.
type workbook struct {
	// needed are the entries copied into the small archive, in order.
	needed []*zip.File
	// sheet is the first sheet's entry.
	sheet *zip.File
}

func partName(zf *zip.File) string {
	return strings.ToLower(strings.TrimPrefix(strings.ReplaceAll(zf.Name, "\\", "/"), "/"))
}

// checkArchive looks at the zip's directory before anything large is
// inflated: entry count, declared uncompressed sizes and ratios, and that it
// is a workbook. It finds the first sheet and the parts the import needs.
func checkArchive(zr *zip.Reader) (workbook, error) {
	if len(zr.File) > maxZipEntries {
		return workbook{}, invalidFile("violationtype.file.too_many_parts", "count", len(zr.File))
	}
	var total uint64
	parts := map[string]*zip.File{}
	for _, zf := range zr.File {
		total += zf.UncompressedSize64
		if total > maxUncompressed {
			return workbook{}, invalidFile("violationtype.file.unpacked_too_large", "mb", maxUncompressed>>20)
		}
		if zf.UncompressedSize64 > 1<<20 && zf.UncompressedSize64 > maxEntryRatio*max(zf.CompressedSize64, 1) {
			return workbook{}, invalidFile("violationtype.file.suspicious_part", "part", zf.Name, "ratio", maxEntryRatio)
		}
		parts[partName(zf)] = zf
	}
	if parts["[content_types].xml"] == nil || parts["xl/workbook.xml"] == nil {
		return workbook{}, invalidFile("violationtype.file.not_workbook")
	}
	var wb struct {
		Sheets []struct {
			RID string `xml:"id,attr"`
		} `xml:"sheets>sheet"`
	}
	if err := readXMLPart(parts["xl/workbook.xml"], &wb); err != nil || len(wb.Sheets) == 0 {
		return workbook{}, invalidFile("violationtype.file.no_sheet_list")
	}
	var rels struct {
		Rels []struct {
			ID     string `xml:"Id,attr"`
			Type   string `xml:"Type,attr"`
			Target string `xml:"Target,attr"`
		} `xml:"Relationship"`
	}
	relsPart := parts["xl/_rels/workbook.xml.rels"]
	if relsPart == nil || readXMLPart(relsPart, &rels) != nil {
		return workbook{}, invalidFile("violationtype.file.no_sheet_relations")
	}
	target := func(t string) string {
		if strings.HasPrefix(t, "/") {
			return strings.ToLower(strings.TrimPrefix(t, "/"))
		}
		return strings.ToLower(path.Join("xl", t))
	}
	out := workbook{needed: []*zip.File{parts["[content_types].xml"], parts["xl/workbook.xml"], relsPart}}
	if zf := parts["_rels/.rels"]; zf != nil {
		out.needed = append(out.needed, zf)
	}
	for _, r := range rels.Rels {
		zf := parts[target(r.Target)]
		switch {
		case zf == nil:
		case r.ID == wb.Sheets[0].RID:
			out.sheet = zf
		case strings.HasSuffix(r.Type, "/sharedStrings"), strings.HasSuffix(r.Type, "/styles"):
			out.needed = append(out.needed, zf)
		}
	}
	if out.sheet == nil {
		return workbook{}, invalidFile("violationtype.file.first_sheet_missing")
	}
	out.needed = append(out.needed, out.sheet)
	return out, nil
}

// minimal copies the needed parts into a new, compressed archive, reading
// at most maxImportXML decompressed bytes in all.
func (wb workbook) minimal() ([]byte, error) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) {
		return flate.NewWriter(w, flate.BestSpeed)
	})
	budget := int64(maxImportXML)
	for _, zf := range wb.needed {
		n, err := copyPart(zw, zf, budget)
		if err != nil {
			return nil, err
		}
		budget -= n
	}
	if err := zw.Close(); err != nil {
		return nil, fmt.Errorf("violationtype: small archive: %w", err)
	}
	return buf.Bytes(), nil
}

// decompressed counts the bytes the import inflated (tests read it).
var decompressed atomic.Int64

func copyPart(zw *zip.Writer, zf *zip.File, budget int64) (int64, error) {
	rc, err := zf.Open()
	if err != nil {
		return 0, invalidFile("violationtype.file.unreadable")
	}
	defer rc.Close()
	w, err := zw.CreateHeader(&zip.FileHeader{Name: zf.Name, Method: zip.Deflate})
	if err != nil {
		return 0, fmt.Errorf("violationtype: small archive: %w", err)
	}
	n, err := io.Copy(w, io.LimitReader(rc, budget+1))
	decompressed.Add(n)
	if n > budget {
		return n, invalidFile("violationtype.file.needed_too_large", "mb", maxImportXML>>20)
	}
	if err != nil {
		return n, invalidFile("violationtype.file.unreadable")
	}
	return n, nil
}

func readXMLPart(zf *zip.File, v any) error {
	if zf.UncompressedSize64 > maxWorkbookPartSize {
		return fmt.Errorf("part too large")
	}
	rc, err := zf.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	return xml.NewDecoder(io.LimitReader(rc, maxWorkbookPartSize)).Decode(v)
}

// readRows streams the sheet: the first non-blank row is the header, the
// non-blank rows under it are data. cols maps each import column to its
// 0-based sheet column (-1 when absent).
func readRows(f *excelize.File, sheet string) ([]ImportRow, [numCols]int, error) {
	cols := [numCols]int{-1, -1, -1, -1, -1}
	it, err := f.Rows(sheet)
	if err != nil {
		return nil, cols, invalidFile("violationtype.file.sheet_unreadable")
	}
	defer it.Close()
	var out []ImportRow
	header := false
	for n := 1; it.Next(); n++ {
		if n > maxExcelRow {
			break
		}
		cells, err := it.Columns(excelize.Options{RawCellValue: true})
		if err != nil {
			return nil, cols, invalidFile("violationtype.file.row_unreadable", "row", n)
		}
		if blank(cells) {
			continue
		}
		if !header {
			if cols, err = mapHeader(cells); err != nil {
				return nil, cols, err
			}
			header = true
			continue
		}
		if len(out) == MaxImportRows {
			return nil, cols, invalidFile("violationtype.file.too_many_rows", "max", MaxImportRows)
		}
		cell := func(c int) string {
			if i := cols[c]; i >= 0 && i < len(cells) {
				return cells[i]
			}
			return ""
		}
		out = append(out, ImportRow{Num: n, Category: cell(colCategory), Name: cell(colName), Points: cell(colPoints),
			Sanction: cell(colSanction), Description: cell(colDescription)})
	}
	if err := it.Error(); err != nil {
		return nil, cols, invalidFile("violationtype.file.sheet_unreadable")
	}
	if !header {
		return nil, cols, invalidFile("violationtype.file.sheet_empty")
	}
	if len(out) == 0 {
		return nil, cols, invalidFile("violationtype.file.no_data_rows")
	}
	return out, cols, nil
}

func blank(cells []string) bool {
	for _, c := range cells {
		if strings.TrimSpace(c) != "" {
			return false
		}
	}
	return true
}

func mapHeader(cells []string) ([numCols]int, error) {
	cols, err := header.Map(cells)
	return [numCols]int(cols), err
}

// markFormulas streams the first sheet's XML once more and notes, for every
// kept row, the first mapped cell that holds a formula. excelize's row
// iterator gives a formula's cached value and cannot tell.
func markFormulas(zf *zip.File, rows []ImportRow, cols [numCols]int) error {
	if len(rows) == 0 {
		return nil
	}
	byNum := make(map[int]int, len(rows))
	for i, r := range rows {
		byNum[r.Num] = i
	}
	mapped := map[int]bool{}
	for _, c := range cols {
		if c >= 0 {
			mapped[c] = true
		}
	}
	last := rows[len(rows)-1].Num
	rc, err := zf.Open()
	if err != nil {
		return invalidFile("violationtype.file.sheet_unreadable")
	}
	defer rc.Close()
	dec := xml.NewDecoder(io.LimitReader(rc, maxImportXML))
	rowNum, cellRef, cellCol, cellRow := 0, "", 0, 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return invalidFile("violationtype.file.sheet_bad_xml")
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		switch se.Name.Local {
		case "row":
			rowNum++
			for _, a := range se.Attr {
				if a.Name.Local == "r" {
					if n, err := strconv.Atoi(a.Value); err == nil {
						rowNum = n
					}
				}
			}
			cellCol = 0
			if rowNum > last {
				return nil
			}
		case "c":
			cellCol++
			cellRow = rowNum
			cellRef = ""
			for _, a := range se.Attr {
				if a.Name.Local == "r" {
					if c, r, err := excelize.CellNameToCoordinates(a.Value); err == nil {
						cellCol, cellRow, cellRef = c, r, a.Value
					}
				}
			}
		case "f":
			i, kept := byNum[cellRow]
			if !kept || !mapped[cellCol-1] || rows[i].Formula != "" {
				continue
			}
			if cellRef == "" {
				cellRef = xlsximport.ColumnLetter(cellCol-1) + strconv.Itoa(cellRow)
			}
			rows[i].Formula = cellRef
		}
	}
}

// examplePrefixes mark the template's example rows: a row whose name
// starts with one is skipped, so a template uploaded unchanged creates
// nothing.
var examplePrefixes = []string{"contoh:", "example:"}

// isExample reports whether name marks an example row.
func isExample(name string) bool {
	n := strings.ToLower(strings.TrimSpace(name))
	for _, p := range examplePrefixes {
		if strings.HasPrefix(n, p) {
			return true
		}
	}
	return false
}

// Template builds the import template in lang: the header row and example
// rows (marked, never imported) on the first sheet, instructions on a
// second. The header names are the Indonesian ones in every language (the
// import reads both).
func Template(lang locale.Lang) ([]byte, error) {
	t := func(key string, kv ...any) string { return locale.Render(lang, key, locale.Params(kv...)) }
	ex := t("violationtype.template.example_prefix") + " "
	return xlsximport.Template{
		Sheet: t("violationtype.template.sheet"),
		Columns: []xlsxw.Column{
			{Title: "kategori", Width: 14}, {Title: "nama", Width: 56}, {Title: "poin", Width: 8},
			{Title: "sanksi", Width: 40}, {Title: "deskripsi", Width: 48},
		},
		Examples: [][]any{
			{t("violationtype.template.example1_category"), ex + t("violationtype.template.example1_name"), 3,
				t("violationtype.template.example1_sanction"), t("violationtype.template.example1_description")},
			{t("violationtype.template.example2_category"), ex + t("violationtype.template.example2_name"), 10,
				t("violationtype.template.example2_sanction"), ""},
			{t("violationtype.template.example3_category"), ex + t("violationtype.template.example3_name"), 50,
				t("violationtype.template.example3_sanction"), ""},
		},
		HelpSheet: t("violationtype.template.help_sheet"),
		Help: []string{
			t("violationtype.template.help_title"),
			"",
			t("violationtype.template.help_examples", "prefix", strings.TrimSpace(ex)),
			t("violationtype.template.help_sheet_only"),
			t("violationtype.template.help_columns"),
			t("violationtype.template.help_points", "max", MaxPoints),
			t("violationtype.template.help_categories"),
			t("violationtype.template.help_duplicates"),
			t("violationtype.template.help_system"),
			t("violationtype.template.help_check"),
			t("violationtype.template.help_limits", "mb", MaxImportBytes>>20, "rows", MaxImportRows),
		},
	}.Build()
}
