package roster

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/auth"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

// Handler serves the roster routes.
type Handler struct {
	store *Store
	auth  *auth.Service
}

// Routes registers the routes on r.
func (h *Handler) Routes(r *httpx.Router) {
	r.Get("/departments", perm.StudentsView, h.departments)
	r.Get("/classes", perm.StudentsView, h.classes)
	r.Get("/classes/{id}", perm.StudentsView, h.class)
	r.Patch("/classes/{id}", perm.ClassesManage, h.patchClass)
	r.Get("/students", perm.StudentsView, h.students)
	r.Get("/students/{id}", perm.StudentsView, h.student)
	r.Patch("/students/{id}", perm.StudentsEditContact, h.patchStudent)
}

// scope is the caller's scope: a homeroom teacher is limited to their class.
func scope(ctx context.Context) Scope {
	return Scope{HomeroomID: auth.HomeroomID(ctx)}
}

func queryID(r *http.Request, name string, f apperr.Fields) int64 {
	v := strings.TrimSpace(r.URL.Query().Get(name))
	if v == "" {
		return 0
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n <= 0 {
		f.Add(name, "school.query.id")
		return 0
	}
	return n
}

func queryGrade(r *http.Request, f apperr.Fields) int {
	v := strings.TrimSpace(r.URL.Query().Get("grade"))
	if v == "" {
		return 0
	}
	g := ParseGrade(v)
	if g == 0 {
		f.Add("grade", "school.query.grade", "min", MinGrade, "max", MaxGrade)
	}
	return g
}

func (h *Handler) departments(w http.ResponseWriter, r *http.Request) error {
	list, err := h.store.Departments(r.Context(), scope(r.Context()))
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, api.List[Department]{Data: list})
}

func (h *Handler) classes(w http.ResponseWriter, r *http.Request) error {
	f := apperr.Fields{}
	dept := queryID(r, "department_id", f)
	grade := queryGrade(r, f)
	if err := f.Err(); err != nil {
		return err
	}
	list, err := h.store.Classes(r.Context(), scope(r.Context()), dept, grade)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, api.List[Class]{Data: list})
}

func (h *Handler) class(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	c, err := h.store.Class(r.Context(), h.store.db, scope(r.Context()), id)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, c)
}

func (h *Handler) patchClass(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	var in map[string]json.RawMessage
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	raw, ok := in["homeroom_teacher_id"]
	if !ok {
		return apperr.New(apperr.Invalid, "form.invalid").WithField("homeroom_teacher_id", "school.teacher.required")
	}
	var teacher *int64
	if err := json.Unmarshal(raw, &teacher); err != nil || (teacher != nil && *teacher <= 0) {
		return apperr.New(apperr.Invalid, "form.invalid").WithField("homeroom_teacher_id", "school.teacher.id_or_null")
	}
	c, err := h.store.SetHomeroomTeacher(r.Context(), h.auth.Actor(r), scope(r.Context()), id, teacher)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, c)
}

func (h *Handler) students(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	f := apperr.Fields{}
	sf := StudentFilter{
		Q:            strings.TrimSpace(q.Get("q")),
		DepartmentID: queryID(r, "department_id", f),
		Grade:        queryGrade(r, f),
		ClassID:      queryID(r, "class_id", f),
	}
	switch strings.ToLower(q.Get("active")) {
	case "", "all", "semua":
	case "true", "1":
		t := true
		sf.Active = &t
	case "false", "0":
		b := false
		sf.Active = &b
	default:
		f.Add("active", "school.query.active")
	}
	if len([]rune(sf.Q)) > 100 {
		f.Add("q", "school.query.q_too_long", "max", 100)
	}
	if err := f.Err(); err != nil {
		return err
	}
	p, err := httpx.PageParams(r)
	if err != nil {
		return err
	}
	list, total, err := h.store.Students(r.Context(), scope(r.Context()), sf, p)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, api.Page[Student]{Data: list, Meta: p.Meta(total)})
}

func (h *Handler) student(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	st, err := h.store.Student(r.Context(), scope(r.Context()), id)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, st)
}

// patchStudent edits the parent's name and phone (the rest of a student
// belongs to student affairs).
func (h *Handler) patchStudent(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	var in api.ParentContactInput
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	st, err := h.store.EditParentContact(r.Context(), h.auth.Actor(r), scope(r.Context()), id, in)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, st)
}
