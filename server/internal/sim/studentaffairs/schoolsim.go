// Package schoolsim generates a realistic Indonesian vocational school from a
// seed and serves it the way the deployed student-affairs (kesiswaan)
// system does: GET /api/integration/students, bearer token, Laravel paging.
// Tests use it over real HTTP, tatib-sim serves it, and the demo school is
// loaded from the same generator.
//
// It lives under internal/sim with the other simulators (tatib-sim and
// internal/demo use them; production packages do not); the package keeps
// the name schoolsim so it reads apart from internal/school.
package schoolsim

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/tatib/tatib/server/internal/schoolday"
)

// Department is a study programme (jurusan).
type Department struct {
	Code string `json:"code"`
	Name string `json:"name"`
}

// Class is one class (rombel) with its homeroom teacher's name.
type Class struct {
	ID             int64  `json:"id"`
	Name           string `json:"name"`
	Level          int    `json:"level"` // 10, 11, 12
	DepartmentCode string `json:"department_code"`
	Homeroom       string `json:"homeroom"`
}

// Classroom is the nested classroom object of the deployed shape.
type Classroom struct {
	ID    int64 `json:"id"`
	Level int   `json:"level"`
}

// Student is one record exactly as the student-affairs API serves it.
type Student struct {
	ID               int64     `json:"id"`
	NISN             string    `json:"nisn"`
	StudentNumber    string    `json:"student_number"`
	FullName         string    `json:"full_name"`
	Gender           string    `json:"gender"`
	PlaceOfBirth     string    `json:"place_of_birth"`
	DateOfBirth      string    `json:"date_of_birth"`
	Address          string    `json:"address"`
	PhoneNumber      *string   `json:"phone_number"`
	Email            *string   `json:"email"`
	ClassName        string    `json:"class_name"`
	ClassLevel       string    `json:"class_level"`
	Classroom        Classroom `json:"classroom"`
	DepartmentCode   string    `json:"department_code"`
	DepartmentName   string    `json:"department_name"`
	AcademicYearName string    `json:"academic_year_name"`
	Status           string    `json:"status"`
	PhotoPath        *string   `json:"photo_path"`
	ParentName       string    `json:"parent_name"`
	ParentPhone      string    `json:"parent_phone"`
	UpdatedAt        string    `json:"updated_at"`
}

// Person is a generated member of staff.
type Person struct {
	Name  string
	Phone string
}

// School is a generated school.
type School struct {
	Name          string
	Address       string
	Phone         string
	Principal     string
	PrincipalNIP  string
	BKCoordinator string
	AcademicYear  string // "2026/2027"
	Departments   []Department
	Classes       []Class
	Students      []Student
	// Staff are extra generated adults (BK counsellors, leaders, staff) for
	// the demo's users, in a stable order.
	Staff []Person
}

// DemoSeed is the seed of the demo school (internal/demo); `tatib-sim
// student-affairs` serves the same school by default, so pointing the
// settings at the simulator and syncing finds every demo student unchanged.
const DemoSeed = 2026

// Options shape a generated school.
type Options struct {
	Seed     uint64
	Students int // default 1200
	// AcademicYearStart is the calendar year the academic year begins in;
	// default: the current one in Asia/Jakarta (it starts in July).
	AcademicYearStart int
}

// Departments of the generated vocational school (SMK).
var departments = []Department{
	{"TKJ", "Teknik Komputer dan Jaringan"},
	{"AKL", "Akuntansi dan Keuangan Lembaga"},
	{"TSM", "Teknik Sepeda Motor"},
}

// ClassesPerDepartmentGrade is how many parallel classes each department
// has per grade: 3 departments × 3 grades × 4 = 36 classes.
const ClassesPerDepartmentGrade = 4

var romans = map[int]string{10: "X", 11: "XI", 12: "XII"}

// RomanGrade returns X, XI or XII for 10, 11, 12.
func RomanGrade(level int) string { return romans[level] }

