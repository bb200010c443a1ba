package letter

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	qrcode "github.com/skip2/go-qrcode"

	"github.com/tatib/tatib/server/internal/pdfdoc"
	"github.com/tatib/tatib/server/internal/pointspolicy"
	"github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/server/internal/schoolday"
)

// Summons is the paragraph asking the parent to come to school. It stands
// where the threshold text writes {panggilan}; a text without it gets the
// paragraph after it from level 2 (SP 2) up, so the later letters always
// summon the parent.
const Summons = "Sehubungan dengan hal tersebut, kami mengundang Bapak/Ibu orang tua/wali siswa untuk hadir ke sekolah " +
	"menemui guru Bimbingan dan Konseling (BK) dan wali kelas selambat-lambatnya 7 (tujuh) hari sejak surat ini diterima, " +
	"dengan membawa surat ini."

// SummonsFromLevel is the first level whose letter summons the parent when
// its text does not place {panggilan} itself.
const SummonsFromLevel = 2

// fallbackText stands in when the letter's level has no threshold any
// more (the thresholds were replaced after it was issued).
const fallbackText = "Berdasarkan catatan tata tertib sekolah, siswa tersebut telah mengumpulkan {poin} poin pelanggaran " +
	"sehingga mencapai batas {level}. Kami mengharapkan perhatian dan kerja sama Bapak/Ibu orang tua/wali untuk membimbing " +
	"putra/putri Bapak/Ibu agar lebih mematuhi tata tertib sekolah."

// Render writes the letter as a PDF on the school's letterhead, in
// Indonesian (letters are official documents of an Indonesian school).
func Render(p Printout, prof school.Profile, logo []byte) ([]byte, error) {
	issued := schoolday.In(p.IssuedAt)
	d := pdfdoc.New(pdfdoc.Options{
		Paper:     pdfdoc.PaperByName(prof.PaperSize),
		Title:     fmt.Sprintf("%s %s — %s", p.Name, numberText(p.Number), p.StudentName),
		Author:    prof.Name,
		PageLabel: pdfdoc.PageFooterID,
		Created:   issued,
	})
	qr, err := qrOf(p)
	if err != nil {
		return nil, err
	}
	if err := writeLetter(d, p, prof, logo, qr); err != nil {
		return nil, err
	}
	return d.Bytes()
}

// RenderBatch writes several letters into one PDF, each starting on a new
// page and numbering its own pages. It lays them out twice: the first time
// only counts each letter's pages, so the second prints "Halaman 1 dari 2"
// directly (a page-count alias per letter would be searched for on every
// page: quadratic in a batch of 200).
func RenderBatch(ps []Printout, prof school.Profile, logo []byte, now time.Time) ([]byte, error) {
	opts := pdfdoc.Options{
		Paper:   pdfdoc.PaperByName(prof.PaperSize),
		Title:   fmt.Sprintf("Surat Peringatan (%d surat)", len(ps)),
		Author:  prof.Name,
		Created: now,
	}
	qrs := make([][][]bool, len(ps))
	for i, p := range ps {
		var err error
		if qrs[i], err = qrOf(p); err != nil {
			return nil, err
		}
	}
	count := pdfdoc.New(opts)
	for i, p := range ps {
		if err := writeLetter(count, p, prof, logo, qrs[i]); err != nil {
			return nil, err
		}
	}
	opts.PageLabel = pdfdoc.PageFooterID
	d := pdfdoc.New(opts)
	d.SetSectionTotals(count.SectionPages())
	for i, p := range ps {
		if err := writeLetter(d, p, prof, logo, qrs[i]); err != nil {
			return nil, err
		}
	}
	return d.Bytes()
}

// Measures of the letter, in millimetres.
const (
	lineH = 5.0
	// rowH is a table row's line.
	rowH = 5.0
	// qrSize is the QR code's side (quiet zone included); the column
	// beside the number keeps clear of it.
	qrSize = 24.0
	qrGap  = 4.0
)

// qrOf is the QR code of the letter's verification page, or nil for a
// letter without one.
func qrOf(p Printout) ([][]bool, error) {
	if p.VerifyCode == nil || p.VerifyURL == nil {
		return nil, nil
	}
	q, err := qrcode.New(*p.VerifyURL, qrcode.Medium)
	if err != nil {
		return nil, fmt.Errorf("letter: qr: %w", err)
	}
	return q.Bitmap(), nil
}

