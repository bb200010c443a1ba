package school

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/auth"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

// Handler serves the school-data routes.
type Handler struct {
	store  *Store
	syncer *Syncer
	auth   *auth.Service
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
	r.Post("/students/sync", perm.StudentsSync, h.startSync)
	r.Get("/students/sync/status", perm.StudentsSync, h.syncStatus)
	r.Get("/students/sync/latest", perm.StudentsSync, h.latestSync)
	r.Get("/students/sync/{id}", perm.StudentsSync, h.getSync)
	r.Get("/students/syncs", perm.StudentsSync, h.listSyncs)
	r.Get("/settings/student-affairs", perm.SettingsManage, h.getStudentAffairs)
	r.Put("/settings/student-affairs", perm.SettingsManage, h.putStudentAffairs)
	r.Post("/settings/student-affairs/test", perm.SettingsManage, h.testStudentAffairs)
	r.Get("/settings/school", perm.SettingsView, h.getProfile)
	r.Put("/settings/school", perm.SettingsManage, h.putProfile)
	r.Get("/school/public", perm.Public, h.publicProfile)
	r.Put("/settings/school/logo", perm.SettingsManage, h.putLogo)
	r.Delete("/settings/school/logo", perm.SettingsManage, h.deleteLogo)
	r.Get("/school/logo", perm.Public, h.getLogo)
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
	g := parseGrade(v)
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

func (h *Handler) startSync(w http.ResponseWriter, r *http.Request) error {
	run, err := h.syncer.Start(r.Context(), h.auth.Actor(r), TriggerManual)
	if err != nil {
		return err
	}
	w.Header().Set("Location", "/api/v1/students/sync/"+strconv.FormatInt(run.ID, 10))
	return httpx.JSON(w, http.StatusAccepted, run)
}

func (h *Handler) getSync(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	run, err := GetSync(r.Context(), h.store.db, id)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, run)
}

// SyncStatus tells the Students screen whether a sync can run, without
// revealing the connection (its URL and token are for settings.manage).
type SyncStatus struct {
	Configured bool   `json:"configured"`
	Schedule   string `json:"schedule"` // daily HH:MM (Asia/Jakarta), or ""
}

func (h *Handler) syncStatus(w http.ResponseWriter, r *http.Request) error {
	cfg, err := LoadStudentAffairs(r.Context(), h.store.db)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, SyncStatus{Configured: cfg.URL != "", Schedule: cfg.Schedule})
}

func (h *Handler) latestSync(w http.ResponseWriter, r *http.Request) error {
	run, err := LatestSync(r.Context(), h.store.db)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, run)
}

func (h *Handler) listSyncs(w http.ResponseWriter, r *http.Request) error {
	p, err := httpx.PageParams(r)
	if err != nil {
		return err
	}
	list, total, err := ListSyncs(r.Context(), h.store.db, p.PerPage, p.Offset())
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, api.Page[SyncRun]{Data: list, Meta: p.Meta(total)})
}

func (h *Handler) getStudentAffairs(w http.ResponseWriter, r *http.Request) error {
	s, err := LoadStudentAffairs(r.Context(), h.store.db)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, s)
}

func (h *Handler) putStudentAffairs(w http.ResponseWriter, r *http.Request) error {
	var in StudentAffairsInput
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	s, err := SaveStudentAffairs(r.Context(), h.store.db, h.auth.Actor(r), in)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, s)
}

// testStudentAffairs tests the stored connection, or the URL and token in
// the body (so the screen can test before saving; an absent token means the
// stored one).
func (h *Handler) testStudentAffairs(w http.ResponseWriter, r *http.Request) error {
	cfg, err := LoadStudentAffairs(r.Context(), h.store.db)
	if err != nil {
		return err
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return apperr.New(apperr.BadRequest, "request.unreadable")
	}
	if len(bytes.TrimSpace(body)) > 0 {
		var in struct {
			URL   *string `json:"url"`
			Token *string `json:"token"`
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		if err := httpx.DecodeJSON(r, &in); err != nil {
			return err
		}
		if in.URL != nil {
			cfg.URL = strings.TrimSpace(*in.URL)
		}
		if in.Token != nil {
			cfg.Token = strings.TrimSpace(*in.Token)
		}
	}
	ctx, cancel := context.WithTimeout(r.Context(), RequestTimeout+5*time.Second)
	defer cancel()
	return httpx.JSON(w, http.StatusOK, TestConnection(ctx, cfg, h.syncer.allowLocal))
}

func (h *Handler) getProfile(w http.ResponseWriter, r *http.Request) error {
	p, err := LoadProfile(r.Context(), h.store.db)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, p)
}

// PublicProfile is what the sign-in page may show before anyone signs in:
// the school's name and nothing else of the profile.
type PublicProfile struct {
	Name    string  `json:"name"`
	LogoURL *string `json:"logo_url"`
}

func (h *Handler) publicProfile(w http.ResponseWriter, r *http.Request) error {
	p, err := LoadProfile(r.Context(), h.store.db)
	if err != nil {
		return err
	}
	out := PublicProfile{Name: p.Name}
	l, found, err := logoInfo(r.Context(), h.store.db)
	if err != nil {
		return err
	}
	if found {
		out.LogoURL = &l.URL
	}
	return httpx.JSON(w, http.StatusOK, out)
}

func (h *Handler) putProfile(w http.ResponseWriter, r *http.Request) error {
	var in Profile
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	p, err := SaveProfile(r.Context(), h.store.db, h.auth.Actor(r), in)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, p)
}