// CurrentAcademicYearStart is the year the running academic year began in
// (July), in Asia/Jakarta.
func CurrentAcademicYearStart(now time.Time) int {
	now = schoolday.In(now)
	if now.Month() >= time.July {
		return now.Year()
	}
	return now.Year() - 1
}

// Generate builds a school from o. The same options give the same school.
func Generate(o Options) *School {
	if o.Students <= 0 {
		o.Students = 1200
	}
	if o.AcademicYearStart == 0 {
		o.AcademicYearStart = CurrentAcademicYearStart(time.Now())
	}
	rng := rand.New(rand.NewPCG(o.Seed, o.Seed^0x5eed5c401))
	g := &gen{rng: rng, nisn: map[string]bool{}}
	year := o.AcademicYearStart
	s := &School{
		Name:          "SMK Negeri 1 Contoh",
		Address:       "Jl. Pendidikan No. 1, Kel. Sukamaju, Kec. Coblong, Kota Bandung, Jawa Barat 40132",
		Phone:         "(022) 2501234",
		AcademicYear:  fmt.Sprintf("%d/%d", year, year+1),
		Departments:   append([]Department(nil), departments...),
		PrincipalNIP:  g.nip(1972),
		Principal:     g.adultName(rng.IntN(2) == 0) + ", M.Pd.",
		BKCoordinator: g.adultName(false) + ", S.Pd.",
	}
	var classID int64 = 100
	for _, level := range []int{10, 11, 12} {
		for _, d := range departments {
			for k := 1; k <= ClassesPerDepartmentGrade; k++ {
				classID += int64(1 + rng.IntN(3))
				s.Classes = append(s.Classes, Class{ID: classID, Name: fmt.Sprintf("%s %s %d", romans[level], d.Code, k),
					Level: level, DepartmentCode: d.Code,
					Homeroom: g.adultName(rng.IntN(2) == 0) + ", " + teacherTitles[rng.IntN(len(teacherTitles))]})
			}
		}
	}
	for i := 0; i < 8; i++ {
		s.Staff = append(s.Staff, Person{Name: g.adultName(rng.IntN(2) == 0) + ", " + teacherTitles[rng.IntN(len(teacherTitles))], Phone: g.phone()})
	}
	// Students are spread evenly over classes; ids have gaps, as records
	// deleted over the years leave them.
	var id int64 = 1000
	seq := map[string]int{}
	for i := 0; i < o.Students; i++ {
		c := s.Classes[i%len(s.Classes)]
		id += int64(1 + rng.IntN(3))
		s.Students = append(s.Students, g.student(id, c, year, seq))
	}
	return s
}

type gen struct {
	rng  *rand.Rand
	nisn map[string]bool
}

func (g *gen) pick(list []string) string { return list[g.rng.IntN(len(list))] }

func (g *gen) childName(male bool) string {
	given, second := femaleGiven, femaleSecond
	if male {
		given, second = maleGiven, maleSecond
	}
	first := g.pick(given)
	switch r := g.rng.IntN(10); {
	case r < 1: // a single name, still common
		return first + " " + g.pick(given)
	case r < 7:
		return first + " " + g.pick(second)
	default:
		mid := g.pick(given)
		for mid == first {
			mid = g.pick(given)
		}
		return first + " " + mid + " " + g.pick(second)
	}
}

func (g *gen) adultName(male bool) string {
	if male {
		return g.pick(fatherGiven) + " " + g.pick(maleSecond)
	}
	return g.pick(motherGiven) + " " + g.pick(femaleSecond)
}

func (g *gen) phone() string {
	n := 7 + g.rng.IntN(2)
	var b strings.Builder
	b.WriteString(g.pick(phonePrefixes))
	for range n {
		b.WriteByte(byte('0' + g.rng.IntN(10)))
	}
	return b.String()
}

// nip is an 18-digit civil-servant number: birth date, appointment month,
// gender digit, sequence.
func (g *gen) nip(born int) string {
	return fmt.Sprintf("%d%02d%02d%d%02d%d%03d", born, 1+g.rng.IntN(12), 1+g.rng.IntN(28), born+25, 1+g.rng.IntN(12), 1+g.rng.IntN(2), 1+g.rng.IntN(999))
}

