package violationtype

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"path"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"

	"github.com/tatib/tatib/server/internal/apperr"
)

// Import limits. The upload is read into memory (at most MaxImportBytes);
// the zip's declared uncompressed sizes are checked before anything is
// decompressed, and Go's zip reader refuses an entry that inflates past its
// declared size, so a bomb is stopped before it costs memory.
const (
	MaxImportBytes      = 5 << 20  // the .xlsx file itself
	MaxImportRows       = 2000     // data rows (blank rows not counted)
	maxUncompressed     = 50 << 20 // all zip entries together, uncompressed
	maxEntryRatio       = 100      // uncompressed/compressed of one entry above 1 MB
	maxZipEntries       = 1000
	maxExcelRow         = 1048576
	maxWorkbookPartSize = 2 << 20 // workbook.xml and its relationships
)

// XLSXContentType is the media type of .xlsx files.
const XLSXContentType = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

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

var colLabels = [numCols]string{"kategori", "nama", "poin", "sanksi", "deskripsi"}

const expectedHeaders = "Baris judul harus memuat kolom kategori, nama, poin (boleh ditambah sanksi, deskripsi), " +
	"atau dalam bahasa Inggris category, name, points (sanction, description); huruf besar/kecil dan urutan bebas."

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

func invalidFile(format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	return &apperr.Error{Code: apperr.Invalid, Msg: apperr.M(msg), Fields: apperr.Fields{"file": apperr.M(msg)}}
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
			rows, err = nil, invalidFile("Berkas .xlsx tidak dapat dibaca (isinya rusak).")
		}
	}()
	if len(data) == 0 {
		return nil, invalidFile("Berkas kosong. Pilih berkas .xlsx yang berisi data.")
	}
	if len(data) > MaxImportBytes {
		return nil, apperr.New(apperr.TooLarge, "Berkas melebihi batas %d MB.", MaxImportBytes>>20)
	}
	if err := sniff(data); err != nil {
		return nil, err
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, invalidFile("Berkas .xlsx rusak: arsipnya tidak dapat dibuka. Simpan ulang dari Excel lalu unggah lagi.")
	}
	sheetPath, err := checkArchive(zr)
	if err != nil {
		return nil, err
	}
	f, err := excelize.OpenReader(bytes.NewReader(data), excelize.Options{
		UnzipSizeLimit:    maxUncompressed,
		UnzipXMLSizeLimit: 10 << 20, // larger sheets stream from a temporary file
	})
	if err != nil {
		return nil, invalidFile("Berkas .xlsx rusak atau tidak dapat dibaca.")
	}
	defer f.Close()
	sheets := f.GetSheetList()
	if len(sheets) == 0 {
		return nil, invalidFile("Berkas tidak memiliki lembar kerja.")
	}
	rows, cols, err := readRows(f, sheets[0])
	if err != nil {
		return nil, err
	}
	if err := markFormulas(zr, sheetPath, rows, cols); err != nil {
		return nil, err
	}
	return rows, nil
}

// sniff refuses what is clearly not an .xlsx, saying what it looks like.
func sniff(data []byte) error {
	switch {
	case bytes.HasPrefix(data, []byte("PK\x03\x04")):
		return nil
	case bytes.HasPrefix(data, []byte("\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1")):
		return invalidFile("Berkas ini format Excel lama (.xls) atau .xlsx yang dilindungi kata sandi. Simpan sebagai .xlsx tanpa kata sandi lalu unggah lagi.")
	case bytes.HasPrefix(data, []byte("PK")):
		return invalidFile("Berkas .xlsx rusak atau kosong.")
	}
	kind := http.DetectContentType(data)
	switch {
	case strings.HasPrefix(kind, "text/"):
		return invalidFile("Berkas ini berkas teks (misalnya CSV), bukan .xlsx. Buka di Excel lalu simpan sebagai .xlsx, atau unduh templat.")
	case strings.HasPrefix(kind, "image/"):
		return invalidFile("Berkas ini gambar (%s), bukan .xlsx.", kind)
	case kind == "application/pdf":
		return invalidFile("Berkas ini PDF, bukan .xlsx.")
	}
	return invalidFile("Berkas ini bukan .xlsx (Excel). Unduh templat, isi, lalu unggah lagi.")
}

