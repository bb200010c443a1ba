package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/tatib/tatib/server/internal/cases"
	"github.com/tatib/tatib/server/internal/pdfdoc"
	"github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/server/internal/schoolday"
	"github.com/tatib/tatib/shared/api"
)

// The PDF is in Indonesian whatever the reader's language, like the
// warning letter: it is an official document of an Indonesian school.

// Table text.
const (
	fontSize = 8.0
	lineH    = 4.0
	// maxCellLines caps a cell's lines so that no row is taller than a
	// page: a longer description is cut with "…" (the screen has it whole).
	maxCellLines = 12
)

var statusID = map[string]string{
	api.HandlingUnhandled:  "Belum ditangani",
	api.HandlingInProgress: "Sedang ditangani",
	api.HandlingResolved:   "Selesai",
}

// landscape turns a paper on its side: the document's page is wider than
// tall.
func landscape(p pdfdoc.Paper) pdfdoc.Paper {
	return pdfdoc.Paper{Name: p.Name, Width: p.Height, Height: p.Width}
}

// PeriodText is the period as the PDF names it: "November 2026",
// "Semester 1 Tahun Ajaran 2026/2027", "1 Juli 2026 – 30 Juni 2027".
func PeriodText(p api.RecapPeriod) string {
	from, _ := time.Parse(time.DateOnly, p.From)
	to, _ := time.Parse(time.DateOnly, p.To)
	days := pdfdoc.DateID(from) + " – " + pdfdoc.DateID(to)
	switch p.Kind {
	case api.RecapPeriodMonth:
		return pdfdoc.Months[from.Month()-1] + " " + strconv.Itoa(from.Year())
	case api.RecapPeriodSemester:
		return fmt.Sprintf("Semester %d Tahun Ajaran %d/%d (%s)", p.Semester, p.AcademicYear, p.AcademicYear+1, days)
	case api.RecapPeriodAcademicYear:
		return fmt.Sprintf("Tahun Ajaran %d/%d (%s)", p.AcademicYear, p.AcademicYear+1, days)
	}
	return days
}

// ScopeText names the scope: "Kelas X RPL 1", "Kelas 10", "Jurusan …",
// "Seluruh sekolah".
func ScopeText(s api.RecapScope) string {
	switch s.Kind {
	case api.RecapScopeClass:
		return "Kelas " + s.ClassName
	case api.RecapScopeGrade:
		return "Tingkat " + strconv.Itoa(s.Grade)
	case api.RecapScopeDepartment:
		return "Jurusan " + s.DepartmentName
	}
	return "Seluruh sekolah"
}

// SourceText names the report's source: "Sumber: perilaku" and so on.
func SourceText(source string) string {
	switch source {
	case api.SourceBehaviour:
		return "Sumber: perilaku"
	case api.SourceAttendance:
		return "Sumber: absensi (alpa dan terlambat otomatis)"
	}
	return "Sumber: perilaku dan absensi"
}

// clean keeps what the embedded font can measure: fpdf's width table
// stops at U+FFFF (an emoji would take the document down), and control
// characters but the line break print as boxes.
func clean(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\n':
			return r
		case r == '\t':
			return ' '
		case r < 0x20 || r == 0x7f:
			return -1
		case r > 0xFFFF:
			return '\uFFFD'
		}
		return r
	}, s)
}

type column struct {
	title string
	width float64
	align string
}

// table draws rows whose height is measured before they are drawn: a row
// that does not fit goes whole to the next page, under the header again.
type table struct {
	d     *pdfdoc.Doc
	cols  []column
	pageH float64
}

// newTable gives column flex what the others leave of the content width.
func newTable(d *pdfdoc.Doc, cols []column, flex int) *table {
	_, h := d.GetPageSize()
	sum := 0.0
	for i, c := range cols {
		if i != flex {
			sum += c.width
		}
	}
	cols[flex].width = d.ContentWidth() - sum
	return &table{d: d, cols: cols, pageH: h}
}

// split measures cells into lines with the current font.
func (t *table) split(cells []string) ([][]string, float64) {
	lines := make([][]string, len(cells))
	n := 1
	for i, c := range cells {
		l := t.d.SplitText(clean(c), t.cols[i].width)
		if len(l) == 0 {
			l = []string{""}
		}
		if len(l) > maxCellLines {
			l = append(l[:maxCellLines-1:maxCellLines-1], strings.TrimRight(l[maxCellLines-1], " ")+" …")
		}
		lines[i] = l
		n = max(n, len(l))
	}
	return lines, float64(n)*lineH + 1
}

