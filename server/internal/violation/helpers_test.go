package violation_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/server/internal/violationtype"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

// school is a small school: class A (with its homeroom teacher) and class
// B, a student in each, and violation types of 10, 40, 60 and 100 points.
type school struct {
	env              *apitest.Env
	bk               *apitest.Client
	wali             *apitest.Client // homeroom teacher of class A
	classA, classB   int64
	inA, inB         int64 // students
	t10, t40, t60    int64 // types by points
	t100, inactive   int64
	alpha            int64
	typeSlugSequence int
}

func newSchool(t testing.TB) *school {
	t.Helper()
	return newSchoolOn(t, apitest.New(t))
}

// newSchoolOn is newSchool on env (e.g. one whose database counts round
// trips).
func newSchoolOn(t testing.TB, env *apitest.Env) *school {
	t.Helper()
	if err := violationtype.Boot(context.Background(), env.Deps); err != nil {
		t.Fatal(err)
	}
	s := &school{env: env, bk: env.As(perm.BK), wali: env.As(perm.WaliKelas)}
	var dept int64
	must(t, env.DB.Get(&dept, `INSERT INTO departments (code, name) VALUES ('IPA', 'Ilmu Pengetahuan Alam') RETURNING id`))
	must(t, env.DB.Get(&s.classA, `INSERT INTO classes (name, grade, department_id, homeroom_teacher_id) VALUES ('X IPA 1', 10, $1, $2) RETURNING id`, dept, s.wali.UserID))
	must(t, env.DB.Get(&s.classB, `INSERT INTO classes (name, grade, department_id) VALUES ('X IPA 2', 10, $1) RETURNING id`, dept))
	s.inA = s.student(t, s.classA)
	s.inB = s.student(t, s.classB)
	s.t10 = s.newType(t, 10, true)
	s.t40 = s.newType(t, 40, true)
	s.t60 = s.newType(t, 60, true)
	s.t100 = s.newType(t, 100, true)
	s.inactive = s.newType(t, 5, false)
	must(t, env.DB.Get(&s.alpha, `SELECT id FROM violation_types WHERE slug = 'alpha'`))
	return s
}

// studentSeq numbers the students tests create; parallel tests share it.
var studentSeq atomic.Int64

func (s *school) student(t testing.TB, class int64) int64 {
	t.Helper()
	n := 100 + studentSeq.Add(1)
	var id int64
	must(t, s.env.DB.Get(&id, `INSERT INTO students (source_id, nisn, nis, full_name, class_id) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
		n, fmt.Sprintf("00%08d", n), strconv.FormatInt(n, 10), fmt.Sprintf("Siswa %d", n), class))
	return id
}

func (s *school) newType(t testing.TB, points int, active bool) int64 {
	t.Helper()
	s.typeSlugSequence++
	var id int64
	must(t, s.env.DB.Get(&id, `INSERT INTO violation_types (name, slug, points, category_id, default_sanction, active)
		VALUES ($1, $2, $3, (SELECT id FROM violation_categories ORDER BY id LIMIT 1), $4, $5) RETURNING id`,
		fmt.Sprintf("Jenis %d poin %d", points, s.typeSlugSequence), fmt.Sprintf("jenis-%d", s.typeSlugSequence), points,
		fmt.Sprintf("Sanksi bawaan %d", points), active))
	return id
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func record(t testing.TB, c *apitest.Client, student int64, types ...int64) api.CreateViolationsResponse {
	t.Helper()
	var out api.CreateViolationsResponse
	c.Do("POST", "/api/v1/violations", map[string]any{"student_id": student, "type_ids": types, "location": "Kantin"}).
		Want(http.StatusCreated).JSON(&out)
	return out
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// multipartBody builds a recording with photos (name → bytes, in order).
func multipartBody(t testing.TB, req map[string]any, photos ...namedFile) (*bytes.Buffer, string) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	data, _ := json.Marshal(req)
	must(t, mw.WriteField("data", string(data)))
	for _, p := range photos {
		h := textproto.MIMEHeader{}
		h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="photos"; filename=%q`, p.name))
		h.Set("Content-Type", "image/jpeg")
		w, err := mw.CreatePart(h)
		must(t, err)
		_, _ = w.Write(p.data)
	}
	must(t, mw.Close())
	return &buf, mw.FormDataContentType()
}

type namedFile struct {
	name string
	data []byte
}

// testJPEG encodes a w×h picture whose left half is red and right half
// blue (so a rotation is visible).
func testJPEG(t testing.TB, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := color.RGBA{220, 20, 20, 255}
			if x >= w/2 {
				c = color.RGBA{20, 20, 220, 255}
			}
			img.Set(x, y, c)
		}
	}
	var b bytes.Buffer
	must(t, jpeg.Encode(&b, img, &jpeg.Options{Quality: 90}))
	return b.Bytes()
}

// withExif splices an APP1 Exif segment right after SOI: IFD0 with the
// orientation and a GPS IFD pointer; the GPS IFD holds a latitude
// reference and the segment carries a recognisable secret.
func withExif(jpg []byte, orientation uint16) []byte {
	var t bytes.Buffer
	be := func(v any) { _ = binaryWrite(&t, v) }
	t.WriteString("MM")
	be(uint16(42))
	be(uint32(8))
	// IFD0: 2 entries at offset 8.
	be(uint16(2))
	be(uint16(0x0112)) // Orientation
	be(uint16(3))      // SHORT
	be(uint32(1))
	be(orientation)
	be(uint16(0))
	gpsOffset := uint32(8 + 2 + 2*12 + 4)
	be(uint16(0x8825)) // GPS IFD pointer
	be(uint16(4))      // LONG
	be(uint32(1))
	be(gpsOffset)
	be(uint32(0)) // no next IFD
	// GPS IFD: one entry, GPSLatitudeRef "S".
	be(uint16(1))
	be(uint16(0x0001))
	be(uint16(2)) // ASCII
	be(uint32(2))
	t.WriteString("S\x00\x00\x00")
	be(uint32(0))
	t.WriteString("GPS-SECRET-LOCATION-6.2S-106.8E")
	payload := append([]byte("Exif\x00\x00"), t.Bytes()...)
	seg := []byte{0xFF, 0xE1, byte((len(payload) + 2) >> 8), byte(len(payload) + 2)}
	out := append([]byte{}, jpg[:2]...)
	out = append(out, seg...)
	out = append(out, payload...)
	return append(out, jpg[2:]...)
}

func binaryWrite(w io.Writer, v any) error { return binary.Write(w, binary.BigEndian, v) }
