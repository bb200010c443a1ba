package cases_test

import (
	"bytes"
	"encoding/json"
	"image"
	"image/color"
	"image/jpeg"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"regexp"
	"strings"
	"testing"

	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

// exifJPEG is a small JPEG carrying an EXIF segment with a GPS-like marker.
func exifJPEG(t *testing.T) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 40, 30))
	for x := range 40 {
		for y := range 30 {
			img.Set(x, y, color.RGBA{200, 30, 30, 255})
		}
	}
	var buf bytes.Buffer
	must(t, jpeg.Encode(&buf, img, nil))
	b := buf.Bytes()
	payload := append([]byte("Exif\x00\x00"), []byte("GPS-SECRET-LOCATION")...)
	seg := append([]byte{0xFF, 0xE1, byte((len(payload) + 2) >> 8), byte(len(payload) + 2)}, payload...)
	return append(append(append([]byte{}, b[:2]...), seg...), b[2:]...)
}

func TestPublicReport(t *testing.T) {
	s := setup(t)
	anon := s.env.Anonymous()

	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	data, _ := json.Marshal(map[string]any{"category_id": 1, "description": "Teman saya dipukul di toilet", "place": "Toilet"})
	must(t, mw.WriteField("data", string(data)))
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", `form-data; name="photos"; filename="bukti.jpg"`)
	h.Set("Content-Type", "image/jpeg")
	w, err := mw.CreatePart(h)
	must(t, err)
	_, _ = w.Write(exifJPEG(t))
	must(t, mw.Close())
	var rec api.PublicReportReceipt
	anon.Do("POST", "/api/v1/public/reports", &buf, "Content-Type", mw.FormDataContentType()).Want(http.StatusCreated).JSON(&rec)
	if !regexp.MustCompile(`^[A-Z2-9]{10}$`).MatchString(rec.Code) || !regexp.MustCompile(`^[0-9]{6}$`).MatchString(rec.PIN) {
		t.Fatalf("receipt %+v", rec)
	}

	t.Run("OKStoredSafely", func(t *testing.T) {
		var row struct {
			Hash  string `db:"pin_hash"`
			Image []byte `db:"image"`
		}
		must(t, s.env.DB.Get(&row, `SELECT r.pin_hash, p.image FROM case_reports r JOIN case_report_photos p ON p.report_id = r.id WHERE r.code = $1`, rec.Code))
		if row.Hash == rec.PIN || row.Hash[:2] != "$2" || bytes.Contains(row.Image, []byte("GPS-SECRET")) || bytes.Contains(row.Image, []byte("Exif")) {
			t.Errorf("pin hash %q, photo keeps EXIF %v", row.Hash, bytes.Contains(row.Image, []byte("Exif")))
		}
		var addr int
		must(t, s.env.DB.Get(&addr, `SELECT count(*) FROM case_report_hits WHERE address_hash LIKE '%127.0.0.1%'`))
		if addr != 0 {
			t.Error("raw address stored")
		}
	})
	var caseID int64
	must(t, s.env.DB.Get(&caseID, `SELECT case_id FROM case_reports WHERE code = $1`, rec.Code))
	path := "/api/v1/cases/" + itoa(caseID)

	t.Run("OKCounselorsGetIt", func(t *testing.T) {
		var c api.Case
		s.bk.Do("GET", path, nil).Want(http.StatusOK).JSON(&c)
		if c.Level != api.CaseLevelFull || c.Source != api.CaseSourceAnonymousReport || c.Stage != api.CaseStageIdentification || c.Report == nil || len(c.Report.PhotoIDs) != 1 {
			t.Fatalf("case %+v report %+v", c.CaseSummary, c.Report)
		}
		s.bk.Do("GET", path+"/report-photos/"+itoa(c.Report.PhotoIDs[0]), nil).Want(http.StatusOK)
		s.waliA.Do("GET", path, nil).Want(http.StatusNotFound)
	})
	t.Run("OKReplyAndMessage", func(t *testing.T) {
		s.bk.Do("POST", path+"/report-messages", map[string]any{"text": "Terima kasih, kami tindak lanjuti."}).Want(http.StatusCreated)
		var v api.PublicReportView
		anon.Do("POST", "/api/v1/public/reports/lookup", map[string]any{"code": rec.Code, "pin": rec.PIN}).Want(http.StatusOK).JSON(&v)
		if v.Status != "received" || len(v.Messages) != 1 || v.Messages[0].Sender != "school" {
			t.Errorf("view %+v", v)
		}
		anon.Do("POST", "/api/v1/public/reports/messages", map[string]any{"code": rec.Code, "pin": rec.PIN, "text": "Kejadiannya sore hari"}).Want(http.StatusCreated).JSON(&v)
		if len(v.Messages) != 2 || v.Messages[1].Sender != "reporter" {
			t.Errorf("after message %+v", v.Messages)
		}
	})
	t.Run("ErrGuessingLocks", func(t *testing.T) {
		e := anon.Do("POST", "/api/v1/public/reports/lookup", map[string]any{"code": "AAAAAAAAAA", "pin": "000000"}).Want(http.StatusNotFound).Err()
		e2 := anon.Do("POST", "/api/v1/public/reports/lookup", map[string]any{"code": rec.Code, "pin": "99999x"}).Want(http.StatusNotFound).Err()
		if e.Error.Message != e2.Error.Message {
			t.Errorf("unknown code and wrong PIN differ: %q / %q", e.Error.Message, e2.Error.Message)
		}
		for range 4 {
			anon.Do("POST", "/api/v1/public/reports/lookup", map[string]any{"code": rec.Code, "pin": "99999x"}).Want(http.StatusNotFound)
		}
		anon.Do("POST", "/api/v1/public/reports/lookup", map[string]any{"code": rec.Code, "pin": rec.PIN}).Want(http.StatusTooManyRequests)
	})
	t.Run("ErrRateLimited", func(t *testing.T) {
		for range 4 {
			anon.Do("POST", "/api/v1/public/reports", map[string]any{"category_id": 1, "description": "x"}).Want(http.StatusCreated)
		}
		anon.Do("POST", "/api/v1/public/reports", map[string]any{"category_id": 1, "description": "x"}).Want(http.StatusTooManyRequests)
	})
}

