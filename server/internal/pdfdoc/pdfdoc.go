// Package pdfdoc builds the school's printed documents (warning letters,
// reports) on github.com/go-pdf/fpdf: the paper sizes schools use (A4, F4),
// an embedded UTF-8 font so every student's name renders, the letterhead
// (logo, name, address, phone, a rule) and the page footer
// "Halaman x dari y".
package pdfdoc

import (
	"bytes"
	_ "embed"
	"fmt"
	"image"
	_ "image/jpeg" // logos may be JPEG
	_ "image/png"
	"io"
	"strings"
	"time"

	"github.com/go-pdf/fpdf"
)

// The font is DejaVu Sans (Bitstream Vera licence, fonts/LICENSE): it covers
// Latin with every diacritic, Greek and Cyrillic, so no name falls back to
// boxes. fpdf embeds only the glyphs a document uses.
var (
	//go:embed fonts/DejaVuSans.ttf
	fontRegular []byte
	//go:embed fonts/DejaVuSans-Bold.ttf
	fontBold []byte
)

// Font is the family name documents use with SetFont.
const Font = "dejavu"

// Paper is a paper size, in millimetres.
type Paper struct {
	Name          string
	Width, Height float64
}

// The paper sizes a school may choose. F4 (215 × 330 mm, "folio") is what
// many Indonesian schools print official letters on.
var (
	A4 = Paper{Name: "A4", Width: 210, Height: 297}
	F4 = Paper{Name: "F4", Width: 215, Height: 330}
)

// PaperByName returns the paper named "A4" or "F4" (any case); anything
// else is A4, the default.
func PaperByName(name string) Paper {
	if strings.EqualFold(strings.TrimSpace(name), F4.Name) {
		return F4
	}
	return A4
}

// Margins of every document, in millimetres.
const (
	MarginLeft   = 20.0
	MarginRight  = 20.0
	MarginTop    = 15.0
	MarginBottom = 20.0
)

// Options describe a new document.
type Options struct {
	Paper Paper
	// Title and Author go into the PDF's properties.
	Title  string
	Author string
	// PageLabel formats the footer from the page number and the alias of
	// the page count; empty: no footer. Indonesian: PageFooterID.
	PageLabel func(page int, total string) string
	// Created is the creation date written into the file (zero: now); a
	// fixed date makes the bytes reproducible.
	Created time.Time
}

// PageFooterID is the Indonesian page footer, "Halaman 1 dari 2".
func PageFooterID(page int, total string) string {
	return fmt.Sprintf("Halaman %d dari %s", page, total)
}

// PageFooterEN is the English page footer, "Page 1 of 2".
func PageFooterEN(page int, total string) string {
	return fmt.Sprintf("Page %d of %s", page, total)
}

// Doc is a document being written: the fpdf document with the font
// registered and the footer in place. Write on it with fpdf's methods
// (SetFont(pdfdoc.Font, "", 11), MultiCell, CellFormat, …).
type Doc struct {
	*fpdf.Fpdf
	Paper Paper
	// The open section (see NewSection): its first page, the alias of its
	// page count, the note in its footer; sections counts them, pages
	// holds the page count of each closed one, totals the counts given by
	// SetSectionTotals.
	secStart int
	secAlias string
	secNote  string
	sections int
	pages    []int
	totals   []int
}

// aliasPages is replaced by the page count when the file is written.
const aliasPages = "{nb}"

