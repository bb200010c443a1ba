package violation

import (
	"bytes"
	"context"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/tatib/tatib/server/internal/apperr"
)

// The shared reader of "JSON part + evidence photos" (recording, the
// anonymous report, excuses): each refusal with the code and key its caller
// configured.
func TestPhotoFormRead(t *testing.T) {
	pf := PhotoForm{
		DataPart: "data", PhotoPart: "photos", MaxPhotos: 2, MaxData: 64, FileNames: true,
		Unreadable: "t.unreadable", UnknownPart: "t.unknown", TooMany: "t.too_many", DataMissing: "t.data_missing",
	}
	img := pngOf(t, 4, 3)
	type part struct{ name, file, body string }
	data := part{"data", "", `{"note":"ok"}`}
	photo := part{"photos", "a.png", string(img)}
	cases := []struct {
		name      string
		pf        PhotoForm
		parts     []part
		code      string
		key       string // the error's key, or the field's when code is Invalid
		field     string
		photos    int
		note      string // the decoded JSON, when set
		maxBodyAt int64
	}{
		{name: "ok", pf: pf, parts: []part{data, photo, photo}, photos: 2},
		{name: "an empty file input counts, is skipped", pf: pf, parts: []part{data, {"photos", "", ""}, photo}, photos: 1},
		{name: "too many photos", pf: pf, parts: []part{data, photo, photo, photo}, code: apperr.Invalid, field: "photos", key: "t.too_many"},
		{name: "too big", pf: pf, parts: []part{data, {"photos", "big.jpg", strings.Repeat("x", MaxPhotoBytes+1)}}, code: apperr.Invalid, field: "photos", key: "violation.photo.too_large"},
		{name: "not an image", pf: pf, parts: []part{data, {"photos", "a.txt", "hello"}}, code: apperr.Invalid, field: "photos", key: "violation.photo.not_image"},
		{name: "bad JSON", pf: pf, parts: []part{{"data", "", `{"note":`}, photo}, code: apperr.BadRequest},
		// As DecodeJSON: invalid UTF-8 in a string becomes U+FFFD.
		{name: "non-UTF-8 JSON", pf: pf, parts: []part{{"data", "", "{\"note\":\"\xff\xfe\"}"}}, note: "\ufffd\ufffd"},
		{name: "JSON part too large", pf: pf, parts: []part{{"data", "", `{"note":"` + strings.Repeat("x", 64) + `"}`}}, code: apperr.TooLarge, key: "request.too_large"},
		{name: "missing JSON part", pf: pf, parts: []part{photo}, code: apperr.BadRequest, key: "t.data_missing"},
		{name: "missing JSON part as a field", pf: func() PhotoForm { p := pf; p.DataMissingField = true; return p }(), parts: []part{photo}, code: apperr.Invalid, field: "data", key: "t.data_missing"},
		{name: "unknown part", pf: pf, parts: []part{data, {"evil", "", "x"}}, code: apperr.BadRequest, key: "t.unknown"},
		{name: "huge part over the body limit", pf: pf, parts: []part{data, {"photos", "big.jpg", strings.Repeat("x", 1<<20)}}, maxBodyAt: 1 << 19, code: apperr.TooLarge, key: "request.too_large"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var body bytes.Buffer
			mw := multipart.NewWriter(&body)
			for _, p := range c.parts {
				var w interface{ Write([]byte) (int, error) }
				var err error
				if p.file != "" {
					w, err = mw.CreateFormFile(p.name, p.file)
				} else {
					w, err = mw.CreateFormField(p.name)
				}
				if err != nil {
					t.Fatal(err)
				}
				_, _ = w.Write([]byte(p.body))
			}
			_ = mw.Close()
			r := httptest.NewRequestWithContext(context.Background(), "POST", "/", &body)
			r.Header.Set("Content-Type", mw.FormDataContentType())
			if c.maxBodyAt > 0 {
				r.Body = http.MaxBytesReader(httptest.NewRecorder(), r.Body, c.maxBodyAt)
			}
			var dst struct{ Note string }
			f := apperr.Fields{}
			photos, err := c.pf.Read(r, &dst, f)
			if err == nil {
				err = f.Err()
			}
			if c.code == "" {
				if err != nil || len(photos) != c.photos {
					t.Fatalf("err %v, %d photos, want %d", err, len(photos), c.photos)
				}
				if c.note != "" && dst.Note != c.note {
					t.Fatalf("note %q, want %q", dst.Note, c.note)
				}
				return
			}
			e, ok := apperr.As(err)
			if !ok || e.Code != c.code {
				t.Fatalf("err %v, want code %s", err, c.code)
			}
			got := e.Msg.Key
			if c.field != "" {
				got = e.Fields[c.field].Key
			}
			if c.key != "" && got != c.key {
				t.Fatalf("key %q, want %q (%v)", got, c.key, err)
			}
		})
	}
	t.Run("JSON without multipart", func(t *testing.T) {
		r := httptest.NewRequest("POST", "/", strings.NewReader(`{"note":"plain"}`))
		r.Header.Set("Content-Type", "application/json")
		var dst struct{ Note string }
		photos, err := pf.Read(r, &dst, apperr.Fields{})
		if err != nil || photos != nil || dst.Note != "plain" {
			t.Fatalf("err %v, photos %v, note %q", err, photos, dst.Note)
		}
	})
}
