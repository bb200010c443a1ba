package pdfdoc_test

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tatib/tatib/server/internal/pdfdoc"
)

// run writes pdf to a file and runs a poppler tool on it.
func run(t *testing.T, pdf []byte, tool string, args ...string) string {
	t.Helper()
	if _, err := exec.LookPath(tool); err != nil {
		t.Skipf("%s not installed (poppler-utils)", tool)
	}
	path := filepath.Join(t.TempDir(), "doc.pdf")
	if err := os.WriteFile(path, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(tool, append(args, path, "-")...).CombinedOutput()
	if tool == "pdfinfo" {
		out, err = exec.Command(tool, path).CombinedOutput()
	}
	if err != nil {
		t.Fatalf("%s: %v: %s", tool, err, out)
	}
	return string(out)
}

func logo(t *testing.T) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, 40, 20))
	for x := 0; x < 40; x++ {
		for y := 0; y < 20; y++ {
			img.Set(x, y, color.NRGBA{R: 200, G: uint8(x * 5), B: 40, A: 255})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestDocument(t *testing.T) {
	for _, tc := range []struct {
		paper pdfdoc.Paper
	}{{pdfdoc.A4}, {pdfdoc.F4}} {
		t.Run(tc.paper.Name, func(t *testing.T) {
			d := pdfdoc.New(pdfdoc.Options{Paper: tc.paper, Title: "Uji", PageLabel: pdfdoc.PageFooterID})
			d.WriteLetterhead(pdfdoc.Letterhead{Name: "SMA Negeri 1 Contoh", Address: "Jl. Merdeka No. 1", Phone: "021 555 1234", Logo: logo(t)})
			d.MultiCell(0, 6, "Nama: Ñoño Pérez — Ahmad Fauzi Siregar — Дмитрий", "", "L", false)
			d.AddPage()
			d.MultiCell(0, 6, "halaman kedua", "", "L", false)
			pdf, err := d.Bytes()
			if err != nil {
				t.Fatal(err)
			}
			text := run(t, pdf, "pdftotext", "-layout")
			for _, want := range []string{"SMA Negeri 1 Contoh", "Jl. Merdeka No. 1", "Telp. 021 555 1234",
				"Ñoño Pérez", "Дмитрий", "Halaman 1 dari 2", "Halaman 2 dari 2"} {
				if !strings.Contains(text, want) {
					t.Errorf("text lacks %q:\n%s", want, text)
				}
			}
			info := run(t, pdf, "pdfinfo")
			w, h := pageSizeMM(t, info)
			if abs(w-tc.paper.Width) > 0.5 || abs(h-tc.paper.Height) > 0.5 {
				t.Errorf("page size %.1f × %.1f mm, want %v:\n%s", w, h, tc.paper, info)
			}
			if !regexp.MustCompile(`(?m)^Pages:\s+2$`).MatchString(info) {
				t.Errorf("pages:\n%s", info)
			}
		})
	}
}

// A logo fpdf cannot read (not an image) is left out; the document is
// still written.
func TestLetterheadBadLogo(t *testing.T) {
	d := pdfdoc.New(pdfdoc.Options{})
	d.WriteLetterhead(pdfdoc.Letterhead{Name: "Sekolah", Logo: []byte("\x89PNG\r\n\x1a\nrusak")})
	pdf, err := d.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	if text := run(t, pdf, "pdftotext"); !strings.Contains(text, "Sekolah") {
		t.Errorf("text: %s", text)
	}
}

func TestPaperByName(t *testing.T) {
	for in, want := range map[string]pdfdoc.Paper{"F4": pdfdoc.F4, "f4": pdfdoc.F4, "A4": pdfdoc.A4, "": pdfdoc.A4, "letter": pdfdoc.A4} {
		if got := pdfdoc.PaperByName(in); got != want {
			t.Errorf("PaperByName(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestDateID(t *testing.T) {
	jkt, err := time.LoadLocation("Asia/Jakarta")
	if err != nil {
		t.Fatal(err)
	}
	// 17:30 UTC is already the next day in Jakarta.
	at := time.Date(2026, 11, 22, 17, 30, 0, 0, time.UTC).In(jkt)
	if got := pdfdoc.DateID(at); got != "23 November 2026" {
		t.Errorf("DateID = %q", got)
	}
}

// pageSizeMM reads "Page size: 609.45 x 935.43 pts" from pdfinfo's output.
func pageSizeMM(t *testing.T, info string) (w, h float64) {
	t.Helper()
	m := regexp.MustCompile(`Page size:\s+([0-9.]+) x ([0-9.]+) pts`).FindStringSubmatch(info)
	if m == nil {
		t.Fatalf("no page size in:\n%s", info)
	}
	w, _ = strconv.ParseFloat(m[1], 64)
	h, _ = strconv.ParseFloat(m[2], 64)
	return w * 25.4 / 72, h * 25.4 / 72
}

func abs(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}

// Sections count their own pages and each starts on a new page, whether
// the counts come from aliases or are given up front (a batch renders
// twice); a section's note stands in its footers.
func TestSections(t *testing.T) {
	write := func(d *pdfdoc.Doc) {
		d.NewSection("Verifikasi: satu")
		d.MultiCell(0, 6, "surat satu", "", "L", false)
		d.NewSection("")
		d.MultiCell(0, 6, "surat dua", "", "L", false)
		d.AddPage()
		d.MultiCell(0, 6, "surat dua lanjutan", "", "L", false)
	}
	count := pdfdoc.New(pdfdoc.Options{})
	write(count)
	if got := count.SectionPages(); len(got) != 2 || got[0] != 1 || got[1] != 2 {
		t.Fatalf("SectionPages = %v", got)
	}
	for _, given := range []bool{false, true} {
		d := pdfdoc.New(pdfdoc.Options{PageLabel: pdfdoc.PageFooterID})
		if given {
			d.SetSectionTotals(count.SectionPages())
		}
		write(d)
		pdf, err := d.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		pages := strings.Split(strings.TrimRight(run(t, pdf, "pdftotext", "-layout"), "\f\n"), "\f")
		want := [][]string{{"surat satu", "Verifikasi: satu", "Halaman 1 dari 1"}, {"surat dua", "Halaman 1 dari 2"}, {"lanjutan", "Halaman 2 dari 2"}}
		if len(pages) != len(want) {
			t.Fatalf("given %v: %d pages", given, len(pages))
		}
		for i, ws := range want {
			for _, w := range ws {
				if !strings.Contains(pages[i], w) {
					t.Errorf("given %v, page %d lacks %q:\n%s", given, i+1, w, pages[i])
				}
			}
		}
		if strings.Contains(pages[1], "Verifikasi") {
			t.Errorf("the first section's note on the second's page")
		}
	}
}

// KeepTogether starts a new page only for a block that does not fit on
// the rest of this page but fits on an empty one.
func TestKeepTogether(t *testing.T) {
	d := pdfdoc.New(pdfdoc.Options{})
	room := d.Room()
	if d.KeepTogether(room-1) || d.PageNo() != 1 {
		t.Fatal("a block that fits moved")
	}
	if d.KeepTogether(d.PageRoom()+1) || d.PageNo() != 1 {
		t.Fatal("a block taller than a page moved")
	}
	d.SetY(d.GetY() + room - 10)
	if !d.KeepTogether(20) || d.PageNo() != 2 {
		t.Fatal("a block that does not fit stayed")
	}
	if h := d.TextHeight(50, 5, strings.Repeat("kata ", 40)); h < 15 {
		t.Errorf("TextHeight %v for several lines", h)
	}
}