// New starts a portrait document on o.Paper with one page added.
func New(o Options) *Doc {
	if o.Paper.Width == 0 {
		o.Paper = A4
	}
	f := fpdf.NewCustom(&fpdf.InitType{
		OrientationStr: "P",
		UnitStr:        "mm",
		Size:           fpdf.SizeType{Wd: o.Paper.Width, Ht: o.Paper.Height},
	})
	f.AddUTF8FontFromBytes(Font, "", fontRegular)
	f.AddUTF8FontFromBytes(Font, "B", fontBold)
	f.SetMargins(MarginLeft, MarginTop, MarginRight)
	f.SetAutoPageBreak(true, MarginBottom)
	f.SetTitle(o.Title, true)
	f.SetAuthor(o.Author, true)
	f.SetCreator("Tatib", true)
	f.SetLang("id-ID")
	created := o.Created
	if created.IsZero() {
		created = time.Now()
	}
	f.SetCreationDate(created)
	f.SetModificationDate(created)
	d := &Doc{Fpdf: f, Paper: o.Paper, secStart: 1, secAlias: aliasPages}
	if o.PageLabel != nil {
		f.AliasNbPages(aliasPages)
		f.SetFooterFunc(func() {
			f.SetY(-MarginBottom + 5)
			f.SetFont(Font, "", 8)
			f.SetTextColor(90, 90, 90)
			if d.secNote != "" {
				f.CellFormat(d.ContentWidth()-30, 5, d.secNote, "", 0, "L", false, 0, "")
				f.SetX(MarginLeft)
			}
			f.CellFormat(0, 5, o.PageLabel(f.PageNo()-d.secStart+1, d.sectionTotal()), "", 0, "R", false, 0, "")
			f.SetTextColor(0, 0, 0)
		})
	}
	f.AddPage()
	f.SetFont(Font, "", 11)
	return d
}

// NewSection starts a part of the document that counts its own pages, so
// each letter of a batch says "Halaman 1 dari 2" of itself: on a new page,
// unless nothing was written yet. note, when not empty, stands on the left
// of the section's page footers.
func (d *Doc) NewSection(note string) {
	if d.sections > 0 {
		d.closeSection()
		d.AddPage()
	}
	d.sections++
	d.secStart = d.PageNo()
	d.secAlias = fmt.Sprintf("{nb:%d}", d.sections)
	d.secNote = note
}

// closeSection fixes the page count of the open section.
func (d *Doc) closeSection() {
	if d.sections > len(d.pages) {
		n := d.PageNo() - d.secStart + 1
		d.pages = append(d.pages, n)
		if d.sections > len(d.totals) {
			d.RegisterAlias(d.secAlias, fmt.Sprint(n))
		}
	}
}

// sectionTotal is what the footer prints as the open section's page
// count: the count given by SetSectionTotals, else an alias replaced when
// the file is written. Every alias is searched for on every page then, so
// a document of many sections sets its totals (a batch renders twice).
func (d *Doc) sectionTotal() string {
	if i := d.sections - 1; i >= 0 && i < len(d.totals) {
		return fmt.Sprint(d.totals[i])
	}
	return d.secAlias
}

// SetSectionTotals gives the page count of each section to come, as a
// first rendering of the same content counted them (SectionPages).
func (d *Doc) SetSectionTotals(totals []int) { d.totals = totals }

// SectionPages is the page count of each section written so far, the open
// one included.
func (d *Doc) SectionPages() []int {
	out := append([]int(nil), d.pages...)
	if d.sections > len(d.pages) {
		out = append(out, d.PageNo()-d.secStart+1)
	}
	return out
}

// Room is the height left on the current page above the bottom margin.
func (d *Doc) Room() float64 {
	_, h := d.GetPageSize()
	return h - MarginBottom - d.GetY()
}

// PageRoom is the height a page offers between the margins: more than
// that never fits on one page.
func (d *Doc) PageRoom() float64 {
	_, h := d.GetPageSize()
	return h - MarginTop - MarginBottom
}

// KeepTogether starts a new page when a block h high does not fit on the
// rest of this one but fits on an empty page; it says whether it did.
func (d *Doc) KeepTogether(h float64) bool {
	if h <= d.Room() || h > d.PageRoom() {
		return false
	}
	d.AddPage()
	return true
}

// TextHeight is the height MultiCell(w, lineH, text, …) takes in the
// current font.
func (d *Doc) TextHeight(w, lineH float64, text string) float64 {
	return lineH * float64(max(1, len(d.SplitText(text, w))))
}

// Matrix draws a square grid of dark and light cells (a QR code's modules:
// rows of columns, true for dark) size millimetres wide at x, y, in black
// on white, each row's runs of dark cells as one rectangle.
func (d *Doc) Matrix(cells [][]bool, x, y, size float64) {
	n := len(cells)
	if n == 0 {
		return
	}
	m := size / float64(n)
	d.SetFillColor(0, 0, 0)
	for r, row := range cells {
		for c := 0; c < len(row); {
			if !row[c] {
				c++
				continue
			}
			end := c
			for end < len(row) && row[end] {
				end++
			}
			// A hair wider, so neighbouring runs print without seams.
			d.Rect(x+float64(c)*m, y+float64(r)*m, float64(end-c)*m+0.01, m+0.01, "F")
			c = end
		}
	}
	d.SetFillColor(255, 255, 255)
}