func (t *table) room() float64 { return t.pageH - pdfdoc.MarginBottom - t.d.GetY() }

// draw writes measured lines as one row at the current position.
func (t *table) draw(lines [][]string, h float64, fill bool) {
	d := t.d
	x, y := pdfdoc.MarginLeft, d.GetY()
	for i, c := range t.cols {
		style := "D"
		if fill {
			style = "FD"
		}
		d.Rect(x, y, c.width, h, style)
		for j, l := range lines[i] {
			d.SetXY(x, y+0.5+float64(j)*lineH)
			d.CellFormat(c.width, lineH, l, "", 0, c.align, false, 0, "")
		}
		x += c.width
	}
	d.SetXY(pdfdoc.MarginLeft, y+h)
}

// header writes the column titles, bold on grey.
func (t *table) header() {
	t.d.SetFont(pdfdoc.Font, "B", fontSize)
	t.d.SetFillColor(230, 230, 230)
	titles := make([]string, len(t.cols))
	for i, c := range t.cols {
		titles[i] = c.title
	}
	lines, h := t.split(titles)
	t.draw(lines, h, true)
	t.d.SetFont(pdfdoc.Font, "", fontSize)
}

// start writes the header, first taking a new page when the header and
// one row would not fit.
func (t *table) start() {
	if t.room() < 3*lineH+4 {
		t.d.AddPage()
	}
	t.header()
}

// row writes one row, on a new page under a repeated header when it
// does not fit on this one.
func (t *table) row(cells []string, bold bool) {
	style := ""
	if bold {
		style = "B"
	}
	t.d.SetFont(pdfdoc.Font, style, fontSize)
	lines, h := t.split(cells)
	if h > t.room() {
		t.d.AddPage()
		t.header()
		t.d.SetFont(pdfdoc.Font, style, fontSize)
	}
	t.draw(lines, h, false)
}

// heading writes a section title, kept with the table's first rows.
func heading(d *pdfdoc.Doc, text string) {
	_, pageH := d.GetPageSize()
	if pageH-pdfdoc.MarginBottom-d.GetY() < 25 {
		d.AddPage()
	}
	d.Ln(3)
	d.SetFont(pdfdoc.Font, "B", 10)
	d.CellFormat(0, 6, text, "", 1, "L", false, 0, "")
	d.SetFont(pdfdoc.Font, "", fontSize)
}

// Document is what the PDF shows besides the detail rows, which are
// streamed into it.
type Document struct {
	Recap     api.ViolationRecap
	Profile   school.Profile
	Logo      []byte
	Generated time.Time
}

// jakartaTime is "23 November 2026 pukul 14.05 WIB".
func jakartaTime(t time.Time) string {
	t = schoolday.In(t)
	return fmt.Sprintf("%s pukul %02d.%02d WIB", pdfdoc.DateID(t), t.Hour(), t.Minute())
}

