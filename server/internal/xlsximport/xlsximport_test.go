package xlsximport

import (
	"bytes"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/xlsxw"
)

func TestUploadRead(t *testing.T) {
	u := Upload{MaxBytes: 1 << 20, Slack: 1 << 10, Unreadable: "t.unreadable"}
	type part struct{ field, file, body string }
	form := func(parts ...part) (*bytes.Buffer, string) {
		var b bytes.Buffer
		mw := multipart.NewWriter(&b)
		for _, p := range parts {
			w, _ := mw.CreateFormFile(p.field, p.file)
			_, _ = w.Write([]byte(p.body))
		}
		_ = mw.Close()
		return &b, mw.FormDataContentType()
	}
	for _, c := range []struct {
		name       string
		u          Upload
		parts      []part
		ct         string // instead of the form's
		code, key  string
		file, data string
	}{
		{name: "ok, other parts passed over", u: u, parts: []part{{"note", "x.txt", "x"}, {"file", "a\tb.xlsx", "PK"}}, file: "a b.xlsx", data: "PK"},
		{name: "named by the caller", u: Upload{MaxBytes: 1 << 20, Slack: 1 << 10, Name: strings.ToUpper}, parts: []part{{"file", "a.xlsx", "PK"}}, file: "A.XLSX", data: "PK"},
		{name: "no file", u: u, parts: []part{{"note", "x.txt", "x"}}, code: apperr.Invalid, key: "violationtype.file.required"},
		{name: "not multipart", u: u, ct: "application/json", code: apperr.BadRequest, key: "violationtype.request.not_multipart"},
		{name: "file too large", u: Upload{MaxBytes: 1 << 20, Slack: 1 << 20}, parts: []part{{"file", "a.xlsx", strings.Repeat("x", 1<<20+1)}}, code: apperr.TooLarge, key: "violationtype.file.too_large"},
		{name: "body too large", u: u, parts: []part{{"file", "a.xlsx", strings.Repeat("x", 2<<20)}}, code: apperr.TooLarge, key: "request.too_large"},
		{name: "body too large, the caller's answer", u: Upload{MaxBytes: 1 << 20, BodyTooLarge: func(int64) error { return apperr.New(apperr.TooLarge, "t.big") }},
			parts: []part{{"file", "a.xlsx", strings.Repeat("x", 2<<20)}}, code: apperr.TooLarge, key: "t.big"},
	} {
		t.Run(c.name, func(t *testing.T) {
			body, ct := form(c.parts...)
			if c.ct != "" {
				ct = c.ct
			}
			r := httptest.NewRequest("POST", "/", body)
			r.Header.Set("Content-Type", ct)
			name, data, err := c.u.Read(httptest.NewRecorder(), r)
			if c.code == "" {
				if err != nil || name != c.file || string(data) != c.data {
					t.Fatalf("err %v, name %q, data %q", err, name, data)
				}
				return
			}
			if e, ok := apperr.As(err); !ok || e.Code != c.code || e.Msg.Key != c.key {
				t.Fatalf("err %v, want %s %s", err, c.code, c.key)
			}
		})
	}
	// A body announced too large is refused before it is read.
	r := httptest.NewRequest("POST", "/", strings.NewReader(""))
	r.ContentLength = 10 << 20
	if _, _, err := u.Read(httptest.NewRecorder(), r); apperr.Code(err) != apperr.TooLarge {
		t.Fatalf("announced: %v", err)
	}
}

func TestServeTemplate(t *testing.T) {
	w := httptest.NewRecorder()
	if err := ServeTemplate(w, "t.xlsx", []byte("PK")); err != nil {
		t.Fatal(err)
	}
	h := w.Result().Header
	if h.Get("Content-Type") != ContentType || h.Get("Content-Disposition") != `attachment; filename="t.xlsx"` ||
		h.Get("Content-Length") != "2" || h.Get("Cache-Control") != "no-store" || w.Body.String() != "PK" || w.Code != http.StatusOK {
		t.Fatalf("headers %v, body %q", h, w.Body.String())
	}
}

func TestTemplateBuild(t *testing.T) {
	b, err := Template{
		Sheet: "Jenis", Columns: []xlsxw.Column{{Title: "kategori", Width: 10}, {Title: "poin", Width: 5}},
		Examples: [][]any{{"Contoh: A", 3}}, HelpSheet: "Petunjuk", Help: []string{"satu", "", "=dua"},
	}.Build()
	if err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, _ := f.GetRows("Jenis")
	help, _ := f.GetRows("Petunjuk")
	if got := fmt.Sprint(f.GetSheetList(), rows, help); got != "[Jenis Petunjuk] [[kategori poin] [Contoh: A 3]] [[satu] [] [=dua]]" {
		t.Fatalf("got %s", got)
	}
}