// writeLetter writes one letter from a new section of d, with qr (its
// verification QR code's modules) when it has one.
func writeLetter(d *pdfdoc.Doc, p Printout, prof school.Profile, logo []byte, qr [][]bool) error {
	issued := schoolday.In(p.IssuedAt)
	date := pdfdoc.DateID(issued)
	class := p.ClassName
	if class == "" {
		class = p.CurrentClass
	}
	note := ""
	if p.VerifyURL != nil {
		note = "Verifikasi keaslian: " + *p.VerifyURL
	}
	d.NewSection(note)
	d.WriteLetterhead(pdfdoc.Letterhead{Name: prof.Name, Address: prof.Address, Phone: prof.Phone, Logo: logo})
	w := d.ContentWidth()

	// Number and subject, the QR code and its short code beside them.
	top := d.GetY()
	narrow := w
	if qr != nil {
		verification(d, qr, *p.VerifyCode, top)
		narrow = w - qrSize - qrGap
	}
	d.SetXY(pdfdoc.MarginLeft, top)
	fieldIn(d, narrow, "Nomor", numberText(p.Number))
	fieldIn(d, narrow, "Perihal", "Surat Peringatan ("+p.Name+")")
	d.Ln(3)
	d.SetFont(pdfdoc.Font, "", 11)
	d.MultiCell(narrow, lineH, "Kepada Yth.\n"+addressee(p.ParentName)+"\nOrang tua/wali dari "+p.StudentName+"\ndi tempat", "", "L", false)
	if qr != nil {
		d.SetY(max(d.GetY(), top+qrSize+8))
	}
	d.Ln(2)
	para(d, "Dengan hormat,")
	para(d, "Dengan ini kami memberitahukan bahwa siswa:")
	d.Ln(1)
	// Two columns: the student's four facts take two lines.
	fieldPair(d, "Nama", p.StudentName, "NISN", dash(p.StudentNISN))
	fieldPair(d, "Jumlah poin", strconv.Itoa(p.Points)+" (tahun ajaran "+academicYear(p.AcademicYearStart)+")", "Kelas", dash(class))
	d.Ln(2)
	para(d, "telah melakukan pelanggaran tata tertib sekolah sebagai berikut:")
	d.Ln(1)
	violationTable(d, p.Violations)
	policyNote(d, p)
	d.Ln(2)

	text := p.ThresholdText
	if strings.TrimSpace(text) == "" {
		text = fallbackText
	}
	text = letterText(text, p.Name, p.LevelsCovered, p.EarlierDelivered)
	summonsPlaced := strings.Contains(text, "{panggilan}")
	values := map[string]string{
		"nama": p.StudentName, "nisn": p.StudentNISN, "kelas": class, "poin": strconv.Itoa(p.Points),
		"level": p.Name, "tanggal": date, "sekolah": prof.Name, "panggilan": Summons,
	}
	paras := []string{fill(text, values)}
	if !summonsPlaced && p.Level >= SummonsFromLevel {
		paras = append(paras, Summons)
	}
	const closing = "Demikian surat ini kami sampaikan. Atas perhatian dan kerja sama Bapak/Ibu, kami ucapkan terima kasih."
	sig := signatureBlock{
		place:    placeDate(prof.City, date),
		homeroom: signer{"Wali Kelas,", p.HomeroomName, p.HomeroomNIP},
		bk:       signer{"Koordinator BK,", prof.BKCoordinatorName, prof.BKCoordinatorNIP},
		head:     signer{"Mengetahui,\nKepala Sekolah,", prof.PrincipalName, prof.PrincipalNIP},
	}

	// Keep-together: the signatures stay with the closing and the last
	// paragraph, so a page never holds signatures alone. When the whole
	// ending does not fit on this page it starts the next one; an ending
	// longer than a page flows, with the closing kept by the signatures.
	d.SetFont(pdfdoc.Font, "", 11)
	parasH := 0.0
	for i, t := range paras {
		parasH += d.TextHeight(w, lineH, t)
		if i > 0 {
			parasH += 2
		}
	}
	tail := 2 + d.TextHeight(w, lineH, closing) + 5 + sig.height(d)
	if !d.KeepTogether(parasH + tail) {
		// Too long for one page, or it fits here.
		if parasH+tail > d.Room() {
			for i, t := range paras[:len(paras)-1] {
				if i > 0 {
					d.Ln(2)
				}
				para(d, t)
			}
			last := paras[len(paras)-1]
			d.Ln(2)
			d.SetFont(pdfdoc.Font, "", 11)
			d.KeepTogether(d.TextHeight(w, lineH, last) + tail)
			paras = []string{last}
		}
	}
	for i, t := range paras {
		if i > 0 {
			d.Ln(2)
		}
		para(d, t)
	}
	d.Ln(2)
	para(d, closing)
	d.Ln(5)
	sig.write(d)
	if p.Activation != nil {
		activation(d, *p.Activation)
	}
	if d.Err() {
		return fmt.Errorf("letter: pdf: %w", d.Error())
	}
	return nil
}

