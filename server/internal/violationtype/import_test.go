package violationtype_test

import (
	"archive/zip"
	"bytes"
	"crypto/rand"
	"net/http"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/server/internal/violationtype"
)

func importOK(t *testing.T, bk *apitest.Client, data []byte) importResult {
	t.Helper()
	var res importResult
	upload(t, bk, "file", "jenis.xlsx", data).Want(http.StatusOK).JSON(&res)
	return res
}

func importErr(t *testing.T, bk *apitest.Client, data []byte, status int, want string) {
	t.Helper()
	e := upload(t, bk, "file", "jenis.xlsx", data).Want(status).Err()
	if !strings.Contains(e.Error.Message, want) {
		t.Fatalf("message %q does not contain %q", e.Error.Message, want)
	}
}

func TestImport(t *testing.T) {
	t.Parallel()

	t.Run("OKIndonesianHeaders", func(t *testing.T) {
		t.Parallel()
		_, bk := newEnv(t)
		res := importOK(t, bk, xlsx(t, [][]any{
			{"Kategori", "Nama", "Poin", "Sanksi", "Deskripsi"},
			{"Ringan", "Tidak membawa buku", 2, "Teguran lisan", "Buku paket"},
			{"Berat", "Membawa senjata tajam", 100, "Skorsing", ""},
			{},
			{"Sedang", "Membolos", "20", "", ""},
		}))
		if res.Counts.Created != 3 || len(res.Skipped)+len(res.Rejected) != 0 {
			t.Fatalf("result: %v", res)
		}
		if res.Created[2].Row != 5 || res.Created[2].Points != 20 || res.Created[2].Category != "Sedang" {
			t.Fatalf("row numbers: %v", res)
		}
		l := listTypes(t, bk, "?q=senjata")
		if len(l.Data) != 1 || l.Data[0].Points != 100 || l.Data[0].DefaultSanction != "Skorsing" || l.Data[0].Category.Name != "Berat" {
			t.Fatalf("stored: %+v", l.Data)
		}
	})

	t.Run("OKEnglishHeadersOtherOrder", func(t *testing.T) {
		t.Parallel()
		_, bk := newEnv(t)
		res := importOK(t, bk, xlsx(t, [][]any{
			{"No", "POINTS", " Name ", "description", "Category"},
			{1, 5, "Rambut tidak rapi", "Gondrong", "ringan"},
		}))
		if res.Counts.Created != 1 || res.Created[0].Category != "Ringan" || res.Created[0].Points != 5 {
			t.Fatalf("result: %v", res)
		}
		if len(res.CategoriesCreated) != 0 {
			t.Fatalf("categories created: %v", res.CategoriesCreated)
		}
	})

	t.Run("ErrWrongHeader", func(t *testing.T) {
		t.Parallel()
		_, bk := newEnv(t)
		e := upload(t, bk, "file", "x.xlsx", xlsx(t, [][]any{{"jenis", "nama", "skor"}, {"Ringan", "X", 1}})).Want(http.StatusUnprocessableEntity).Err()
		for _, w := range []string{"kategori", "poin", "category", "points"} {
			if !strings.Contains(e.Error.Message, w) {
				t.Fatalf("message %q does not name %q", e.Error.Message, w)
			}
		}
		importErr(t, bk, xlsx(t, [][]any{{"nama", "name", "kategori", "poin"}}), http.StatusUnprocessableEntity, "dua kali")
	})

	t.Run("OKDuplicates", func(t *testing.T) {
		t.Parallel()
		_, bk := newEnv(t)
		importOK(t, bk, xlsx(t, [][]any{{"kategori", "nama", "poin"}, {"Ringan", "Tidak membawa buku", 2}}))
		res := importOK(t, bk, xlsx(t, [][]any{
			{"kategori", "nama", "poin"},
			{"RINGAN", "tidak  membawa BUKU ", 3}, // stored
			{"Sedang", "Membolos", 20},            // new
			{" sedang", "membolos", 25},           // same file
			{"Berat", "Tidak membawa buku", 2},    // other category: new
			{"Ringan", "Alpha", 15},               // system name: rejected
			{"Ringan", "terlambat", 2},            // system slug: rejected
		}))
		if res.Counts.Created != 2 || res.Counts.Skipped != 2 || res.Counts.Rejected != 2 {
			t.Fatalf("result: %v", res)
		}
		if res.Skipped[0].Row != 2 || !strings.Contains(res.Skipped[0].Reason, "Sudah ada") ||
			res.Skipped[1].Row != 4 || !strings.Contains(res.Skipped[1].Reason, "baris 3") {
			t.Fatalf("skipped: %+v", res.Skipped)
		}
		if res.Rejected[0].Row != 6 || !strings.Contains(res.Rejected[0].Reason, "sistem") || res.Rejected[1].Row != 7 {
			t.Fatalf("rejected: %+v", res.Rejected)
		}
	})

	t.Run("OKCategoryCreated", func(t *testing.T) {
		t.Parallel()
		_, bk := newEnv(t)
		res := importOK(t, bk, xlsx(t, [][]any{
			{"kategori", "nama", "poin"},
			{"Sangat  Berat", "Narkoba", 150},
			{" sangat berat ", "Minuman keras", 100},
			{"BERAT", "Tawuran", 100},
		}))
		if res.Counts.Created != 3 || len(res.CategoriesCreated) != 1 || res.CategoriesCreated[0] != "Sangat Berat" {
			t.Fatalf("result: %v categories %v", res, res.CategoriesCreated)
		}
		if res.Created[1].Category != "Sangat Berat" || res.Created[2].Category != "Berat" {
			t.Fatalf("categories: %v", res)
		}
		l := listTypes(t, bk, "?category_id="+itoa(categoryID(t, bk, "Sangat Berat")))
		if len(l.Data) != 2 || len(l.Categories) != 4 {
			t.Fatalf("stored: %+v", l)
		}
	})

	t.Run("OKRejectedRows", func(t *testing.T) {
		t.Parallel()
		_, bk := newEnv(t)
		res := importOK(t, bk, xlsx(t, [][]any{
			{"kategori", "nama", "poin"},
			{"Ringan", "", 2},
			{"Ringan", "Poin huruf", "dua"},
			{"Ringan", "Poin negatif", -1},
			{"Ringan", "Poin pecahan", 2.5},
			{"Ringan", "Poin besar", 1001},
			{"Ringan", strings.Repeat("n", 151), 1},
			{"", "Tanpa kategori", 1},
			{"Ringan", "Tanpa poin"},
			{"Ringan", "Rumus", 0},
			{"Ringan", "Sah", 1000},
		}, func(f *excelize.File, sheet string) {
			if err := f.SetCellFormula(sheet, "C10", "=1+1"); err != nil {
				t.Fatal(err)
			}
		}))
		if res.Counts.Created != 1 || res.Counts.Rejected != 9 || res.Created[0].Row != 11 {
			t.Fatalf("result: %v", res)
		}
		want := map[int]string{2: "Nama", 3: "bilangan bulat", 4: "bilangan bulat", 5: "bilangan bulat", 6: "maksimal 1000",
			7: "150", 8: "Kategori", 9: "Poin wajib", 10: "C10"}
		for _, r := range res.Rejected {
			if !strings.Contains(r.Reason, want[r.Row]) {
				t.Errorf("row %d: reason %q, want %q", r.Row, r.Reason, want[r.Row])
			}
		}
	})

	t.Run("ErrBadFiles", func(t *testing.T) {
		t.Parallel()
		_, bk := newEnv(t)
		good := xlsx(t, [][]any{{"kategori", "nama", "poin"}, {"Ringan", "X", 1}})
		png := append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, 64)...)
		importErr(t, bk, []byte("kategori,nama,poin\nRingan,Tidak membawa buku,2\n"), http.StatusUnprocessableEntity, "CSV")
		importErr(t, bk, png, http.StatusUnprocessableEntity, "gambar")
		importErr(t, bk, []byte("\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1rest"), http.StatusUnprocessableEntity, ".xls")
		importErr(t, bk, append([]byte("PK\x03\x04"), make([]byte, 100)...), http.StatusUnprocessableEntity, "rusak")
		importErr(t, bk, good[:len(good)/2], http.StatusUnprocessableEntity, "rusak")
		importErr(t, bk, []byte{}, http.StatusUnprocessableEntity, "kosong")
		// A zip that is not a workbook.
		var z bytes.Buffer
		zw := zip.NewWriter(&z)
		w, _ := zw.Create("word/document.xml")
		_, _ = w.Write([]byte("<doc/>"))
		_ = zw.Close()
		importErr(t, bk, z.Bytes(), http.StatusUnprocessableEntity, "bukan buku kerja")
	})

	t.Run("ErrZipBomb", func(t *testing.T) {
		t.Parallel()
		_, bk := newEnv(t)
		importErr(t, bk, bomb(t, 60<<20), http.StatusUnprocessableEntity, "50 MB")
		importErr(t, bk, bomb(t, 8<<20), http.StatusUnprocessableEntity, "mengembang")
	})

	t.Run("ErrTooLarge", func(t *testing.T) {
		t.Parallel()
		_, bk := newEnv(t)
		big := make([]byte, violationtype.MaxImportBytes+1)
		_, _ = rand.Read(big)
		copy(big, "PK\x03\x04")
		e := upload(t, bk, "file", "besar.xlsx", big).Want(http.StatusRequestEntityTooLarge).Err()
		if !strings.Contains(e.Error.Message, "5 MB") {
			t.Fatalf("message: %s", e.Error.Message)
		}
		// A body well past the limit is refused from its Content-Length.
		upload(t, bk, "file", "besar.xlsx", append(big, big[:1<<20]...)).Want(http.StatusRequestEntityTooLarge)
	})

	t.Run("ErrTooManyRows", func(t *testing.T) {
		t.Parallel()
		_, bk := newEnv(t)
		rows := [][]any{{"kategori", "nama", "poin"}}
		for i := range violationtype.MaxImportRows + 1 {
			rows = append(rows, []any{"Ringan", "Jenis " + itoa(int64(i)), 1})
		}
		importErr(t, bk, xlsx(t, rows), http.StatusUnprocessableEntity, "2000")
		// Exactly the limit is fine.
		res := importOK(t, bk, xlsx(t, rows[:violationtype.MaxImportRows+1]))
		if res.Counts.Created != violationtype.MaxImportRows {
			t.Fatalf("created %d", res.Counts.Created)
		}
	})

	t.Run("ErrEmptySheet", func(t *testing.T) {
		t.Parallel()
		_, bk := newEnv(t)
		importErr(t, bk, xlsx(t, nil), http.StatusUnprocessableEntity, "kosong")
		importErr(t, bk, xlsx(t, [][]any{{"kategori", "nama", "poin"}}), http.StatusUnprocessableEntity, "Tidak ada baris data")
	})

	t.Run("ErrRequest", func(t *testing.T) {
		t.Parallel()
		_, bk := newEnv(t)
		bk.Do("POST", "/api/v1/violation-types/import", map[string]any{"file": "x"}).Want(http.StatusBadRequest)
		e := upload(t, bk, "berkas", "x.xlsx", []byte("x")).Want(http.StatusUnprocessableEntity).Err()
		if e.Error.Fields["file"] == "" {
			t.Fatalf("fields: %v", e.Error.Fields)
		}
	})

	t.Run("OKNothingChangesOnBadFile", func(t *testing.T) {
		t.Parallel()
		env, bk := newEnv(t)
		importErr(t, bk, xlsx(t, [][]any{{"kategori", "nama"}, {"Baru", "X"}}), http.StatusUnprocessableEntity, "poin")
		var n int
		_ = env.DB.Get(&n, `SELECT count(*) FROM violation_categories`)
		if n != 3 {
			t.Fatalf("categories: %d", n)
		}
	})
}