// checkArchive looks at the zip's directory before anything is inflated:
// entry count, declared uncompressed sizes and ratios, and that it is a
// workbook. It returns the path of the first sheet's XML part.
func checkArchive(zr *zip.Reader) (string, error) {
	if len(zr.File) > maxZipEntries {
		return "", invalidFile("Berkas berisi terlalu banyak bagian (%d); ini bukan lembar kerja biasa.", len(zr.File))
	}
	var total uint64
	parts := map[string]*zip.File{}
	for _, zf := range zr.File {
		total += zf.UncompressedSize64
		if total > maxUncompressed {
			return "", invalidFile("Isi berkas terlalu besar setelah diekstrak (lebih dari %d MB). Berkas ditolak demi keamanan server.", maxUncompressed>>20)
		}
		if zf.UncompressedSize64 > 1<<20 && zf.UncompressedSize64 > maxEntryRatio*max(zf.CompressedSize64, 1) {
			return "", invalidFile("Isi berkas mencurigakan: bagian %q mengembang lebih dari %d kali saat diekstrak. Berkas ditolak demi keamanan server.", zf.Name, maxEntryRatio)
		}
		parts[strings.ToLower(strings.TrimPrefix(strings.ReplaceAll(zf.Name, "\\", "/"), "/"))] = zf
	}
	if parts["[content_types].xml"] == nil || parts["xl/workbook.xml"] == nil {
		return "", invalidFile("Arsip ini bukan buku kerja Excel (.xlsx). Unduh templat, isi, lalu unggah lagi.")
	}
	var wb struct {
		Sheets []struct {
			RID string `xml:"id,attr"`
		} `xml:"sheets>sheet"`
	}
	if err := readXMLPart(parts["xl/workbook.xml"], &wb); err != nil || len(wb.Sheets) == 0 {
		return "", invalidFile("Berkas .xlsx rusak: daftar lembar kerjanya tidak terbaca.")
	}
	var rels struct {
		Rels []struct {
			ID     string `xml:"Id,attr"`
			Target string `xml:"Target,attr"`
		} `xml:"Relationship"`
	}
	if zf := parts["xl/_rels/workbook.xml.rels"]; zf == nil || readXMLPart(zf, &rels) != nil {
		return "", invalidFile("Berkas .xlsx rusak: relasi lembar kerjanya tidak terbaca.")
	}
	for _, r := range rels.Rels {
		if r.ID != wb.Sheets[0].RID {
			continue
		}
		p := r.Target
		if strings.HasPrefix(p, "/") {
			p = strings.TrimPrefix(p, "/")
		} else {
			p = path.Join("xl", p)
		}
		if parts[strings.ToLower(p)] == nil {
			break
		}
		return strings.ToLower(p), nil
	}
	return "", invalidFile("Berkas .xlsx rusak: lembar kerja pertama tidak ditemukan.")
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
		return nil, cols, invalidFile("Lembar kerja pertama tidak dapat dibaca.")
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
			return nil, cols, invalidFile("Baris %d tidak dapat dibaca.", n)
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
			return nil, cols, invalidFile("Terlalu banyak baris: maksimal %d baris data per berkas. Bagi data menjadi beberapa berkas.", MaxImportRows)
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
		return nil, cols, invalidFile("Lembar kerja pertama tidak dapat dibaca.")
	}
	if !header {
		return nil, cols, invalidFile("Lembar kerja pertama kosong. %s", expectedHeaders)
	}
	if len(out) == 0 {
		return nil, cols, invalidFile("Tidak ada baris data di bawah baris judul.")
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
	cols := [numCols]int{-1, -1, -1, -1, -1}
	for i, c := range cells {
		k := nameKey(c)
		col, ok := headerAliases[k]
		if !ok {
			continue // extra columns (No, catatan, ...) are ignored
		}
		if cols[col] >= 0 {
			msg := fmt.Sprintf("Kolom %s muncul dua kali di baris judul (kolom %s dan %s).", colLabels[col], columnLetter(cols[col]), columnLetter(i))
			return cols, &apperr.Error{Code: apperr.Invalid, Msg: apperr.M(msg), Fields: apperr.Fields{"headers": apperr.M(msg)}}
		}
		cols[col] = i
	}
	var missing []string
	for _, c := range []int{colCategory, colName, colPoints} {
		if cols[c] < 0 {
			missing = append(missing, colLabels[c])
		}
	}
	if len(missing) > 0 {
		msg := fmt.Sprintf("Kolom wajib tidak ditemukan: %s. %s", strings.Join(missing, ", "), expectedHeaders)
		return cols, &apperr.Error{Code: apperr.Invalid, Msg: apperr.M(msg), Fields: apperr.Fields{"headers": apperr.M(msg)}}
	}
	return cols, nil
}