// verification draws the QR code at the top right from y, with the short
// code below it.
func verification(d *pdfdoc.Doc, qr [][]bool, code string, y float64) {
	x := d.Paper.Width - pdfdoc.MarginRight - qrSize
	d.Matrix(qr, x, y, qrSize)
	d.SetFont(pdfdoc.Font, "", 7)
	d.SetXY(x-4, y+qrSize)
	d.CellFormat(qrSize+8, 3.5, "Kode verifikasi", "", 2, "C", false, 0, "")
	d.SetX(x - 4)
	d.SetFont(pdfdoc.Font, "B", 8)
	d.CellFormat(qrSize+8, 4, GroupCode(code), "", 2, "C", false, 0, "")
	d.SetFont(pdfdoc.Font, "", 11)
}

// numberText is the number as printed; a letter without one (withdrawn
// before it was ever printed) shows a dash.
func numberText(n *string) string {
	if n == nil {
		return "-"
	}
	return *n
}

// placeDate is "Bandung, 27 November 2026", or the date alone when the
// school has not set its city.
func placeDate(city, date string) string {
	if strings.TrimSpace(city) == "" {
		return date
	}
	return strings.TrimSpace(city) + ", " + date
}

// signer is one signature: the role as written above it, the name and
// NIP below.
type signer struct {
	role, name, nip string
}

// signatureBlock is the place and date over three signatures side by side:
// the principal ("Mengetahui"), the homeroom teacher, the BK coordinator
// who writes the letter, each with a NIP line.
type signatureBlock struct {
	place              string
	head, homeroom, bk signer
}

// Measures of the signature block.
const (
	sigLine  = 5.0
	sigRoom  = 18.0
	sigFont  = 10.0
	nipFont  = 9.0
	roleRows = 2
)

func (b signatureBlock) signers() []signer { return []signer{b.head, b.homeroom, b.bk} }

// height is what the block takes, measured with the fonts it writes in.
func (b signatureBlock) height(d *pdfdoc.Doc) float64 {
	col := d.ContentWidth() / 3
	names := 1.0
	d.SetFont(pdfdoc.Font, "B", sigFont)
	for _, s := range b.signers() {
		names = max(names, float64(len(d.SplitText(signName(s.name), col))))
	}
	d.SetFont(pdfdoc.Font, "", 11)
	return sigLine + 2 + roleRows*sigLine + sigRoom + names*sigLine + sigLine
}

func (b signatureBlock) write(d *pdfdoc.Doc) {
	w := d.ContentWidth()
	col := w / 3
	x0 := pdfdoc.MarginLeft
	y := d.GetY()
	d.SetFont(pdfdoc.Font, "", sigFont)
	d.SetXY(x0+2*col, y)
	d.MultiCell(col, sigLine, b.place, "", "C", false)
	y += sigLine + 2
	bottom := y
	for i, s := range b.signers() {
		x := x0 + float64(i)*col
		role := s.role
		// Every role ends on the same line, whatever its length.
		for strings.Count(role, "\n") < roleRows-1 {
			role = "\n" + role
		}
		d.SetFont(pdfdoc.Font, "", sigFont)
		d.SetXY(x, y)
		d.MultiCell(col, sigLine, role, "", "C", false)
		d.SetXY(x, y+roleRows*sigLine+sigRoom)
		if strings.TrimSpace(s.name) == "" {
			d.SetFont(pdfdoc.Font, "", sigFont)
		} else {
			d.SetFont(pdfdoc.Font, "B", sigFont)
		}
		d.MultiCell(col, sigLine, signName(s.name), "", "C", false)
		d.SetX(x)
		d.SetFont(pdfdoc.Font, "", nipFont)
		d.MultiCell(col, sigLine, nipText(s.nip), "", "C", false)
		bottom = max(bottom, d.GetY())
	}
	d.SetXY(x0, bottom)
	d.SetFont(pdfdoc.Font, "", 11)
}

// signName is the name under a signature, or a dotted line to write it on
// when the school has not set it.
func signName(name string) string {
	if strings.TrimSpace(name) == "" {
		return "(.................................)"
	}
	return name
}