// Render writes the report's PDF to w, reading the detail rows from each
// (called once, with a function that draws one row); it returns the
// number of pages.
func Render(w io.Writer, doc Document, each func(fn func(api.RecapDetailRow) error) error) (int, error) {
	rep := doc.Recap
	generated := jakartaTime(doc.Generated)
	d := pdfdoc.New(pdfdoc.Options{
		Paper:  landscape(pdfdoc.PaperByName(doc.Profile.PaperSize)),
		Title:  "Rekap Pelanggaran Siswa — " + ScopeText(rep.Scope) + " — " + PeriodText(rep.Period),
		Author: doc.Profile.Name,
		PageLabel: func(page int, total string) string {
			return "Dicetak " + generated + "   ·   " + pdfdoc.PageFooterID(page, total)
		},
		Created: doc.Generated,
	})
	d.SetAutoPageBreak(false, pdfdoc.MarginBottom)
	d.WriteLetterhead(pdfdoc.Letterhead{Name: doc.Profile.Name, Address: doc.Profile.Address, Phone: doc.Profile.Phone, Logo: doc.Logo})

	d.SetFont(pdfdoc.Font, "B", 13)
	d.CellFormat(0, 7, "REKAP PELANGGARAN SISWA", "", 1, "C", false, 0, "")
	d.SetFont(pdfdoc.Font, "", 10)
	d.CellFormat(0, 5, ScopeText(rep.Scope)+"   ·   Periode: "+PeriodText(rep.Period)+"   ·   "+SourceText(rep.Source), "", 1, "C", false, 0, "")
	d.CellFormat(0, 5, fmt.Sprintf("Jumlah pelanggaran: %d   ·   Siswa terlibat: %d   ·   Jumlah poin: %d",
		rep.Totals.Violations, rep.Totals.Students, rep.Totals.Points), "", 1, "C", false, 0, "")
	d.SetFont(pdfdoc.Font, "", 8)
	d.CellFormat(0, 5, "Dicetak "+generated, "", 1, "C", false, 0, "")

	// A. Per class.
	heading(d, "A. Ringkasan per kelas")
	cols := []column{{"No", 9, "C"}, {"Kelas", 40, "L"}, {"Pelanggaran", 26, "R"}, {"Siswa", 16, "R"}, {"Poin", 18, "R"}}
	rest := d.ContentWidth() - 109
	for _, c := range rep.Categories {
		cols = append(cols, column{c.Name, rest / float64(max(1, len(rep.Categories))), "R"})
	}
	if len(rep.Categories) == 0 {
		cols = append(cols, column{"", rest, "L"})
	}
	t := newTable(d, cols, len(cols)-1)
	t.start()
	byCat := make([]int, len(rep.Categories))
	for i, c := range rep.Classes {
		cells := []string{strconv.Itoa(i + 1), dash(c.ClassName), strconv.Itoa(c.Violations), strconv.Itoa(c.Students), strconv.Itoa(c.Points)}
		for j, n := range c.ByCategory {
			cells = append(cells, strconv.Itoa(n))
			byCat[j] += n
		}
		t.row(pad(cells, len(cols)), false)
	}
	if len(rep.Classes) == 0 {
		t.row(pad([]string{"", "Tidak ada pelanggaran"}, len(cols)), false)
	}
	total := []string{"", "Jumlah", strconv.Itoa(rep.Totals.Violations), strconv.Itoa(rep.Totals.Students), strconv.Itoa(rep.Totals.Points)}
	for _, n := range byCat {
		total = append(total, strconv.Itoa(n))
	}
	t.row(pad(total, len(cols)), true)

	// B. Per student.
	heading(d, "B. Rekap per siswa")
	// "Poin periode" is the period's violations (gross); the year's
	// figures are up to the period's end, the net one as the letters count
	// it (less the points policy's reductions).
	t = newTable(d, []column{{"No", 9, "C"}, {"Nama siswa", 62, "L"}, {"NIS", 22, "L"}, {"Kelas", 32, "L"},
		{"Pelanggaran", 24, "R"}, {"Poin periode", 24, "R"}, {"Poin TA (kotor)", 28, "R"}, {"Total TA (bersih)", 30, "R"},
		{"Tingkat SP", 0, "L"}}, 8)
	t.start()
	for i, s := range rep.Students {
		sp := "-"
		if s.SPLevel > 0 {
			sp = s.SPName
		}
		t.row([]string{strconv.Itoa(i + 1), s.FullName, dash(s.NIS), dash(s.ClassName), strconv.Itoa(s.Violations), strconv.Itoa(s.Points),
			strconv.Itoa(s.YearGross), strconv.Itoa(s.YearTotal), sp}, false)
	}
	if len(rep.Students) == 0 {
		t.row([]string{"", "Tidak ada pelanggaran", "", "", "", "", "", "", ""}, false)
	}

	// C. Every violation, streamed from the database.
	heading(d, "C. Rincian pelanggaran")
	t = newTable(d, []column{{"No", 10, "C"}, {"Tanggal", 30, "L"}, {"Nama siswa", 50, "L"}, {"Kelas (saat itu)", 28, "L"},
		{"Pelanggaran", 0, "L"}, {"Poin", 12, "R"}, {"Status penanganan", 30, "L"}}, 4)
	t.start()
	n := 0
	err := each(func(r api.RecapDetailRow) error {
		n++
		what := r.TypeName
		if desc := strings.TrimSpace(r.Description); desc != "" {
			what += "\n" + desc
		}
		day, _ := time.Parse(time.DateOnly, r.OccurredOn)
		t.row([]string{strconv.Itoa(n), pdfdoc.DateID(day), r.StudentName, dash(r.ClassName), what, strconv.Itoa(r.Points), statusText(r.HandlingStatus)}, false)
		return nil
	})
	if err != nil {
		return 0, err
	}
	if n == 0 {
		t.row([]string{"", "", "Tidak ada pelanggaran", "", "", "", ""}, false)
	}

	if rep.Cases != nil {
		casesSection(d, *rep.Cases)
	}

	signatures(d, doc.Profile, doc.Generated)
	if err := d.Write(w); err != nil {
		return 0, err
	}
	return d.PageCount(), nil
}