// bomb is a zip whose one sheet inflates to size bytes.
func bomb(t *testing.T, size int) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, body := range map[string]string{
		"[Content_Types].xml":        `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`,
		"xl/workbook.xml":            `<workbook xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>`,
		"xl/_rels/workbook.xml.rels": `<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>`,
	} {
		w, _ := zw.Create(name)
		_, _ = w.Write([]byte(body))
	}
	w, _ := zw.Create("xl/worksheets/sheet1.xml")
	chunk := bytes.Repeat([]byte(" "), 1<<20)
	for range size >> 20 {
		_, _ = w.Write(chunk)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestTemplateRoundTrip(t *testing.T) {
	t.Parallel()
	_, bk := newEnv(t)
	res := bk.Do("GET", "/api/v1/violation-types/import-template", nil).Want(http.StatusOK)
	if ct := res.Header.Get("Content-Type"); ct != violationtype.XLSXContentType {
		t.Fatalf("content type %q", ct)
	}
	if cd := res.Header.Get("Content-Disposition"); !strings.HasPrefix(cd, "attachment;") || !strings.Contains(cd, ".xlsx") {
		t.Fatalf("content disposition %q", cd)
	}
	f, err := excelize.OpenReader(bytes.NewReader(res.Body))
	if err != nil {
		t.Fatal(err)
	}
	sheet := f.GetSheetList()[0]
	header, _ := f.GetRows(sheet)
	if strings.Join(header[0], ",") != "kategori,nama,poin,sanksi,deskripsi" || len(header) < 2 {
		t.Fatalf("template rows: %v", header)
	}
	// Fill it as a counselor would: keep the examples, add two rows.
	n := len(header)
	_ = f.SetSheetRow(sheet, "A"+itoa(int64(n+1)), &[]any{"Sedang", "Menyontek saat ujian", 20, "Nilai dibatalkan", ""})
	_ = f.SetSheetRow(sheet, "A"+itoa(int64(n+2)), &[]any{"Kebersihan", "Tidak piket", 3, "", ""})
	buf, err := f.WriteToBuffer()
	if err != nil {
		t.Fatal(err)
	}
	_ = f.Close()
	out := importOK(t, bk, buf.Bytes())
	if out.Counts.Created != n+1 || out.Counts.Rejected != 0 || len(out.CategoriesCreated) != 1 {
		t.Fatalf("result: %v (categories %v)", out, out.CategoriesCreated)
	}
	if last := out.Created[len(out.Created)-1]; last.Row != n+2 || last.Category != "Kebersihan" {
		t.Fatalf("last: %+v", last)
	}
	// Importing the same file again only skips.
	again := importOK(t, bk, buf.Bytes())
	if again.Counts.Created != 0 || again.Counts.Skipped != n+1 {
		t.Fatalf("again: %v", again)
	}
}