// ContentWidth is the width between the margins.
func (d *Doc) ContentWidth() float64 { return d.Paper.Width - MarginLeft - MarginRight }

// Letterhead is the school's heading (kop surat) on the first page.
type Letterhead struct {
	Name    string
	Address string
	Phone   string
	// Logo is a PNG or JPEG image, or nil for none.
	Logo []byte
}

// logoSize is the logo's height (and largest width) in millimetres.
const logoSize = 24.0

// WriteLetterhead writes the letterhead at the top of the current page:
// the logo on the left, the school's name, address and phone centred in
// the rest, then a double rule. A logo that cannot be read is left out
// rather than failing the document.
func (d *Doc) WriteLetterhead(h Letterhead) {
	top := d.GetY()
	left := MarginLeft
	width := d.ContentWidth()
	if name, w, lh, ok := d.registerLogo(h.Logo); ok {
		d.ImageOptions(name, MarginLeft+(logoSize-w)/2, top+(logoSize-lh)/2, w, lh, false, fpdf.ImageOptions{}, 0, "")
		// Keep the text centred on the page: reserve the logo's width on
		// both sides.
		left = MarginLeft + logoSize + 2
		width = d.ContentWidth() - 2*(logoSize+2)
	}
	d.SetXY(left, top)
	d.SetFont(Font, "B", 15)
	d.MultiCell(width, 7, h.Name, "", "C", false)
	d.SetFont(Font, "", 10)
	if h.Address != "" {
		d.SetX(left)
		d.MultiCell(width, 5, h.Address, "", "C", false)
	}
	if h.Phone != "" {
		d.SetX(left)
		d.MultiCell(width, 5, "Telp. "+h.Phone, "", "C", false)
	}
	y := max(d.GetY(), top+logoSize) + 2
	d.SetLineWidth(0.8)
	d.Line(MarginLeft, y, d.Paper.Width-MarginRight, y)
	d.SetLineWidth(0.2)
	d.Line(MarginLeft, y+1.2, d.Paper.Width-MarginRight, y+1.2)
	d.SetXY(MarginLeft, y+5)
	d.SetFont(Font, "", 11)
}

// registerLogo registers the logo image and returns its name and size,
// fitted into a logoSize square.
func (d *Doc) registerLogo(b []byte) (name string, w, h float64, ok bool) {
	if len(b) == 0 {
		return "", 0, 0, false
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(b))
	if err != nil || cfg.Width == 0 || cfg.Height == 0 {
		return "", 0, 0, false
	}
	typ := map[string]string{"png": "PNG", "jpeg": "JPG"}[format]
	if typ == "" {
		return "", 0, 0, false
	}
	info := d.RegisterImageOptionsReader("logo", fpdf.ImageOptions{ImageType: typ}, bytes.NewReader(b))
	if info == nil || d.Err() {
		// fpdf keeps the first error and then writes nothing; a logo it
		// cannot read must not take the letter with it.
		d.ClearError()
		return "", 0, 0, false
	}
	w, h = logoSize*float64(cfg.Width)/float64(cfg.Height), logoSize
	if w > logoSize {
		w, h = logoSize, logoSize*float64(cfg.Height)/float64(cfg.Width)
	}
	return "logo", w, h, true
}

// Write finishes the document into w.
func (d *Doc) Write(w io.Writer) error {
	d.closeSection()
	if err := d.Output(w); err != nil {
		return fmt.Errorf("pdfdoc: %w", err)
	}
	return nil
}

// Bytes finishes the document and returns the file.
func (d *Doc) Bytes() ([]byte, error) {
	var buf bytes.Buffer
	if err := d.Write(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Months are the Indonesian month names.
var Months = [...]string{"Januari", "Februari", "Maret", "April", "Mei", "Juni", "Juli",
	"Agustus", "September", "Oktober", "November", "Desember"}

// DateID formats t's calendar day in Indonesian: "23 November 2026". The
// caller passes t already in Asia/Jakarta.
func DateID(t time.Time) string {
	return fmt.Sprintf("%d %s %d", t.Day(), Months[t.Month()-1], t.Year())
}
