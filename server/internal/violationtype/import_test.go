package violationtype_test

import (
	"archive/zip"
	"bytes"
	"crypto/rand"
	"fmt"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

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

// importErr uploads data and wants the status and the message key.
func importErr(t *testing.T, bk *apitest.Client, data []byte, status int, code string) apitest.ErrorBody {
	t.Helper()
	e := upload(t, bk, "file", "jenis.xlsx", data).Want(status).Err()
	if e.Error.MessageCode != code {
		t.Fatalf("message_code %q (%s), want %q", e.Error.MessageCode, e.Error.Message, code)
	}
	return e
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
		e := importErr(t, bk, xlsx(t, [][]any{{"jenis", "nama", "skor"}, {"Ringan", "X", 1}}), http.StatusUnprocessableEntity, "violationtype.headers.missing")
		if e.Error.FieldCodes["headers"].Code != "violationtype.headers.missing" || e.Error.Params["columns"] != "kategori, poin" {
			t.Fatalf("error: %+v", e.Error)
		}
		for _, w := range []string{"kategori", "poin", "category", "points"} {
			if !strings.Contains(e.Error.Message, w) {
				t.Fatalf("message %q does not name %q", e.Error.Message, w)
			}
		}
		importErr(t, bk, xlsx(t, [][]any{{"nama", "name", "kategori", "poin"}}), http.StatusUnprocessableEntity, "violationtype.headers.twice")
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
		if res.Skipped[0].Row != 2 || res.Skipped[0].ReasonCode != "violationtype.row.exists" ||
			res.Skipped[1].Row != 4 || res.Skipped[1].ReasonCode != "violationtype.row.duplicate_in_file" || res.Skipped[1].ReasonParams["first"] != 3.0 {
			t.Fatalf("skipped: %+v", res.Skipped)
		}
		if !strings.Contains(res.Skipped[1].Reason, "baris 3") {
			t.Fatalf("reason not rendered: %q", res.Skipped[1].Reason)
		}
		if res.Rejected[0].Row != 6 || res.Rejected[0].ReasonCode != "violationtype.row.system_type" || res.Rejected[1].Row != 7 {
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
		const p = "violationtype.row."
		want := map[int]string{2: p + "name_required", 3: p + "points_not_whole", 4: p + "points_not_whole", 5: p + "points_not_whole",
			6: p + "points_too_high", 7: p + "name_too_long", 8: p + "category_required", 9: p + "points_required", 10: p + "formula"}
		for _, r := range res.Rejected {
			if r.ReasonCode != want[r.Row] || r.Reason == "" || r.Reason == r.ReasonCode {
				t.Errorf("row %d: reason %q (%s), want %q", r.Row, r.ReasonCode, r.Reason, want[r.Row])
			}
		}
		if res.Rejected[8].ReasonParams["cell"] != "C10" {
			t.Errorf("formula cell: %+v", res.Rejected[8])
		}
	})

	t.Run("ErrBadFiles", func(t *testing.T) {
		t.Parallel()
		_, bk := newEnv(t)
		good := xlsx(t, [][]any{{"kategori", "nama", "poin"}, {"Ringan", "X", 1}})
		png := append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, 64)...)
		const p = "violationtype.file."
		importErr(t, bk, []byte("kategori,nama,poin\nRingan,Tidak membawa buku,2\n"), http.StatusUnprocessableEntity, p+"text")
		importErr(t, bk, png, http.StatusUnprocessableEntity, p+"image")
		importErr(t, bk, []byte("\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1rest"), http.StatusUnprocessableEntity, p+"old_xls")
		importErr(t, bk, append([]byte("PK\x03\x04"), make([]byte, 100)...), http.StatusUnprocessableEntity, p+"not_openable")
		importErr(t, bk, good[:len(good)/2], http.StatusUnprocessableEntity, p+"not_openable")
		importErr(t, bk, []byte{}, http.StatusUnprocessableEntity, p+"empty")
		// A zip that is not a workbook.
		var z bytes.Buffer
		zw := zip.NewWriter(&z)
		w, _ := zw.Create("word/document.xml")
		_, _ = w.Write([]byte("<doc/>"))
		_ = zw.Close()
		importErr(t, bk, z.Bytes(), http.StatusUnprocessableEntity, p+"not_workbook")
	})

	t.Run("ErrZipBomb", func(t *testing.T) {
		t.Parallel()
		_, bk := newEnv(t)
		importErr(t, bk, bomb(t, 60<<20), http.StatusUnprocessableEntity, "violationtype.file.unpacked_too_large")
		importErr(t, bk, bomb(t, 8<<20), http.StatusUnprocessableEntity, "violationtype.file.suspicious_part")
	})

	t.Run("ErrTooLarge", func(t *testing.T) {
		t.Parallel()
		_, bk := newEnv(t)
		big := make([]byte, violationtype.MaxImportBytes+1)
		_, _ = rand.Read(big)
		copy(big, "PK\x03\x04")
		e := upload(t, bk, "file", "besar.xlsx", big).Want(http.StatusRequestEntityTooLarge).Err()
		if e.Error.MessageCode != "violationtype.file.too_large" || e.Error.Params["mb"] != 5.0 {
			t.Fatalf("error: %+v", e.Error)
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
		importErr(t, bk, xlsx(t, rows), http.StatusUnprocessableEntity, "violationtype.file.too_many_rows")
		// Exactly the limit is fine.
		res := importOK(t, bk, xlsx(t, rows[:violationtype.MaxImportRows+1]))
		if res.Counts.Created != violationtype.MaxImportRows {
			t.Fatalf("created %d", res.Counts.Created)
		}
	})

	t.Run("ErrEmptySheet", func(t *testing.T) {
		t.Parallel()
		_, bk := newEnv(t)
		importErr(t, bk, xlsx(t, nil), http.StatusUnprocessableEntity, "violationtype.file.sheet_empty")
		importErr(t, bk, xlsx(t, [][]any{{"kategori", "nama", "poin"}}), http.StatusUnprocessableEntity, "violationtype.file.no_data_rows")
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
		importErr(t, bk, xlsx(t, [][]any{{"kategori", "nama"}, {"Baru", "X"}}), http.StatusUnprocessableEntity, "violationtype.headers.missing")
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
	// Uploaded unchanged, the template creates nothing: its rows are examples.
	untouched := importOK(t, bk, res.Body)
	if untouched.Counts.Created != 0 || untouched.Counts.Skipped != 3 || len(untouched.CategoriesCreated) != 0 {
		t.Fatalf("unchanged template: %v", untouched)
	}
	for _, s := range untouched.Skipped {
		if s.ReasonCode != "violationtype.row.example" {
			t.Fatalf("skipped: %+v", s)
		}
	}
	f, err := excelize.OpenReader(bytes.NewReader(res.Body))
	if err != nil {
		t.Fatal(err)
	}
	sheets := f.GetSheetList()
	sheet := sheets[0]
	header, _ := f.GetRows(sheet)
	if strings.Join(header[0], ",") != "kategori,nama,poin,sanksi,deskripsi" || len(header) != 4 {
		t.Fatalf("template rows: %v", header)
	}
	if !strings.HasPrefix(header[1][1], "CONTOH:") {
		t.Fatalf("example row not marked: %v", header[1])
	}
	help, _ := f.GetRows(sheets[1])
	if !strings.Contains(fmt.Sprint(help), "CONTOH:") {
		t.Fatalf("the instructions do not explain the example rows: %v", help)
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
	if out.Counts.Created != 2 || out.Counts.Skipped != 3 || out.Counts.Rejected != 0 || len(out.CategoriesCreated) != 1 {
		t.Fatalf("result: %v (categories %v)", out, out.CategoriesCreated)
	}
	if last := out.Created[len(out.Created)-1]; last.Row != n+2 || last.Category != "Kebersihan" || !last.NewCategory {
		t.Fatalf("last: %+v", last)
	}
	// Importing the same file again only skips.
	again := importOK(t, bk, buf.Bytes())
	if again.Counts.Created != 0 || again.Counts.Skipped != 5 {
		t.Fatalf("again: %v", again)
	}
	// In English the template's marker and sheet names are English, and
	// its examples are skipped all the same.
	en := bk.Do("GET", "/api/v1/violation-types/import-template", nil, "Accept-Language", "en").Want(http.StatusOK)
	fe, err := excelize.OpenReader(bytes.NewReader(en.Body))
	if err != nil {
		t.Fatal(err)
	}
	defer fe.Close()
	rows, _ := fe.GetRows(fe.GetSheetList()[0])
	if !strings.HasPrefix(rows[1][1], "EXAMPLE:") {
		t.Fatalf("English template: %v", rows)
	}
	if r := importOK(t, bk, en.Body); r.Counts.Created != 0 || r.Counts.Skipped != 3 {
		t.Fatalf("English template imported: %v", r)
	}
}

// The preview answers what an import would do and saves nothing; the same
// file posted without dry_run then does exactly that. Reasons come in the
// request's language.
func TestImportPreview(t *testing.T) {
	t.Parallel()
	env, bk := newEnv(t)
	data := xlsx(t, [][]any{
		{"kategori", "nama", "poin"},
		{"Ringan", "Tidak membawa buku", 2},
		{"Ringn", "Rambut diwarnai", 5}, // a typo: a new category
		{"Ringan", "", 2},
		{"Ringan", "Tidak membawa buku", 3},
		{"Ringan", "CONTOH: Tidak memakai dasi", 2},
	})
	count := func() (n int) {
		if err := env.DB.Get(&n, `SELECT (SELECT count(*) FROM violation_types) + (SELECT count(*) FROM violation_categories)`); err != nil {
			t.Fatal(err)
		}
		return n
	}
	before := count()
	var prev importResult
	uploadTo(t, bk, "/api/v1/violation-types/import?dry_run=1", data, "Accept-Language", "en").Want(http.StatusOK).JSON(&prev)
	if !prev.DryRun || prev.Counts.Created != 2 || prev.Counts.Skipped != 2 || prev.Counts.Rejected != 1 {
		t.Fatalf("preview: %v", prev)
	}
	if len(prev.CategoriesCreated) != 1 || prev.CategoriesCreated[0] != "Ringn" || prev.Created[0].NewCategory || !prev.Created[1].NewCategory {
		t.Fatalf("new categories: %v %+v", prev.CategoriesCreated, prev.Created)
	}
	if prev.Created[0].ID != 0 {
		t.Fatalf("a preview row has an id: %+v", prev.Created[0])
	}
	if r := prev.Rejected[0]; r.Row != 4 || r.ReasonCode != "violationtype.row.name_required" || r.Reason != "The name is missing." {
		t.Fatalf("rejected: %+v", r)
	}
	if s := prev.Skipped[1]; s.Row != 6 || s.ReasonCode != "violationtype.row.example" || !strings.Contains(s.Reason, "example") {
		t.Fatalf("skipped: %+v", s)
	}
	if after := count(); after != before {
		t.Fatalf("the preview saved something: %d rows, was %d", after, before)
	}
	var audited int
	_ = env.DB.Get(&audited, `SELECT count(*) FROM audit_log WHERE action = 'violation_type.import'`)
	if audited != 0 {
		t.Fatalf("the preview was audited as an import")
	}

	done := importOK(t, bk, data)
	if done.DryRun || done.Counts != prev.Counts || done.Created[1].ID == 0 || !done.Created[1].NewCategory {
		t.Fatalf("import after preview: %v", done)
	}
	if after := count(); after != before+3 {
		t.Fatalf("stored %d, want %d", after, before+3)
	}
	uploadTo(t, bk, "/api/v1/violation-types/import?dry_run=maybe", data).Want(http.StatusUnprocessableEntity)
}

// padded is a valid workbook with n extra entries of size zero bytes each:
// every entry passes the bomb rules (small, and under 1 MB where the ratio
// rule starts), and together they stay under the declared-size limit.
func padded(t testing.TB, n, size int) []byte {
	t.Helper()
	good := xlsx(t, [][]any{{"kategori", "nama", "poin"}, {"Ringan", "Tidak membawa buku", 2}})
	zr, err := zip.NewReader(bytes.NewReader(good), int64(len(good)))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range zr.File {
		if err := zw.Copy(f); err != nil {
			t.Fatal(err)
		}
	}
	zeros := make([]byte, size)
	for i := range n {
		w, err := zw.Create(fmt.Sprintf("xl/media/padding%d.bin", i))
		if err != nil {
			t.Fatal(err)
		}
		_, _ = w.Write(zeros)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// Not parallel: it reads process-wide counters.
func TestImportReadsOnlyNeededParts(t *testing.T) {
	data := padded(t, 48, 1_000_000)
	parts, err := violationtype.MinimalParts(data)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range parts {
		if strings.Contains(p, "padding") {
			t.Fatalf("the import reads %s: %v", p, parts)
		}
	}
	runtime.GC()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	inflated := violationtype.Decompressed()
	rows, err := violationtype.ParseImport(data)
	if err != nil || len(rows) != 1 {
		t.Fatalf("%d rows, %v", len(rows), err)
	}
	inflated = violationtype.Decompressed() - inflated
	runtime.ReadMemStats(&m1)
	alloc := m1.TotalAlloc - m0.TotalAlloc
	t.Logf("padded workbook (%d KB): %d bytes inflated, %d KB allocated", len(data)>>10, inflated, alloc>>10)
	if inflated > 64<<10 {
		t.Errorf("inflated %d bytes; the padding is %d MB", inflated, 48)
	}
	// Before, excelize inflated all 48 MB of padding into memory.
	if alloc > 16<<20 {
		t.Errorf("allocated %d MB for a one-row import", alloc>>20)
	}
}

// Not parallel: it holds the process-wide import slots.
func TestImportConcurrencyLimit(t *testing.T) {
	_, bk := newEnv(t)
	data := xlsx(t, [][]any{{"kategori", "nama", "poin"}, {"Ringan", "Tidak membawa buku", 2}})
	if violationtype.ImportSlots() < 1 || violationtype.ImportSlots() > 4 {
		t.Fatalf("%d import slots", violationtype.ImportSlots())
	}
	release := violationtype.HoldImportSlots(50 * time.Millisecond)
	e := upload(t, bk, "file", "jenis.xlsx", data).Want(http.StatusServiceUnavailable).Err()
	if e.Error.Code != "unavailable" || e.Error.MessageCode != "violationtype.import.busy" {
		t.Fatalf("error: %+v", e.Error)
	}
	uploadTo(t, bk, "/api/v1/violation-types/import?dry_run=1", data).Want(http.StatusServiceUnavailable)
	release()

	// With free slots, more uploads than slots all finish: they wait
	// their turn.
	defer violationtype.SetImportWait(time.Minute)()
	var wg sync.WaitGroup
	codes := make([]int, 3*violationtype.ImportSlots())
	for i := range codes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes[i] = uploadTo(t, bk, "/api/v1/violation-types/import?dry_run=1", data).Status
		}()
	}
	wg.Wait()
	for i, c := range codes {
		if c != http.StatusOK {
			t.Fatalf("upload %d: status %d", i, c)
		}
	}
}
