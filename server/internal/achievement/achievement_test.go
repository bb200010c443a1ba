package achievement_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/jpeg"
	"mime/multipart"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/server/internal/parentmsg"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

// school: class A (homeroom teacher wali) and class B, two students in A,
// one in B, a type that applies at school and province level.
type school struct {
	env          *apitest.Env
	bk, wali     *apitest.Client
	a1, a2, b1   int64
	classA       int64
	typeID, cat  int64
	typeSchoolID int64
}

func newSchool(t *testing.T) *school {
	t.Helper()
	env := apitest.New(t)
	s := &school{env: env, bk: env.As(perm.BK), wali: env.As(perm.WaliKelas)}
	var classB int64
	must(t, env.DB.Get(&s.classA, `INSERT INTO classes (name, grade, homeroom_teacher_id) VALUES ('X A', 10, $1) RETURNING id`, s.wali.UserID))
	must(t, env.DB.Get(&classB, `INSERT INTO classes (name, grade) VALUES ('X B', 10) RETURNING id`))
	for i, p := range []struct {
		dst   *int64
		class int64
	}{{&s.a1, s.classA}, {&s.a2, s.classA}, {&s.b1, classB}} {
		must(t, env.DB.Get(p.dst, `INSERT INTO students (source_id, nisn, nis, full_name, class_id) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
			900+i, fmt.Sprintf("99%08d", i), fmt.Sprint(900+i), fmt.Sprintf("Siswa %d", i), p.class))
	}
	must(t, env.DB.Get(&s.cat, `SELECT id FROM achievement_categories WHERE name = 'Akademik'`))
	var ty api.AchievementType
	s.bk.Do("POST", "/api/v1/achievement-types", map[string]any{"category_id": s.cat, "name": "Olimpiade Matematika",
		"points": map[string]any{"sekolah": 10, "provinsi": 30}}).Want(201).JSON(&ty)
	s.typeID = ty.ID
	return s
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestTypes(t *testing.T) {
	s := newSchool(t)
	t.Run("ErrPointsRequired", func(t *testing.T) {
		e := s.bk.Do("POST", "/api/v1/achievement-types", map[string]any{"category_id": s.cat, "name": "Tanpa poin", "points": map[string]any{}}).Want(422).Err()
		if e.Error.FieldCodes["points"].Code != "achievement.type.points_required" {
			t.Fatalf("%+v", e)
		}
	})
	t.Run("ErrNameTaken", func(t *testing.T) {
		e := s.bk.Do("POST", "/api/v1/achievement-types", map[string]any{"category_id": s.cat, "name": "olimpiade  matematika", "points": map[string]any{"sekolah": 1}}).Want(422).Err()
		if e.Error.FieldCodes["name"].Code != "achievement.type.name_exists" {
			t.Fatalf("%+v", e)
		}
	})
	t.Run("Forbidden", func(t *testing.T) {
		s.env.As(perm.Staff).Do("POST", "/api/v1/achievement-types", map[string]any{"category_id": s.cat, "name": "X", "points": map[string]any{"sekolah": 1}}).Want(403)
		s.env.As(perm.Other).Do("GET", "/api/v1/achievement-types", nil).Want(403)
	})
	t.Run("ListAndPatch", func(t *testing.T) {
		var l api.AchievementTypeList
		s.env.As(perm.Staff).Do("GET", "/api/v1/achievement-types", nil).Want(200).JSON(&l)
		if len(l.Data) != 1 || *l.Data[0].Points.Provinsi != 30 || l.Data[0].Points.Nasional != nil || len(l.Categories) != 5 {
			t.Fatalf("%+v", l)
		}
		var ty api.AchievementType
		s.bk.Do("PATCH", fmt.Sprintf("/api/v1/achievement-types/%d", s.typeID), map[string]any{"active": false}).Want(200).JSON(&ty)
		if ty.Active || *ty.Points.Sekolah != 10 {
			t.Fatalf("%+v", ty)
		}
		s.bk.Do("PATCH", fmt.Sprintf("/api/v1/achievement-types/%d", s.typeID), map[string]any{"active": true}).Want(200)
	})
}

func sheet(t *testing.T, rows ...[]any) []byte {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	for i, r := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		must(t, f.SetSheetRow("Sheet1", cell, &r))
	}
	var b bytes.Buffer
	must(t, f.Write(&b))
	return b.Bytes()
}

func upload(t *testing.T, c *apitest.Client, path string, data []byte) *apitest.Response {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, err := mw.CreateFormFile("file", "prestasi.xlsx")
	must(t, err)
	_, _ = fw.Write(data)
	must(t, mw.Close())
	return c.Do("POST", path, &body, "Content-Type", mw.FormDataContentType())
}

func TestImport(t *testing.T) {
	s := newSchool(t)
	file := sheet(t,
		[]any{"Kategori", "Nama", "Sekolah", "Kabupaten/Kota", "Provinsi", "Nasional", "Internasional", "Deskripsi"},
		[]any{"Akademik", "Contoh: Olimpiade", 1, "", "", "", "", ""},
		[]any{"Akademik", "Olimpiade Matematika", 10, "", "", "", "", ""}, // already there
		[]any{"Non-akademik", "Lomba Pidato", 5, 10, 20, "", "", "antar sekolah"},
		[]any{"Non-akademik", "lomba pidato", 5, "", "", "", "", ""}, // twice in the file
		[]any{"Olahraga", "Lari", 5, "", "", "", "", ""},             // no such category
		[]any{"Akademik", "Cerdas Cermat", "banyak", "", "", "", "", ""},
	)
	var res api.AchievementImportResult
	upload(t, s.bk, "/api/v1/achievement-types/import?dry_run=1", file).Want(200).JSON(&res)
	if !res.DryRun || len(res.Created) != 1 || len(res.Skipped) != 2 || len(res.Rejected) != 2 {
		t.Fatalf("preview %+v", res)
	}
	var n int
	must(t, s.env.DB.Get(&n, `SELECT count(*) FROM achievement_types`))
	if n != 1 {
		t.Fatalf("the preview saved: %d types", n)
	}
	upload(t, s.bk, "/api/v1/achievement-types/import", file).Want(200).JSON(&res)
	must(t, s.env.DB.Get(&n, `SELECT count(*) FROM achievement_types WHERE name = 'Lomba Pidato' AND points_provinsi = 20 AND points_nasional IS NULL`))
	if res.DryRun || n != 1 || res.Rejected[0].Code != "achievement.import.category_unknown" {
		t.Fatalf("import %+v, %d", res, n)
	}
	e := upload(t, s.bk, "/api/v1/achievement-types/import", sheet(t, []any{"Nama", "Poin"}, []any{"x", 1})).Want(422).Err()
	if e.Error.MessageCode != "achievement.import.headers_missing" {
		t.Fatalf("%+v", e)
	}
	upload(t, s.wali, "/api/v1/achievement-types/import", file).Want(403)
	s.bk.Do("GET", "/api/v1/achievement-types/import-template", nil).Want(200)
}

func TestRecordTeamAndVerify(t *testing.T) {
	s := newSchool(t)
	body := func(ids ...int64) map[string]any {
		return map[string]any{"student_ids": ids, "type_id": s.typeID, "level": "provinsi", "achieved_on": "2025-09-10", "description": "Juara 1 beregu"}
	}
	var a api.Achievement
	s.bk.Do("POST", "/api/v1/achievements", body(s.a1, s.a2, s.b1)).Want(201).JSON(&a)
	if len(a.Students) != 3 || a.Points != 30 || a.Level != "provinsi" || a.VerifiedAt != nil || a.RecordedByName == "" {
		t.Fatalf("%+v", a)
	}
	t.Run("ErrLevelNotForType", func(t *testing.T) {
		b := body(s.a1)
		b["level"] = "nasional"
		if e := s.bk.Do("POST", "/api/v1/achievements", b).Want(422).Err(); e.Error.FieldCodes["level"].Code != "achievement.level.not_for_type" {
			t.Fatalf("%+v", e)
		}
	})
	t.Run("HomeroomOwnClassOnly", func(t *testing.T) {
		if e := s.wali.Do("POST", "/api/v1/achievements", body(s.a1, s.b1)).Want(403).Err(); e.Error.MessageCode != "achievement.student.not_your_class" {
			t.Fatalf("%+v", e)
		}
		var own api.Achievement
		s.wali.Do("POST", "/api/v1/achievements", body(s.a1)).Want(201).JSON(&own)
		var onlyB api.Achievement
		s.bk.Do("POST", "/api/v1/achievements", body(s.b1)).Want(201).JSON(&onlyB)
		s.wali.Do("GET", fmt.Sprintf("/api/v1/achievements/%d", onlyB.ID), nil).Want(404)
		var l struct {
			Data []api.Achievement `json:"data"`
			Meta api.PageMeta      `json:"meta"`
		}
		s.wali.Do("GET", "/api/v1/achievements", nil).Want(200).JSON(&l)
		if len(l.Data) != 2 {
			t.Fatalf("homeroom list %+v", l.Data)
		}
		for _, x := range l.Data {
			for _, st := range x.Students {
				if st.ID == s.b1 {
					t.Fatalf("a student of another class listed: %+v", x)
				}
			}
		}
		// The dashboard counts the same achievements beside the violations.
		var d api.Dashboard
		s.wali.Do("GET", "/api/v1/dashboard", nil).Want(200).JSON(&d)
		if d.Achievements == nil || d.Achievements.Awaiting.Count != 2 {
			t.Fatalf("homeroom dashboard %+v", d.Achievements)
		}
		s.bk.Do("GET", "/api/v1/dashboard", nil).Want(200).JSON(&d)
		if d.Achievements == nil || d.Achievements.Awaiting.Count != 3 {
			t.Fatalf("counselor dashboard %+v", d.Achievements)
		}
	})
	t.Run("Verify", func(t *testing.T) {
		s.wali.Do("POST", fmt.Sprintf("/api/v1/achievements/%d/verify", a.ID), nil).Want(403)
		s.env.As(perm.Staff).Do("POST", "/api/v1/achievements", body(s.a1)).Want(403)
		var v api.Achievement
		s.bk.Do("POST", fmt.Sprintf("/api/v1/achievements/%d/verify", a.ID), nil).Want(200).JSON(&v)
		if v.VerifiedAt == nil || v.VerifiedByName == "" {
			t.Fatalf("%+v", v)
		}
		s.bk.Do("POST", fmt.Sprintf("/api/v1/achievements/%d/verify", a.ID), nil).Want(200)
		var n int
		must(t, s.env.DB.Get(&n, `SELECT count(*) FROM audit_log WHERE action = 'achievement.verify'`))
		if n != 1 {
			t.Fatalf("verify audited %d times", n)
		}
	})
	t.Run("Certificate", func(t *testing.T) {
		text := pdfText(t, s.bk.Do("GET", fmt.Sprintf("/api/v1/achievements/%d/certificate.pdf", a.ID), nil).Want(200).Body)
		flat := strings.Join(strings.Fields(text), " ")
		if strings.Count(text, "PIAGAM PENGHARGAAN") != 3 || !strings.Contains(flat, "Siswa 2") ||
			!strings.Contains(flat, "Olimpiade Matematika") || !strings.Contains(flat, "Tingkat Provinsi") {
			t.Fatalf("certificate:\n%s", text)
		}
		// A homeroom teacher gets their own class's members of the team only.
		text = pdfText(t, s.wali.Do("GET", fmt.Sprintf("/api/v1/achievements/%d/certificate.pdf", a.ID), nil).Want(200).Body)
		if strings.Count(text, "PIAGAM PENGHARGAAN") != 2 || strings.Contains(text, "Siswa 2") {
			t.Fatalf("homeroom certificate:\n%s", text)
		}
		var unverified api.Achievement
		s.bk.Do("POST", "/api/v1/achievements", body(s.a1)).Want(201).JSON(&unverified)
		s.bk.Do("GET", fmt.Sprintf("/api/v1/achievements/%d/certificate.pdf", unverified.ID), nil).Want(409)
	})
	t.Run("Export", func(t *testing.T) {
		rows := func(c *apitest.Client) [][]string {
			f, err := excelize.OpenReader(bytes.NewReader(c.Do("GET", "/api/v1/achievements/export", nil).Want(200).Body))
			must(t, err)
			defer f.Close()
			r, err := f.GetRows(f.GetSheetList()[0])
			must(t, err)
			return r
		}
		all, own := rows(s.bk), rows(s.wali)
		for _, r := range own {
			if slices.Contains(r, "Siswa 2") {
				t.Fatalf("a student of another class exported: %v", r)
			}
		}
		if len(own) < 3 || len(all) <= len(own) || all[0][0] != "Tanggal" {
			t.Fatalf("export: %d rows for the counselor, %d for the homeroom teacher", len(all), len(own))
		}
	})
	t.Run("TypeInUse", func(t *testing.T) {
		s.bk.Do("DELETE", fmt.Sprintf("/api/v1/achievement-types/%d", s.typeID), nil).Want(409)
	})
}

func TestRecordWithPhoto(t *testing.T) {
	s := newSchool(t)
	var pic bytes.Buffer
	must(t, jpeg.Encode(&pic, image.NewRGBA(image.Rect(0, 0, 40, 30)), nil))
	data, _ := json.Marshal(map[string]any{"student_ids": []int64{s.a1}, "type_id": s.typeID, "level": "sekolah", "achieved_on": "2025-09-10"})
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	must(t, mw.WriteField("data", string(data)))
	fw, err := mw.CreateFormFile("photos", "piala.jpg")
	must(t, err)
	_, _ = fw.Write(pic.Bytes())
	must(t, mw.Close())
	var a api.Achievement
	s.bk.Do("POST", "/api/v1/achievements", &body, "Content-Type", mw.FormDataContentType()).Want(201).JSON(&a)
	if len(a.Photos) != 1 {
		t.Fatalf("%+v", a)
	}
	s.wali.Do("GET", a.Photos[0].ThumbnailURL, nil).Want(200)
	s.env.As(perm.Staff).Do("GET", a.Photos[0].URL, nil).Want(403)
}

// pdfText is pdftotext's reading of pdf.
func pdfText(t *testing.T, pdf []byte) string {
	t.Helper()
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Skip("pdftotext not installed (poppler-utils)")
	}
	path := filepath.Join(t.TempDir(), "x.pdf")
	must(t, os.WriteFile(path, pdf, 0o600))
	out, err := exec.Command("pdftotext", "-enc", "UTF-8", path, "-").CombinedOutput()
	if err != nil {
		t.Fatalf("pdftotext: %v: %s", err, out)
	}
	return string(out)
}

// Verifying queues one message per student of the achievement, when the
// school's achievement event is on; switched off, none.
func TestParentMessageOnVerify(t *testing.T) {
	s := newSchool(t)
	set := parentmsg.Defaults()
	set.Gateway = parentmsg.Gateway{Kind: "webhook", BaseURL: "http://127.0.0.1:9/"}
	b, _ := json.Marshal(set)
	_, err := s.env.DB.Exec(`INSERT INTO settings (key, value) VALUES ($1, $2)`, parentmsg.SettingsKey, string(b))
	must(t, err)
	_, err = s.env.DB.Exec(`UPDATE students SET parent_phone = '081234567890'`)
	must(t, err)
	record := func() int64 {
		var a api.Achievement
		s.bk.Do("POST", "/api/v1/achievements", map[string]any{"student_ids": []int64{s.a1, s.a2}, "type_id": s.typeID, "level": "provinsi",
			"achieved_on": "2025-09-10"}).Want(201).JSON(&a)
		s.bk.Do("POST", fmt.Sprintf("/api/v1/achievements/%d/verify", a.ID), nil).Want(200)
		return a.ID
	}
	first := record()
	var bodies []string
	must(t, s.env.DB.Select(&bodies, `SELECT body FROM parent_messages WHERE event = 'achievement' AND achievement_id = $1`, first))
	if len(bodies) != 2 || !strings.Contains(bodies[0], "Olimpiade Matematika") || !strings.Contains(bodies[0], "tingkat Provinsi") {
		t.Fatalf("messages %q", bodies)
	}
	set.Events.Achievement.Enabled = false
	b, _ = json.Marshal(set)
	_, err = s.env.DB.Exec(`UPDATE settings SET value = $2 WHERE key = $1`, parentmsg.SettingsKey, string(b))
	must(t, err)
	second := record()
	var n int
	must(t, s.env.DB.Get(&n, `SELECT count(*) FROM parent_messages WHERE achievement_id = $1`, second))
	if n != 0 {
		t.Fatalf("switched off, %d messages", n)
	}
}

// A term certificate: one PDF per student and semester listing the
// student's verified achievements of that semester only; homeroom-scoped;
// 409 for a semester without one; 403 without achievements.view.
func TestTermCertificate(t *testing.T) {
	s := newSchool(t)
	record := func(student int64, day, desc string, verify bool) {
		var a api.Achievement
		s.bk.Do("POST", "/api/v1/achievements", map[string]any{"student_ids": []int64{student}, "type_id": s.typeID, "level": "sekolah",
			"achieved_on": day, "description": desc}).Want(201).JSON(&a)
		if verify {
			s.bk.Do("POST", fmt.Sprintf("/api/v1/achievements/%d/verify", a.ID), nil).Want(200)
		}
	}
	record(s.a1, "2025-09-10", "Juara satu September", true)
	record(s.a1, "2025-11-02", "Juara dua November", true)
	record(s.a1, "2025-12-01", "Belum diverifikasi", false)
	record(s.a1, "2026-02-10", "Juara Februari", true)
	record(s.b1, "2025-10-10", "Juara kelas B", true)
	path := func(id int64, q string) string {
		return fmt.Sprintf("/api/v1/students/%d/achievements/certificate.pdf?%s", id, q)
	}

	flat := strings.Join(strings.Fields(pdfText(t, s.bk.Do("GET", path(s.a1, "year=2025&semester=1"), nil).Want(200).Body)), " ")
	for _, want := range []string{"PIAGAM PENGHARGAAN", "Siswa 0", "Semester 1 (Ganjil) Tahun Ajaran 2025/2026", "1. Olimpiade Matematika",
		"2. Olimpiade Matematika", "Juara satu September", "Juara dua November", "Tingkat Sekolah", "Kelas X A"} {
		if !strings.Contains(flat, want) {
			t.Fatalf("semester 1 lacks %q:\n%s", want, flat)
		}
	}
	if strings.Contains(flat, "Belum diverifikasi") || strings.Contains(flat, "Februari") || strings.Contains(flat, "3. ") {
		t.Fatalf("semester 1 lists another term's or an unverified achievement:\n%s", flat)
	}
	flat = strings.Join(strings.Fields(pdfText(t, s.wali.Do("GET", path(s.a1, "year=2025/2026&semester=2"), nil).Want(200).Body)), " ")
	if !strings.Contains(flat, "Semester 2 (Genap)") || !strings.Contains(flat, "Juara Februari") || strings.Contains(flat, "September") {
		t.Fatalf("semester 2:\n%s", flat)
	}

	s.bk.Do("GET", path(s.a1, "year=2024&semester=1"), nil).Want(409)
	s.wali.Do("GET", path(s.b1, "year=2025&semester=1"), nil).Want(404) // another class's student
	s.wali.Do("GET", path(999999, "year=2025&semester=1"), nil).Want(404)
	s.env.As(perm.Other).Do("GET", path(s.a1, "year=2025&semester=1"), nil).Want(403)
	if e := s.bk.Do("GET", path(s.a1, "year=20x5&semester=3"), nil).Want(422).Err(); e.Error.Fields["year"] == "" || e.Error.Fields["semester"] == "" {
		t.Fatalf("%+v", e)
	}
}
