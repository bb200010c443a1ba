package attendancerecap

import (
	"net/http"
	"strconv"
	"time"

	"github.com/tatib/tatib/server/internal/app"
	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/auth"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/server/internal/locale"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

// XLSXContentType is the media type of .xlsx files.
const XLSXContentType = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

// Handler serves the recaps, the weekly export, the semester hand-off,
// the calendars and the day rule setting.
type Handler struct {
	store *Store
	auth  *auth.Service
	// now is the clock "today" and "this month" are taken from (Jakarta).
	now func() time.Time
}

// NewHandler returns a Handler; a changes the day rule (its Actor).
func NewHandler(s *Store, a *auth.Service) *Handler {
	return &Handler{store: s, auth: a, now: time.Now}
}

// Mount registers the routes.
func Mount(r *httpx.Router, d app.Deps) { NewHandler(NewStore(d.DB), d.Auth).Routes(r) }

// Routes registers the routes.
func (h *Handler) Routes(r *httpx.Router) {
	r.Get("/classes/{id}/attendance-recap", perm.AttendanceView, h.classRecap)
	r.Get("/classes/{id}/attendance-recap/weekly.xlsx", perm.AttendanceExport, h.classWeekly)
	r.Get("/attendance-recap", perm.AttendanceView, h.schoolRecap)
	r.Get("/attendance-recap/weekly.xlsx", perm.AttendanceExport, h.schoolWeekly)
	r.Get("/classes/{id}/attendance-calendar", perm.AttendanceView, h.classCalendar)
	r.Get("/students/{id}/attendance-calendar", perm.AttendanceView, h.studentCalendar)
	r.Get("/classes/{id}/attendance-semester", perm.AttendanceView, h.classSemester)
	r.Get("/classes/{id}/attendance-semester.xlsx", perm.AttendanceExport, h.classSemesterXLSX)
	r.Get("/attendance-semester.xlsx", perm.AttendanceExport, h.schoolSemesterXLSX)
	r.Get("/settings/attendance-day-rule", perm.SettingsView, h.getDayRule)
	r.Put("/settings/attendance-day-rule", perm.SettingsManage, h.putDayRule)
}

// scope is the caller's scope: a homeroom teacher their class only.
func scope(r *http.Request) Scope { return Scope{HomeroomID: auth.HomeroomID(r.Context())} }

func (h *Handler) classRecap(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	p, err := ParsePeriod(r.URL.Query(), h.now())
	if err != nil {
		return err
	}
	out, err := h.store.ClassRecap(r.Context(), scope(r), id, p)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, out)
}

func (h *Handler) schoolRecap(w http.ResponseWriter, r *http.Request) error {
	p, err := ParsePeriod(r.URL.Query(), h.now())
	if err != nil {
		return err
	}
	out, err := h.store.SchoolRecap(r.Context(), scope(r), p)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, out)
}

func (h *Handler) classWeekly(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	return h.weekly(w, r, []int64{id})
}

func (h *Handler) schoolWeekly(w http.ResponseWriter, r *http.Request) error {
	f := apperr.Fields{}
	var ids []int64
	seen := map[int64]bool{}
	for _, v := range r.URL.Query()["class_id"] {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n <= 0 {
			f.Add("class_id", "attendancerecap.class_id")
			continue
		}
		if !seen[n] {
			seen[n] = true
			ids = append(ids, n)
		}
	}
	if err := f.Err(); err != nil {
		return err
	}
	return h.weekly(w, r, ids)
}

func (h *Handler) weekly(w http.ResponseWriter, r *http.Request, ids []int64) error {
	f := apperr.Fields{}
	d := parseDate(f, "date", r.URL.Query().Get("date"), h.now())
	if err := f.Err(); err != nil {
		return err
	}
	out, err := h.store.WeeklyExport(r.Context(), scope(r), ids, d, locale.FromContext(r.Context()))
	if err != nil {
		return err
	}
	return writeXLSX(w, out.FileName, out.Data)
}

// writeXLSX answers a workbook as a download named name.
func writeXLSX(w http.ResponseWriter, name string, data []byte) error {
	w.Header().Set("Content-Type", XLSXContentType)
	w.Header().Set("Content-Disposition", `attachment; filename="`+name+`"`)
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	_, err := w.Write(data)
	return err
}

func (h *Handler) classSemester(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	q, err := ParseSemester(r.URL.Query())
	if err != nil {
		return err
	}
	out, err := h.store.ClassSemester(r.Context(), scope(r), id, q, h.now())
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, out)
}

func (h *Handler) classSemesterXLSX(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	return h.semesterXLSX(w, r, id)
}

func (h *Handler) schoolSemesterXLSX(w http.ResponseWriter, r *http.Request) error {
	return h.semesterXLSX(w, r, 0)
}

// semesterXLSX answers the semester workbook of class id (0: every class
// the caller may see; a homeroom teacher: theirs).
func (h *Handler) semesterXLSX(w http.ResponseWriter, r *http.Request, id int64) error {
	q, err := ParseSemester(r.URL.Query())
	if err != nil {
		return err
	}
	out, err := h.store.SemesterExport(r.Context(), scope(r), id, q, h.now(), locale.FromContext(r.Context()))
	if err != nil {
		return err
	}
	return writeXLSX(w, out.FileName, out.Data)
}

func (h *Handler) getDayRule(w http.ResponseWriter, r *http.Request) error {
	out, err := LoadDayRule(r.Context(), h.store.db)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, out)
}

func (h *Handler) putDayRule(w http.ResponseWriter, r *http.Request) error {
	var in api.AttendanceDayRuleSetting
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	out, err := SaveDayRule(r.Context(), h.store.db, h.auth.Actor(r), in)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, out)
}

func (h *Handler) classCalendar(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	m, err := ParseMonth(r.URL.Query(), h.now())
	if err != nil {
		return err
	}
	out, err := h.store.ClassCalendar(r.Context(), scope(r), id, m)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, out)
}

func (h *Handler) studentCalendar(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.IDParam(r, "id")
	if err != nil {
		return err
	}
	m, err := ParseMonth(r.URL.Query(), h.now())
	if err != nil {
		return err
	}
	out, err := h.store.StudentCalendar(r.Context(), scope(r), id, m)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, out)
}