// A report tells the people who triage it — the new case's team (the
// active counselors) and the administrators — once each, by case number
// and category only; a homeroom teacher, a leader outside the team and an
// inactive counselor get nothing.
func TestPublicReportNotifies(t *testing.T) {
	s := setup(t)
	bk2, waka, gone := s.env.As(perm.BK), s.env.As(perm.Waka), s.env.As(perm.BK)
	_, err := s.env.DB.Exec(`UPDATE users SET active = false WHERE id = $1`, gone.UserID)
	must(t, err)
	s.env.Anonymous().Do("POST", "/api/v1/public/reports", map[string]any{"category_id": 1, "description": "Rahasia uraian", "name": "Nama Pelapor"}).
		Want(http.StatusCreated)
	var caseID int64
	var category string
	must(t, s.env.DB.Get(&caseID, `SELECT max(case_id) FROM case_reports`))
	must(t, s.env.DB.Get(&category, `SELECT name FROM case_categories WHERE id = 1`))
	list := func(c *apitest.Client, lang string) []api.Notification {
		var page api.Page[api.Notification]
		c.Do("GET", "/api/v1/notifications", nil, "Accept-Language", lang).Want(http.StatusOK).JSON(&page)
		return page.Data
	}
	for _, c := range []*apitest.Client{s.bk, bk2, s.admin} {
		got := list(c, "id")
		if len(got) != 1 || got[0].Kind != api.NotificationCaseReport || got[0].URL != "/kasus/"+itoa(caseID) ||
			got[0].Title != "Laporan anonim baru #"+itoa(caseID) || !strings.Contains(got[0].Body, category) {
			t.Fatalf("user %d: %+v", c.UserID, got)
		}
		if b, _ := json.Marshal(got[0]); strings.Contains(string(b), "Nama Pelapor") || strings.Contains(string(b), "Rahasia") {
			t.Errorf("the notification reveals the report: %s", b)
		}
	}
	if en := list(s.bk, "en"); en[0].Title != "New anonymous report #"+itoa(caseID) {
		t.Errorf("en: %q", en[0].Title)
	}
	for _, c := range []*apitest.Client{s.waliA, waka} {
		if got := list(c, "id"); len(got) != 0 {
			t.Errorf("user %d notified: %+v", c.UserID, got)
		}
	}
	var n int
	must(t, s.env.DB.Get(&n, `SELECT count(*) FROM notifications WHERE kind = 'case_report'`))
	if n != 3 {
		t.Errorf("%d notifications, want 3 (two counselors, one admin)", n)
	}
}