// field writes "label : value" with the values aligned.
func field(d *pdfdoc.Doc, label, value string) {
	fieldIn(d, d.ContentWidth(), label, value)
}

// fieldPair writes two "label : value" fields side by side, the left
// column wider; the line is as tall as the taller value.
func fieldPair(d *pdfdoc.Doc, l1, v1, l2, v2 string) {
	const lw1, lw2, colon = 26.0, 14.0, 4.0
	left := d.ContentWidth() * 0.6
	right := d.ContentWidth() - left
	d.SetFont(pdfdoc.Font, "", 11)
	y := d.GetY()
	d.SetX(pdfdoc.MarginLeft)
	d.CellFormat(lw1, lineH, l1, "", 0, "L", false, 0, "")
	d.CellFormat(colon, lineH, ":", "", 0, "L", false, 0, "")
	d.MultiCell(left-lw1-colon-2, lineH, v1, "", "L", false)
	bottom := d.GetY()
	d.SetXY(pdfdoc.MarginLeft+left, y)
	d.CellFormat(lw2, lineH, l2, "", 0, "L", false, 0, "")
	d.CellFormat(colon, lineH, ":", "", 0, "L", false, 0, "")
	d.MultiCell(right-lw2-colon, lineH, v2, "", "L", false)
	d.SetXY(pdfdoc.MarginLeft, max(bottom, d.GetY()))
}

// fieldIn is field within width w from the left margin.
func fieldIn(d *pdfdoc.Doc, w float64, label, value string) {
	const lw = 32.0
	d.SetFont(pdfdoc.Font, "", 11)
	d.SetX(pdfdoc.MarginLeft)
	d.CellFormat(lw, lineH, label, "", 0, "L", false, 0, "")
	d.CellFormat(4, lineH, ":", "", 0, "L", false, 0, "")
	d.MultiCell(w-lw-4, lineH, value, "", "L", false)
}

// para writes a justified paragraph.
func para(d *pdfdoc.Doc, text string) {
	d.SetFont(pdfdoc.Font, "", 11)
	d.MultiCell(d.ContentWidth(), lineH, text, "", "J", false)
}

// addressee is the parent as addressed: "Bapak/Ibu <name>", unless the
// stored name already says Bapak or Ibu.
func addressee(parent string) string {
	parent = strings.TrimSpace(parent)
	if parent == "" {
		return "Bapak/Ibu Orang Tua/Wali"
	}
	lower := strings.ToLower(parent)
	for _, p := range []string{"bapak ", "ibu ", "bpk.", "bpk ", "bp.", "bu "} {
		if strings.HasPrefix(lower, p) {
			return parent
		}
	}
	return "Bapak/Ibu " + parent
}

func dash(s string) string {
	if strings.TrimSpace(s) == "" {
		return "-"
	}
	return s
}

// academicYear turns "2026-07-01" into "2026/2027".
func academicYear(start string) string {
	y, err := strconv.Atoi(start[:min(4, len(start))])
	if err != nil {
		return start
	}
	return fmt.Sprintf("%d/%d", y, y+1)
}

// violationTable writes No, Tanggal, Jenis pelanggaran, Poin and the sum,
// repeating the header on a new page.
func violationTable(d *pdfdoc.Doc, vs []Violation) {
	w := d.ContentWidth()
	cols := []float64{10, 38, w - 10 - 38 - 18, 18}
	header := func() {
		d.SetFont(pdfdoc.Font, "B", 10)
		d.SetFillColor(235, 235, 235)
		for i, h := range []string{"No", "Tanggal", "Jenis pelanggaran", "Poin"} {
			align := "C"
			d.CellFormat(cols[i], 6, h, "1", 0, align, true, 0, "")
		}
		d.Ln(-1)
		d.SetFont(pdfdoc.Font, "", 10)
	}
	header()
	sum := 0
	_, pageH := d.GetPageSize()
	for i, v := range vs {
		name := rowName(v)
		lines := d.SplitText(name, cols[2])
		h := rowH * float64(max(1, len(lines)))
		need := h
		if i == len(vs)-1 {
			need += 6 // the last row stays with the sum
		}
		if d.GetY()+need > pageH-pdfdoc.MarginBottom {
			d.AddPage()
			header()
		}
		x, y := d.GetX(), d.GetY()
		d.CellFormat(cols[0], h, strconv.Itoa(i+1), "1", 0, "C", false, 0, "")
		d.CellFormat(cols[1], h, pdfdoc.DateID(v.OccurredOn), "1", 0, "L", false, 0, "")
		d.MultiCell(cols[2], rowH, name, "1", "L", false)
		d.SetXY(x+cols[0]+cols[1]+cols[2], y)
		d.CellFormat(cols[3], h, strconv.Itoa(v.Points), "1", 1, "R", false, 0, "")
		sum += v.Points
	}
	if len(vs) == 0 {
		d.CellFormat(w, rowH, "Tidak ada pelanggaran yang tercatat.", "1", 1, "C", false, 0, "")
	}
	d.SetFont(pdfdoc.Font, "B", 10)
	d.CellFormat(cols[0]+cols[1]+cols[2], 6, "Jumlah poin", "1", 0, "R", false, 0, "")
	d.CellFormat(cols[3], 6, strconv.Itoa(sum), "1", 1, "R", false, 0, "")
	d.SetFont(pdfdoc.Font, "", 11)
}

