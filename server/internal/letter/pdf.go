package letter

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tatib/tatib/server/internal/pdfdoc"
	"github.com/tatib/tatib/server/internal/school"
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
	issued := p.IssuedAt.In(jakarta)
	date := pdfdoc.DateID(issued)
	class := p.ClassName
	if class == "" {
		class = p.CurrentClass
	}
	d := pdfdoc.New(pdfdoc.Options{
		Paper:     pdfdoc.PaperByName(prof.PaperSize),
		Title:     fmt.Sprintf("%s %s — %s", p.Name, p.Number, p.StudentName),
		Author:    prof.Name,
		PageLabel: pdfdoc.PageFooterID,
		Created:   issued,
	})
	d.WriteLetterhead(pdfdoc.Letterhead{Name: prof.Name, Address: prof.Address, Phone: prof.Phone, Logo: logo})
	w := d.ContentWidth()

	// Number, subject, date.
	top := d.GetY()
	d.SetFont(pdfdoc.Font, "", 11)
	d.CellFormat(w, 6, date, "", 1, "R", false, 0, "")
	d.SetY(top)
	field(d, "Nomor", p.Number)
	field(d, "Perihal", "Surat Peringatan ("+p.Name+")")
	d.Ln(4)

	para(d, "Kepada Yth.\n"+addressee(p.ParentName)+"\nOrang tua/wali dari "+p.StudentName+"\ndi tempat")
	d.Ln(3)
	para(d, "Dengan hormat,")
	para(d, "Dengan ini kami memberitahukan bahwa siswa:")
	d.Ln(1)
	field(d, "Nama", p.StudentName)
	field(d, "NISN", dash(p.StudentNISN))
	field(d, "Kelas", dash(class))
	field(d, "Jumlah poin", strconv.Itoa(p.Points)+" (tahun ajaran "+academicYear(p.AcademicYearStart)+")")
	d.Ln(2)
	para(d, "telah melakukan pelanggaran tata tertib sekolah sebagai berikut:")
	d.Ln(1)
	violationTable(d, p.Violations)
	d.Ln(4)

	text := p.ThresholdText
	if strings.TrimSpace(text) == "" {
		text = fallbackText
	}
	summonsPlaced := strings.Contains(text, "{panggilan}")
	values := map[string]string{
		"nama": p.StudentName, "nisn": p.StudentNISN, "kelas": class, "poin": strconv.Itoa(p.Points),
		"level": p.Name, "tanggal": date, "sekolah": prof.Name, "panggilan": Summons,
	}
	para(d, fill(text, values))
	if !summonsPlaced && p.Level >= SummonsFromLevel {
		d.Ln(2)
		para(d, Summons)
	}
	d.Ln(2)
	para(d, "Demikian surat ini kami sampaikan. Atas perhatian dan kerja sama Bapak/Ibu, kami ucapkan terima kasih.")
	d.Ln(6)

	signatures(d, p.HomeroomName, prof)
	return d.Bytes()
}

// field writes "label : value" with the values aligned.
func field(d *pdfdoc.Doc, label, value string) {
	const lw = 32.0
	d.SetFont(pdfdoc.Font, "", 11)
	d.CellFormat(lw, 6, label, "", 0, "L", false, 0, "")
	d.CellFormat(4, 6, ":", "", 0, "L", false, 0, "")
	d.MultiCell(d.ContentWidth()-lw-4, 6, value, "", "L", false)
}

// para writes a justified paragraph.
func para(d *pdfdoc.Doc, text string) {
	d.SetFont(pdfdoc.Font, "", 11)
	d.MultiCell(d.ContentWidth(), 6, text, "", "J", false)
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
			d.CellFormat(cols[i], 7, h, "1", 0, align, true, 0, "")
		}
		d.Ln(-1)
		d.SetFont(pdfdoc.Font, "", 10)
	}
	header()
	sum := 0
	_, pageH := d.GetPageSize()
	for i, v := range vs {
		lines := d.SplitText(v.TypeName, cols[2])
		h := 6.0 * float64(max(1, len(lines)))
		if d.GetY()+h > pageH-pdfdoc.MarginBottom {
			d.AddPage()
			header()
		}
		x, y := d.GetX(), d.GetY()
		d.CellFormat(cols[0], h, strconv.Itoa(i+1), "1", 0, "C", false, 0, "")
		d.CellFormat(cols[1], h, pdfdoc.DateID(v.OccurredOn), "1", 0, "L", false, 0, "")
		d.MultiCell(cols[2], 6, v.TypeName, "1", "L", false)
		d.SetXY(x+cols[0]+cols[1]+cols[2], y)
		d.CellFormat(cols[3], h, strconv.Itoa(v.Points), "1", 1, "R", false, 0, "")
		sum += v.Points
	}
	if len(vs) == 0 {
		d.CellFormat(w, 6, "Tidak ada pelanggaran yang tercatat.", "1", 1, "C", false, 0, "")
	}
	d.SetFont(pdfdoc.Font, "B", 10)
	d.CellFormat(cols[0]+cols[1]+cols[2], 7, "Jumlah poin", "1", 0, "R", false, 0, "")
	d.CellFormat(cols[3], 7, strconv.Itoa(sum), "1", 1, "R", false, 0, "")
	d.SetFont(pdfdoc.Font, "", 11)
}

// signatures writes the homeroom teacher (left) and the BK coordinator
// (right), then the principal with their NIP below in the middle, kept
// together on one page.
func signatures(d *pdfdoc.Doc, homeroom string, prof school.Profile) {
	const need = 95.0
	_, pageH := d.GetPageSize()
	if d.GetY()+need > pageH-pdfdoc.MarginBottom {
		d.AddPage()
	}
	w := d.ContentWidth()
	half := w / 2
	y := d.GetY()
	block(d, pdfdoc.MarginLeft, y, half, "Wali Kelas,", homeroom, "")
	block(d, pdfdoc.MarginLeft+half, y, half, "Koordinator BK,", prof.BKCoordinatorName, "")
	y = d.GetY() + 6
	block(d, pdfdoc.MarginLeft+w/4, y, half, "Mengetahui,\nKepala Sekolah,", prof.PrincipalName, nipText(prof.PrincipalNIP))
}

// block writes one signature: the role, room to sign, the name (or a
// dotted line when the school has not set it) and an optional line below.
func block(d *pdfdoc.Doc, x, y, w float64, role, name, below string) {
	d.SetXY(x, y)
	d.SetFont(pdfdoc.Font, "", 11)
	d.MultiCell(w, 6, role, "", "C", false)
	d.SetXY(x, d.GetY()+20)
	if strings.TrimSpace(name) == "" {
		name = "(.................................)"
		d.SetFont(pdfdoc.Font, "", 11)
	} else {
		d.SetFont(pdfdoc.Font, "B", 11)
	}
	d.MultiCell(w, 6, name, "", "C", false)
	if below != "" {
		d.SetX(x)
		d.SetFont(pdfdoc.Font, "", 11)
		d.MultiCell(w, 6, below, "", "C", false)
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
