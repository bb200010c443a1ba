package portal_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/jpeg"
	"mime/multipart"
	"testing"
	"time"

	"github.com/tatib/tatib/server/internal/attendance"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"

	"github.com/jmoiron/sqlx"
)

// push stores entries as the journal does, in its own transaction.
func (f *family) push(t *testing.T, date string, status string, hours ...int) api.AttendanceResult {
	t.Helper()
	var entries []attendance.Entry
	for _, h := range hours {
		entries = append(entries, attendance.Entry{StudentID: f.student, Date: date, LessonHour: h, Status: status})
	}
	var res api.AttendanceResult
	err := pg.InTx(context.Background(), f.env.DB, func(tx *sqlx.Tx) error {
		var err error
		res, err = attendance.ApplyTx(context.Background(), tx, entries, attendance.Origin{Journal: true, Actor: audit.Actor{Name: "journal"}})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func (f *family) count(t *testing.T, q string, args ...any) int {
	t.Helper()
	var n int
	if err := f.env.DB.Get(&n, q, args...); err != nil {
		t.Fatal(err)
	}
	return n
}

// The absence loop: the guardian asks, the homeroom teacher approves, the
// hours become S set by the excuse, the automatic alpha goes, and a later
// journal A (and its replay) leaves S standing.
func TestExcuseLoop(t *testing.T) {
	f := newFamily(t, true)
	g := f.guardian(t, parentPhone)
	today := time.Now().In(time.FixedZone("WIB", 7*3600))
	if today.Weekday() == time.Sunday {
		today = today.AddDate(0, 0, -1)
	}
	day := today.Format(time.DateOnly)
	wali := f.env.As(perm.WaliKelas)
	if _, err := f.env.DB.Exec(`UPDATE classes SET homeroom_teacher_id = $1 WHERE id = $2`, wali.UserID, f.school.Class); err != nil {
		t.Fatal(err)
	}
	// The journal had the child absent for hours 1-2: an automatic alpha.
	f.push(t, day, "A", 1, 2)
	if n := f.count(t, `SELECT count(*) FROM violations WHERE student_id = $1 AND auto_kind = 'alpha'`, f.student); n != 1 {
		t.Fatalf("%d alpha violations before the excuse", n)
	}

	path := "/api/v1/portal/children/" + itoa(f.student) + "/excuses"
	t.Run("ErrInvalid", func(t *testing.T) {
		e := g.Do("POST", path, api.ExcuseInput{Kind: "libur", From: day, To: today.AddDate(0, 0, 1).Format(time.DateOnly), LessonHours: []int{1, 99}}).Want(422).Err()
		for _, k := range []string{"kind", "lesson_hours", "reason"} {
			if e.Error.Fields[k] == "" {
				t.Errorf("no field error for %s: %+v", k, e.Error.Fields)
			}
		}
	})
	var ex api.Excuse
	g.Do("POST", path, api.ExcuseInput{Kind: "sakit", From: day, To: day, LessonHours: []int{1, 2}, Reason: "Demam"}).Want(201).JSON(&ex)

	var pending struct{ Data []api.Excuse }
	wali.Do("GET", "/api/v1/excuses?status=pending", nil).Want(200).JSON(&pending)
	if len(pending.Data) != 1 || pending.Data[0].ID != ex.ID {
		t.Fatalf("pending %+v", pending.Data)
	}
	// Another class's homeroom teacher sees nothing and decides nothing.
	other := f.env.As(perm.WaliKelas)
	if _, err := f.env.DB.Exec(`INSERT INTO classes (name, grade, homeroom_teacher_id) VALUES ('X-9', 10, $1)`, other.UserID); err != nil {
		t.Fatal(err)
	}
	other.Do("GET", "/api/v1/excuses", nil).Want(200).JSON(&pending)
	if len(pending.Data) != 0 {
		t.Fatalf("another class sees %+v", pending.Data)
	}
	other.Do("POST", fmt.Sprintf("/api/v1/excuses/%d/approve", ex.ID), nil).Want(404)

	var dec api.ExcuseDecision
	wali.Do("POST", fmt.Sprintf("/api/v1/excuses/%d/approve", ex.ID), nil).Want(200).JSON(&dec)
	if dec.Excuse.Status != api.ExcuseApproved || dec.Attendance.Updated != 2 || dec.Attendance.ViolationsRemoved != 1 {
		t.Fatalf("%+v", dec)
	}
	cells := func() string {
		var s string
		if err := f.env.DB.Get(&s, `SELECT string_agg(status || ':' || set_by || ':' || COALESCE(updated_by::text, ''), ',' ORDER BY lesson_hour)
			FROM attendance WHERE student_id = $1 AND date = $2`, f.student, day); err != nil {
			t.Fatal(err)
		}
		return s
	}
	want := fmt.Sprintf("S:excuse:%d,S:excuse:%d", wali.UserID, wali.UserID)
	if got := cells(); got != want {
		t.Fatalf("cells %s, want %s", got, want)
	}
	if n := f.count(t, `SELECT count(*) FROM violations WHERE student_id = $1 AND auto_kind = 'alpha'`, f.student); n != 0 {
		t.Fatalf("%d alpha violations after approval", n)
	}
	if n := f.count(t, `SELECT count(*) FROM parent_messages WHERE event = 'excuse' AND excuse_id = $1 AND phone = $2`, ex.ID, parentPhone); n != 1 {
		t.Fatalf("%d decision messages", n)
	}
	wali.Do("POST", fmt.Sprintf("/api/v1/excuses/%d/approve", ex.ID), nil).Want(409)

	// A later journal A, and its replay, leave S standing.
	for i := range 2 {
		res := f.push(t, day, "A", 1, 2)
		if res.KeptByPerson != 2 || res.ViolationsCreated != 0 {
			t.Fatalf("push %d: %+v", i+1, res)
		}
	}
	if got := cells(); got != want {
		t.Fatalf("after the push: %s", got)
	}

	t.Run("Refuse", func(t *testing.T) {
		var ex2 api.Excuse
		g.Do("POST", path, api.ExcuseInput{Kind: "izin", From: day, Reason: "Acara keluarga"}).Want(201).JSON(&ex2)
		wali.Do("POST", fmt.Sprintf("/api/v1/excuses/%d/refuse", ex2.ID), api.ExcuseRefusal{}).Want(422)
		var out api.Excuse
		wali.Do("POST", fmt.Sprintf("/api/v1/excuses/%d/refuse", ex2.ID), api.ExcuseRefusal{Reason: "Tidak ada surat"}).Want(200).JSON(&out)
		if out.Status != api.ExcuseRefused || out.RefusalReason != "Tidak ada surat" {
			t.Fatalf("%+v", out)
		}
		var mine struct{ Data []api.Excuse }
		g.Do("GET", path, nil).Want(200).JSON(&mine)
		if len(mine.Data) != 2 || mine.Data[0].Status != api.ExcuseRefused || mine.Data[1].DecidedByName == "" {
			t.Fatalf("%+v", mine.Data)
		}
	})
	t.Run("ErrOtherFamily404", func(t *testing.T) {
		sari := f.school.Student(t, "Sari Lestari", "Bu Lestari", "0812-9999-8888")
		other := f.guardian(t, "081299998888")
		other.Do("GET", path, nil).Want(404)
		other.Do("POST", path, api.ExcuseInput{Kind: "sakit", From: day, Reason: "x"}).Want(404)
		other.Do("GET", "/api/v1/portal/children/"+itoa(sari)+"/excuses", nil).Want(200)
	})
}

// A doctor's note rides along as multipart; staff of the class open it.
func TestExcusePhoto(t *testing.T) {
	f := newFamily(t, true)
	g := f.guardian(t, parentPhone)
	day := time.Now().In(time.FixedZone("WIB", 7*3600)).Format(time.DateOnly)
	var img bytes.Buffer
	if err := jpeg.Encode(&img, image.NewRGBA(image.Rect(0, 0, 40, 30)), nil); err != nil {
		t.Fatal(err)
	}
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	data, _ := json.Marshal(api.ExcuseInput{Kind: "sakit", From: day, Reason: "Surat dokter"})
	if err := mw.WriteField("data", string(data)); err != nil {
		t.Fatal(err)
	}
	pw, _ := mw.CreateFormFile("photos", "surat.jpg")
	_, _ = pw.Write(img.Bytes())
	_ = mw.Close()
	var ex api.Excuse
	g.Do("POST", "/api/v1/portal/children/"+itoa(f.student)+"/excuses", &body, "Content-Type", mw.FormDataContentType()).Want(201).JSON(&ex)
	if ex.Photos != 1 {
		t.Fatalf("%+v", ex)
	}
	bk := f.env.As(perm.BK)
	res := bk.Do("GET", fmt.Sprintf("/api/v1/excuses/%d/photos/1", ex.ID), nil).Want(200)
	if res.Header.Get("Content-Type") != "image/jpeg" || len(res.Body) == 0 {
		t.Fatalf("%v", res.Header)
	}
	bk.Do("GET", fmt.Sprintf("/api/v1/excuses/%d/photos/2", ex.ID), nil).Want(404)
	g.Do("GET", fmt.Sprintf("/api/v1/excuses/%d/photos/1", ex.ID), nil).Want(401)
}