func columnLetter(i int) string {
	s, err := excelize.ColumnNumberToName(i + 1)
	if err != nil {
		return strconv.Itoa(i + 1)
	}
	return s
}

// markFormulas streams the first sheet's XML once more and notes, for every
// kept row, the first mapped cell that holds a formula. excelize's row
// iterator gives a formula's cached value and cannot tell.
func markFormulas(zr *zip.Reader, sheetPath string, rows []ImportRow, cols [numCols]int) error {
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
	var zf *zip.File
	for _, f := range zr.File {
		if strings.ToLower(strings.TrimPrefix(strings.ReplaceAll(f.Name, "\\", "/"), "/")) == sheetPath {
			zf = f
			break
		}
	}
	if zf == nil {
		return invalidFile("Lembar kerja pertama tidak ditemukan.")
	}
	rc, err := zf.Open()
	if err != nil {
		return invalidFile("Lembar kerja pertama tidak dapat dibaca.")
	}
	defer rc.Close()
	dec := xml.NewDecoder(io.LimitReader(rc, maxUncompressed))
	rowNum, cellRef, cellCol, cellRow := 0, "", 0, 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return invalidFile("Lembar kerja pertama rusak (XML tidak valid).")
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
				cellRef = columnLetter(cellCol-1) + strconv.Itoa(cellRow)
			}
			rows[i].Formula = cellRef
		}
	}
}

// Template builds the import template: the header row and example rows on
// the first sheet, instructions on a second.
func Template() ([]byte, error) {
	f := excelize.NewFile()
	defer f.Close()
	const sheet = "Jenis Pelanggaran"
	if err := f.SetSheetName("Sheet1", sheet); err != nil {
		return nil, err
	}
	rows := [][]any{
		{"kategori", "nama", "poin", "sanksi", "deskripsi"},
		{"Ringan", "Tidak memakai kaos kaki sesuai ketentuan", 3, "Teguran lisan", "Kaos kaki berwarna atau tidak memakai kaos kaki."},
		{"Sedang", "Membawa makanan ke laboratorium", 10, "Teguran tertulis", ""},
		{"Berat", "Merusak peralatan laboratorium dengan sengaja", 50, "Mengganti kerugian dan panggilan orang tua", ""},
	}
	for i, r := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := f.SetSheetRow(sheet, cell, &r); err != nil {
			return nil, err
		}
	}
	bold, err := f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}, Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"#E7F5FF"}}})
	if err != nil {
		return nil, err
	}
	if err := f.SetCellStyle(sheet, "A1", "E1", bold); err != nil {
		return nil, err
	}
	for col, w := range map[string]float64{"A": 14, "B": 48, "C": 8, "D": 40, "E": 48} {
		if err := f.SetColWidth(sheet, col, col, w); err != nil {
			return nil, err
		}
	}
	if err := f.SetPanes(sheet, &excelize.Panes{Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft"}); err != nil {
		return nil, err
	}
	const help = "Petunjuk"
	if _, err := f.NewSheet(help); err != nil {
		return nil, err
	}
	notes := []string{
		"Petunjuk impor jenis pelanggaran",
		"",
		"1. Isi lembar pertama (\"Jenis Pelanggaran\"); hanya lembar pertama yang dibaca. Baris contoh boleh dihapus.",
		"2. Kolom wajib: kategori, nama, poin. Kolom sanksi dan deskripsi boleh kosong. Judul kolom boleh bahasa Inggris: category, name, points, sanction, description.",
		fmt.Sprintf("3. Poin: bilangan bulat 0–%d, ditulis sebagai nilai, bukan rumus.", MaxPoints),
		"4. Kategori yang belum ada dibuat otomatis (huruf besar/kecil dan spasi diabaikan saat mencocokkan).",
		"5. Jenis dengan nama yang sama dalam kategori yang sama (di berkas atau yang sudah tersimpan) dilewati.",
		"6. Jenis sistem (Alpha, Terlambat) tidak dapat dibuat lewat impor.",
		fmt.Sprintf("7. Batas: berkas %d MB, %d baris data.", MaxImportBytes>>20, MaxImportRows),
	}
	for i, n := range notes {
		if err := f.SetCellStr(help, "A"+strconv.Itoa(i+1), n); err != nil {
			return nil, err
		}
	}
	f.SetActiveSheet(0)
	buf, err := f.WriteToBuffer()
	if err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