// casesSection is D: the period's cases, counted — never a case, a title or
// a name (the regulation keeps the people in a case confidential).
func casesSection(d *pdfdoc.Doc, c api.RecapCases) {
	heading(d, "D. Kasus (jumlah saja)")
	d.SetFont(pdfdoc.Font, "", 8)
	d.MultiCell(0, 4, clean("Kasus yang terjadi dalam periode ini, dihitung menurut kategori, tahap saat ini dan klasifikasi. "+
		"Identitas pihak dalam kasus dirahasiakan (Permendikdasmen Nomor 6 Tahun 2026 tentang Budaya Sekolah Aman dan Nyaman)."), "", "L", false)
	d.Ln(1)
	t := newTable(d, []column{{"Menurut", 45, "L"}, {"Uraian", 0, "L"}, {"Jumlah kasus", 30, "R"}}, 1)
	t.start()
	for _, r := range c.ByCategory {
		t.row([]string{"Kategori", r.Label, strconv.Itoa(r.Count)}, false)
	}
	for _, r := range c.ByStage {
		t.row([]string{"Tahap saat ini", cases.StageName(r.Key), strconv.Itoa(r.Count)}, false)
	}
	for _, r := range c.ByClassification {
		t.row([]string{"Klasifikasi", cases.ClassificationName(r.Key), strconv.Itoa(r.Count)}, false)
	}
	t.row([]string{"Rujukan", "Dirujuk ke Pokja", strconv.Itoa(c.Referred)}, false)
	t.row([]string{"Jumlah", "Semua kasus dalam periode", strconv.Itoa(c.Total)}, true)
}

func statusText(s string) string {
	if t, ok := statusID[s]; ok {
		return t
	}
	return s
}

func pad(cells []string, n int) []string {
	for len(cells) < n {
		cells = append(cells, "")
	}
	return cells[:n]
}

func dash(s string) string {
	if strings.TrimSpace(s) == "" {
		return "-"
	}
	return s
}

// signatures writes the BK coordinator (left) and the principal with
// their NIP (right) under the date, kept together on one page.
func signatures(d *pdfdoc.Doc, prof school.Profile, at time.Time) {
	const need = 52.0
	_, pageH := d.GetPageSize()
	if d.GetY()+need > pageH-pdfdoc.MarginBottom {
		d.AddPage()
	}
	d.Ln(6)
	w := d.ContentWidth() / 3
	left, right := pdfdoc.MarginLeft, pdfdoc.MarginLeft+2*w
	y := d.GetY()
	d.SetFont(pdfdoc.Font, "", 10)
	d.SetXY(right, y)
	d.CellFormat(w, 5, pdfdoc.DateID(schoolday.In(at)), "", 1, "C", false, 0, "")
	y += 5
	block(d, left, y, w, "Koordinator BK,", prof.BKCoordinatorName, "")
	block(d, right, y, w, "Mengetahui,\nKepala Sekolah,", prof.PrincipalName, nipText(prof.PrincipalNIP))
}

// block writes one signature: the role, room to sign, the name (or a
// dotted line when the school has not set it) and an optional line below.
func block(d *pdfdoc.Doc, x, y, w float64, role, name, below string) {
	d.SetXY(x, y)
	d.SetFont(pdfdoc.Font, "", 10)
	d.MultiCell(w, 5, role, "", "C", false)
	d.SetXY(x, y+28)
	if strings.TrimSpace(name) == "" {
		name = "(.................................)"
	} else {
		d.SetFont(pdfdoc.Font, "B", 10)
	}
	d.MultiCell(w, 5, name, "", "C", false)
	if below != "" {
		d.SetX(x)
		d.SetFont(pdfdoc.Font, "", 10)
		d.MultiCell(w, 5, below, "", "C", false)
	}
}

// nipText groups an 18-digit NIP the way it is printed: "NIP. 19720315
// 200003 1 002"; an empty NIP prints "NIP. -".
func nipText(nip string) string {
	if len(nip) == 18 {
		nip = nip[:8] + " " + nip[8:14] + " " + nip[14:15] + " " + nip[15:]
	}
	return "NIP. " + dash(nip)
}