func (g *gen) student(id int64, c Class, year int, seq map[string]int) Student {
	male := g.rng.IntN(100) < 55
	if c.DepartmentCode == "AKL" {
		male = g.rng.IntN(100) < 25
	} else if c.DepartmentCode == "TSM" {
		male = g.rng.IntN(100) < 92
	}
	name := g.childName(male)
	gender := "P"
	if male {
		gender = "L"
	}
	// Grade X students are 15–16 in their first semester: born between
	// July of (year-16) and June of (year-15); a few are a year older.
	entry := year - (c.Level - 10)
	bornFrom := time.Date(entry-16, time.July, 1, 0, 0, 0, 0, time.UTC)
	if g.rng.IntN(100) < 6 {
		bornFrom = bornFrom.AddDate(-1, 0, 0)
	}
	dob := bornFrom.AddDate(0, 0, g.rng.IntN(365))
	nisn := g.uniqueNISN(dob.Year())
	seq[c.DepartmentCode+romans[c.Level]]++
	deptNo := map[string]int{"TKJ": 1, "AKL": 2, "TSM": 3}[c.DepartmentCode]
	nis := fmt.Sprintf("%02d%d%03d", entry%100, deptNo, seq[c.DepartmentCode+romans[c.Level]])
	place := g.pick(homeCities)
	if g.rng.IntN(100) < 30 {
		place = g.pick(cities)
	}
	addr := fmt.Sprintf("Jl. %s No. %d, RT %02d/RW %02d, Kel. %s, Kec. %s, Kota Bandung",
		g.pick(streets), 1+g.rng.IntN(150), 1+g.rng.IntN(12), 1+g.rng.IntN(9), g.pick(villages), g.pick(districts))
	var phone, email, photo *string
	if g.rng.IntN(100) < 80 {
		p := g.phone()
		phone = &p
	}
	if g.rng.IntN(100) < 55 {
		parts := strings.Fields(strings.ToLower(name))
		e := fmt.Sprintf("%s.%s%d@gmail.com", parts[0], parts[len(parts)-1], g.rng.IntN(100))
		email = &e
	}
	if g.rng.IntN(100) < 20 {
		p := fmt.Sprintf("students/photos/%s.jpg", nisn)
		photo = &p
	}
	father := g.rng.IntN(100) < 70
	parent := g.adultName(father)
	status := "active"
	if g.rng.IntN(1000) < 5 {
		status = "transferred"
	}
	d := departmentByCode(c.DepartmentCode)
	updated := time.Date(year, time.July, 10, 8, 0, 0, 0, time.UTC).Add(time.Duration(g.rng.IntN(90*24)) * time.Hour)
	return Student{
		ID: id, NISN: nisn, StudentNumber: nis, FullName: name, Gender: gender,
		PlaceOfBirth: place, DateOfBirth: dob.Format("2006-01-02"), Address: addr,
		PhoneNumber: phone, Email: email,
		ClassName: c.Name, ClassLevel: romans[c.Level], Classroom: Classroom{ID: c.ID, Level: c.Level},
		DepartmentCode: d.Code, DepartmentName: d.Name,
		AcademicYearName: fmt.Sprintf("%d/%d", year, year+1), Status: status, PhotoPath: photo,
		ParentName: parent, ParentPhone: g.phone(),
		UpdatedAt: updated.Format("2006-01-02T15:04:05.000000Z"),
	}
}

// uniqueNISN makes a 10-digit NISN whose first three digits are the last
// three of the birth year, as real NISNs have.
func (g *gen) uniqueNISN(born int) string {
	for {
		n := fmt.Sprintf("%03d%07d", born%1000, g.rng.IntN(10_000_000))
		if !g.nisn[n] {
			g.nisn[n] = true
			return n
		}
	}
}

func departmentByCode(code string) Department {
	for _, d := range departments {
		if d.Code == code {
			return d
		}
	}
	return Department{Code: code, Name: code}
}