// rowName is a violation's type as its row shows it; an automatic alpha or
// late violation says how many lesson hours it counts: "Alpha (3 jam
// pelajaran)".
func rowName(v Violation) string {
	if v.AutoHours != nil && *v.AutoHours > 0 {
		return fmt.Sprintf("%s (%d jam pelajaran)", v.TypeName, *v.AutoHours)
	}
	return v.TypeName
}

// nipText groups an 18-digit NIP the way it is printed: "NIP. 19720315
// 200003 1 002"; an empty NIP prints "NIP. -".
func nipText(nip string) string {
	if len(nip) == 18 {
		nip = nip[:8] + " " + nip[8:14] + " " + nip[14:15] + " " + nip[15:]
	}
	return "NIP. " + dash(nip)
}

// policyNote states the points policy in force under the table (every
// letter that mentions points does), and the points it took off this year.
func policyNote(d *pdfdoc.Doc, p Printout) {
	d.SetFont(pdfdoc.Font, "", 8.5)
	text := "Kebijakan poin yang berlaku: " + PolicyText(p.Policy) + "."
	if p.Reduced > 0 {
		text += fmt.Sprintf(" Jumlah poin di atas sudah dikurangi %d poin menurut kebijakan ini.", p.Reduced)
	}
	d.MultiCell(d.ContentWidth(), 4, text, "", "L", false)
	d.SetFont(pdfdoc.Font, "", 11)
}

// PolicyText is the points policy in words, as letters print it.
func PolicyText(p pointspolicy.Policy) string {
	switch p.Mode {
	case pointspolicy.ModeOffset:
		return fmt.Sprintf("imbangan prestasi (prestasi terverifikasi mengurangi poin tahun ajaran, paling banyak %d%%)", p.OffsetCapPercent)
	case pointspolicy.ModeAmnesty:
		return fmt.Sprintf("pemutihan (setelah %d hari sekolah tanpa pelanggaran baru, poin dikurangi %d)", p.AmnestyCleanSchoolDays, p.AmnestyPoints)
	}
	return "tanpa pengurangan (prestasi tidak mengurangi poin)"
}

// activation prints a guardian's portal activation code in a framed box
// under the signatures, kept whole on one page.
func activation(d *pdfdoc.Doc, a Activation) {
	w := d.ContentWidth()
	text := fmt.Sprintf("Buka %s, pilih masuk dengan nomor WhatsApp +%s, lalu ketik kode aktivasi di bawah. "+
		"Kode berlaku sekali sampai %s WIB. Jangan berikan kode ini kepada orang lain.",
		a.URL, a.Phone, pdfdoc.DateID(schoolday.In(a.ExpiresAt))+" "+schoolday.In(a.ExpiresAt).Format("15.04"))
	d.SetFont(pdfdoc.Font, "", 10)
	h := 6 + d.TextHeight(w-6, 5, text) + 10
	d.Ln(6)
	d.KeepTogether(h)
	y := d.GetY()
	d.Rect(pdfdoc.MarginLeft, y, w, h, "D")
	d.SetXY(pdfdoc.MarginLeft+3, y+2)
	d.SetFont(pdfdoc.Font, "B", 10)
	d.CellFormat(w-6, 5, "Portal orang tua: kode aktivasi", "", 2, "L", false, 0, "")
	d.SetX(pdfdoc.MarginLeft + 3)
	d.SetFont(pdfdoc.Font, "", 10)
	d.MultiCell(w-6, 5, text, "", "L", false)
	d.SetX(pdfdoc.MarginLeft + 3)
	d.SetFont(pdfdoc.Font, "B", 14)
	d.CellFormat(w-6, 8, a.Code, "", 2, "C", false, 0, "")
	d.SetFont(pdfdoc.Font, "", 11)
}
