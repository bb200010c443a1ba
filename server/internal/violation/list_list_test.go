package violation_test

import (
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/server/internal/violation/vltest"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

func list(t *testing.T, c *apitest.Client, query string) api.Page[api.Violation] {
	t.Helper()
	var p api.Page[api.Violation]
	c.Do("GET", "/api/v1/violations"+query, nil).Want(http.StatusOK).JSON(&p)
	return p
}

func ids(p api.Page[api.Violation]) []int64 {
	out := make([]int64, len(p.Data))
	for i, v := range p.Data {
		out[i] = v.ID
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

func same(a []int64, b ...int64) bool {
	sort.Slice(b, func(i, j int) bool { return b[i] < b[j] })
	return fmt.Sprint(a) == fmt.Sprint(b)
}

// fixture: Budi (class A), Citra (class B, in class A last term), Dedi (class C).
type fixture struct {
	s                                 *vltest.School
	budi, citra, dedi                 int64
	vBudi1, vBudi2, vCitraOld, vCitra int64
	vDedi, vJournal                   int64
}

func newFixture(t *testing.T) fixture {
	s := vltest.New(t)
	f := fixture{s: s}
	f.budi = s.Student("Budi Santoso", "0051234567", "2401", s.ClassA)
	f.citra = s.Student("Citra Lestari", "0057654321", "2402", s.ClassB)
	f.dedi = s.Student("Dedi 100%_Jaya", "0050000001", "2403", s.ClassC)
	day := func(d int, h int) time.Time { return time.Date(2025, 9, d, h, 0, 0, 0, time.UTC) }
	f.vBudi1 = s.Violation(vltest.V{Student: f.budi, At: day(1, 1), Points: 5})
	f.vBudi2 = s.Violation(vltest.V{Student: f.budi, Type: s.TypeHeavy, At: day(3, 2), Points: 40, Verified: true, Status: api.HandlingInProgress})
	// Citra's violation while she was in class A: the class that day.
	f.vCitraOld = s.Violation(vltest.V{Student: f.citra, Class: s.ClassA, At: day(2, 3), Points: 10})
	f.vCitra = s.Violation(vltest.V{Student: f.citra, Type: s.TypeLight2, At: day(5, 4), Points: 2, Status: api.HandlingResolved})
	f.vDedi = s.Violation(vltest.V{Student: f.dedi, At: day(4, 5), Points: 15, RecordedBy: s.TeacherA.UserID})
	// 23:30 UTC on 5 Sep is 6 Sep in Jakarta.
	f.vJournal = s.Violation(vltest.V{Student: f.dedi, Journal: true, At: time.Date(2025, 9, 5, 23, 30, 0, 0, time.UTC), Points: 3})
	return f
}

func TestList(t *testing.T) {
	f := newFixture(t)
	s := f.s
	all := list(t, s.BK, "")
	if all.Meta.Total != 6 || len(all.Data) != 6 {
		t.Fatalf("all: %+v", all.Meta)
	}
	// Newest first by default.
	if all.Data[0].ID != f.vJournal || all.Data[5].ID != f.vBudi1 {
		t.Errorf("default order %v", ids(all))
	}
	// Joined names.
	var heavy api.Violation
	for _, v := range all.Data {
		if v.ID == f.vBudi2 {
			heavy = v
		}
	}
	if heavy.StudentName != "Budi Santoso" || heavy.ClassName != "X RPL 1" || heavy.DepartmentName != "Rekayasa Perangkat Lunak" ||
		heavy.CategoryName != "Berat" || heavy.CategoryColour == "" || heavy.TypeName == "" || heavy.RecordedByName == "" ||
		heavy.VerifiedByName == "" || heavy.OccurredOn != "2025-09-03" || heavy.Points != 40 {
		t.Errorf("joined names: %+v", heavy)
	}

	cases := []struct {
		name  string
		query url.Values
		want  []int64
	}{
		{"From", url.Values{"from": {"2025-09-04"}}, []int64{f.vDedi, f.vCitra, f.vJournal}},
		{"ToJakartaDay", url.Values{"to": {"2025-09-05"}}, []int64{f.vBudi1, f.vBudi2, f.vCitraOld, f.vDedi, f.vCitra}},
		{"JakartaDayOf2330UTC", url.Values{"from": {"2025-09-06"}, "to": {"2025-09-06"}}, []int64{f.vJournal}},
		{"ClassThatDay", url.Values{"class_id": {fmt.Sprint(s.ClassA)}}, []int64{f.vBudi1, f.vBudi2, f.vCitraOld}},
		{"Department", url.Values{"department_id": {fmt.Sprint(s.DeptTKJ)}}, []int64{f.vCitra, f.vDedi, f.vJournal}},
		{"Grade", url.Values{"grade": {"11"}}, []int64{f.vCitra}},
		{"Category", url.Values{"category_id": {fmt.Sprint(s.CatHeavy)}}, []int64{f.vBudi2}},
		{"Type", url.Values{"type_id": {fmt.Sprint(s.TypeLight2)}}, []int64{f.vCitra}},
		{"Status", url.Values{"handling_status": {"unhandled"}}, []int64{f.vBudi1, f.vCitraOld, f.vDedi, f.vJournal}},
		{"Verified", url.Values{"verified": {"true"}}, []int64{f.vBudi2}},
		{"Unverified", url.Values{"verified": {"false"}}, []int64{f.vBudi1, f.vCitraOld, f.vCitra, f.vDedi, f.vJournal}},
		{"RecorderJournal", url.Values{"recorder": {"journal"}}, []int64{f.vJournal}},
		{"RecorderUser", url.Values{"recorder": {fmt.Sprint(s.TeacherA.UserID)}}, []int64{f.vDedi}},
		{"Student", url.Values{"student_id": {fmt.Sprint(f.citra)}}, []int64{f.vCitraOld, f.vCitra}},
		{"QName", url.Values{"q": {"santoso"}}, []int64{f.vBudi1, f.vBudi2}},
		{"QNISN", url.Values{"q": {"7654"}}, []int64{f.vCitraOld, f.vCitra}},
		{"QNIS", url.Values{"q": {"2403"}}, []int64{f.vDedi, f.vJournal}},
		{"QWildcardsLiteral", url.Values{"q": {"100%_"}}, []int64{f.vDedi, f.vJournal}},
		{"QPercentAlone", url.Values{"q": {"%"}}, []int64{f.vDedi, f.vJournal}},
		{"Combined", url.Values{"class_id": {fmt.Sprint(s.ClassA)}, "handling_status": {"unhandled"}, "from": {"2025-09-02"}}, []int64{f.vCitraOld}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := list(t, s.BK, "?"+c.query.Encode())
			if !same(ids(got), c.want...) || got.Meta.Total != len(c.want) {
				t.Errorf("got %v (total %d), want %v", ids(got), got.Meta.Total, c.want)
			}
		})
	}

	t.Run("SortPoints", func(t *testing.T) {
		p := list(t, s.BK, "?sort=-points")
		if p.Data[0].ID != f.vBudi2 || p.Data[5].ID != f.vCitra {
			t.Errorf("order %v", p.Data)
		}
		p = list(t, s.BK, "?sort=points")
		if p.Data[0].ID != f.vCitra {
			t.Errorf("ascending: first %d", p.Data[0].ID)
		}
	})
	t.Run("SortStudentAndClass", func(t *testing.T) {
		p := list(t, s.BK, "?sort=student")
		if p.Data[0].StudentName != "Budi Santoso" || p.Data[5].StudentName != "Dedi 100%_Jaya" {
			t.Errorf("by student: %s … %s", p.Data[0].StudentName, p.Data[5].StudentName)
		}
		p = list(t, s.BK, "?sort=class")
		if p.Data[0].ClassName != "X RPL 1" || p.Data[5].ClassName != "XI TKJ 1" {
			t.Errorf("by class: %s … %s", p.Data[0].ClassName, p.Data[5].ClassName)
		}
	})
	t.Run("Paging", func(t *testing.T) {
		p := list(t, s.BK, "?per_page=4&page=2")
		if p.Meta.Total != 6 || p.Meta.LastPage != 2 || len(p.Data) != 2 || p.Data[1].ID != f.vBudi1 {
			t.Errorf("page 2: %+v %v", p.Meta, ids(p))
		}
		p = list(t, s.BK, "?per_page=4&page=9")
		if p.Meta.Total != 6 || len(p.Data) != 0 {
			t.Errorf("past the end: %+v", p.Meta)
		}
	})
}

func TestListErrBadFilters(t *testing.T) {
	s := vltest.New(t)
	q := url.Values{
		"from": {"2025-13-01"}, "to": {"kemarin"}, "department_id": {"x"}, "grade": {"13"}, "class_id": {"-1"},
		"category_id": {"0"}, "type_id": {"1.5"}, "handling_status": {"done"}, "verified": {"maybe"},
		"recorder": {"someone"}, "student_id": {"abc"}, "sort": {"id; DROP TABLE violations"},
		"q": {strings.Repeat("a", 101)},
	}
	for _, path := range []string{"/api/v1/violations?", "/api/v1/violations/export?"} {
		e := s.BK.Do("GET", path+q.Encode(), nil).Want(http.StatusUnprocessableEntity).Err()
		if e.Error.MessageCode != "violationlist.filter.invalid" {
			t.Errorf("message_code %q", e.Error.MessageCode)
		}
		want := map[string]string{
			"from": "violationlist.filter.date", "to": "violationlist.filter.date", "department_id": "violationlist.filter.id",
			"grade": "violationlist.filter.grade", "class_id": "violationlist.filter.id", "category_id": "violationlist.filter.id",
			"type_id": "violationlist.filter.id", "handling_status": "violationlist.filter.handling_status",
			"verified": "violationlist.filter.boolean", "recorder": "violationlist.filter.recorder", "student_id": "violationlist.filter.id",
			"sort": "violationlist.filter.sort", "q": "violationlist.filter.q_too_long",
		}
		for field, code := range want {
			if got := e.Error.FieldCodes[field].Code; got != code {
				t.Errorf("%s: field %s code %q, want %q", path, field, got, code)
			}
		}
	}
	e := s.BK.Do("GET", "/api/v1/violations?from=2025-09-05&to=2025-09-01", nil).Want(http.StatusUnprocessableEntity).Err()
	if e.Error.FieldCodes["to"].Code != "violationlist.filter.date_order" {
		t.Errorf("date order: %+v", e.Error.FieldCodes)
	}
	if e := s.BK.Do("GET", "/api/v1/violations?per_page=500", nil).Want(http.StatusUnprocessableEntity).Err(); e.Error.FieldCodes["per_page"].Code == "" {
		t.Errorf("per_page: %+v", e.Error.FieldCodes)
	}
}

// A homeroom teacher sees violations of students now in their class and
// those whose class that day was theirs; nothing else, not even by id.
func TestListHomeroomScope(t *testing.T) {
	f := newFixture(t)
	s := f.s
	a := list(t, s.TeacherA, "")
	if !same(ids(a), f.vBudi1, f.vBudi2, f.vCitraOld) {
		t.Errorf("teacher A sees %v", ids(a))
	}
	b := list(t, s.TeacherB, "")
	// Citra is now in B: both her violations, the old one of class A too.
	if !same(ids(b), f.vCitraOld, f.vCitra) {
		t.Errorf("teacher B sees %v", ids(b))
	}
	// Filters cannot widen the scope.
	if p := list(t, s.TeacherA, fmt.Sprintf("?class_id=%d", s.ClassC)); len(p.Data) != 0 {
		t.Errorf("teacher A, class C: %v", ids(p))
	}
	s.TeacherA.Do("GET", fmt.Sprintf("/api/v1/violations/%d", f.vDedi), nil).Want(http.StatusNotFound)
	s.TeacherA.Do("GET", fmt.Sprintf("/api/v1/violations/%d", f.vCitraOld), nil).Want(http.StatusOK)
	s.TeacherB.Do("GET", fmt.Sprintf("/api/v1/violations/%d", f.vBudi1), nil).Want(http.StatusNotFound)
	// A homeroom teacher without a class sees nothing.
	lone := s.Env.As(perm.WaliKelas)
	if p := list(t, lone, ""); len(p.Data) != 0 || p.Meta.Total != 0 {
		t.Errorf("teacher without a class sees %v", ids(p))
	}
	// Staff lacks violations.view.
	s.Env.As(perm.Staff).Do("GET", "/api/v1/violations", nil).Want(http.StatusForbidden)
}

func TestDetail(t *testing.T) {
	f := newFixture(t)
	s := f.s
	p2 := s.Photo(f.vBudi2, 1)
	p1 := s.Photo(f.vBudi2, 0)
	late := s.Handling(f.vBudi2, "2025-09-10", [2]string{"Ibu Sari", "Orang Tua"})
	early := s.Handling(f.vBudi2, "2025-09-04", [2]string{"Pak Joko", "Wali Kelas"}, [2]string{"Budi Santoso", "Siswa"})
	var v api.Violation
	s.BK.Do("GET", fmt.Sprintf("/api/v1/violations/%d", f.vBudi2), nil).Want(http.StatusOK).JSON(&v)
	if v.ID != f.vBudi2 || v.PhotoCount != 2 || len(v.Photos) != 2 || v.Photos[0].ID != p1 || v.Photos[1].ID != p2 {
		t.Fatalf("photos: %+v", v.Photos)
	}
	want := fmt.Sprintf("/api/v1/violations/%d/photos/%d", f.vBudi2, p1)
	if v.Photos[0].URL != want || v.Photos[0].ThumbnailURL != want+"/thumbnail" || v.Photos[0].Width != 4 {
		t.Errorf("photo urls: %+v", v.Photos[0])
	}
	if len(v.Handlings) != 2 || v.Handlings[0].ID != early || v.Handlings[1].ID != late {
		t.Fatalf("handlings: %+v", v.Handlings)
	}
	h := v.Handlings[0]
	if h.HandledOn != "2025-09-04" || h.HandlingTypeName == "" || h.FollowUpOn != nil || len(h.Participants) != 2 ||
		h.Participants[0].Name != "Pak Joko" || h.Participants[0].Role != "Wali Kelas" || h.CreatedByName == "" {
		t.Errorf("first handling: %+v", h)
	}
	s.BK.Do("GET", "/api/v1/violations/999999", nil).Want(http.StatusNotFound)
	s.BK.Do("GET", "/api/v1/violations/abc", nil).Want(http.StatusNotFound)
}
