package schoolsim

import (
	"crypto/subtle"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Path is where the deployed student-affairs system serves its students.
const Path = "/api/integration/students"

// Faults make the simulator misbehave for tests.
type Faults struct {
	Status      int           // answer every request with this status (401, 403, 404, 500 ...)
	FailPage    int           // answer this page with 500
	BadJSONPage int           // answer this page with truncated JSON
	HTMLPage    int           // answer this page with an HTML page (200, text/html); -1 for every page
	WrongShape  bool          // {"students":[...]} instead of {"data":[...]}
	Delay       time.Duration // sleep this long before answering
	DelayPage   int           // only on this page (0: every page)
	NoMeta      bool          // links.next only, no meta (older Laravel resources)
}

// Server serves a School over HTTP. It is safe for concurrent use; tests
// change the school or the faults between requests.
type Server struct {
	mu         sync.RWMutex
	school     *School
	token      string
	faults     Faults
	maxPerPage int
	requests   atomic.Int64
}

// NewServer serves s to callers presenting token ("" accepts anyone).
func NewServer(s *School, token string) *Server {
	return &Server{school: s, token: token, maxPerPage: 100}
}

// SetFaults replaces the injected faults.
func (s *Server) SetFaults(f Faults) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = f
}

// Update changes the served school under the lock.
func (s *Server) Update(fn func(*School)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fn(s.school)
}

// Requests is the number of requests answered so far.
func (s *Server) Requests() int64 { return s.requests.Load() }

type pageLinks struct {
	First string  `json:"first"`
	Last  string  `json:"last"`
	Prev  *string `json:"prev"`
	Next  *string `json:"next"`
}

type pageMeta struct {
	CurrentPage int    `json:"current_page"`
	From        *int   `json:"from"`
	LastPage    int    `json:"last_page"`
	Path        string `json:"path"`
	PerPage     int    `json:"per_page"`
	To          *int   `json:"to"`
	Total       int    `json:"total"`
}

// ServeHTTP answers GET /api/integration/students like the deployed
// Laravel application: 401 {"message":"Unauthenticated."} without the
// right bearer token, ?page=N&per_page=M (default 15, at most 100), a
// resource collection with links and meta.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.requests.Add(1)
	if r.URL.Path != Path && r.URL.Path != Path+"/" {
		writeJSON(w, http.StatusNotFound, map[string]string{"message": "Not Found"})
		return
	}
	if r.Method != http.MethodGet {
		writeJSON(w, http.StatusMethodNotAllowed, map[string]string{"message": "The " + r.Method + " method is not supported for this route."})
		return
	}
	s.mu.RLock()
	f, token := s.faults, s.token
	s.mu.RUnlock()

	page, _ := strconv.Atoi(r.URL.Query().Get("page"))
	if page < 1 {
		page = 1
	}
	if f.Delay > 0 && (f.DelayPage == 0 || f.DelayPage == page) {
		select {
		case <-time.After(f.Delay):
		case <-r.Context().Done():
			return
		}
	}
	if token != "" {
		h := r.Header.Get("Authorization")
		got, ok := strings.CutPrefix(h, "Bearer ")
		if !ok || subtle.ConstantTimeCompare([]byte(strings.TrimSpace(got)), []byte(token)) != 1 {
			writeJSON(w, http.StatusUnauthorized, map[string]string{"message": "Unauthenticated."})
			return
		}
	}
	if f.Status != 0 {
		writeJSON(w, f.Status, map[string]string{"message": http.StatusText(f.Status)})
		return
	}
	if f.FailPage == page {
		writeJSON(w, http.StatusInternalServerError, map[string]string{"message": "Server Error"})
		return
	}
	if f.HTMLPage == page || f.HTMLPage == -1 {
		w.Header().Set("Content-Type", "text/html; charset=UTF-8")
		_, _ = w.Write([]byte("<!DOCTYPE html>\n<html><head><title>Login</title></head><body>Silakan login</body></html>"))
		return
	}
	if f.BadJSONPage == page {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"data":[{"id":1,"full_name":"Terpo`))
		return
	}

	per, _ := strconv.Atoi(r.URL.Query().Get("per_page"))
	if per < 1 {
		per = 15
	}
	s.mu.RLock()
	if per > s.maxPerPage {
		per = s.maxPerPage
	}
	all := s.school.Students
	total := len(all)
	from := (page - 1) * per
	var data []Student
	if from < total {
		data = append([]Student(nil), all[from:min(from+per, total)]...)
	}
	s.mu.RUnlock()
	if data == nil {
		data = []Student{}
	}
	last := max(1, (total+per-1)/per)
	base := "http://" + r.Host + Path
	link := func(p int) string { return fmt.Sprintf("%s?page=%d&per_page=%d", base, p, per) }
	links := pageLinks{First: link(1), Last: link(last)}
	if page > 1 {
		p := link(page - 1)
		links.Prev = &p
	}
	if page < last {
		n := link(page + 1)
		links.Next = &n
	}
	if f.WrongShape {
		writeJSON(w, http.StatusOK, map[string]any{"students": data, "total": total})
		return
	}
	body := map[string]any{"data": data, "links": links}
	if !f.NoMeta {
		m := pageMeta{CurrentPage: page, LastPage: last, Path: base, PerPage: per, Total: total}
		if len(data) > 0 {
			a, b := from+1, from+len(data)
			m.From, m.To = &a, &b
		}
		body["meta"] = m
	}
	writeJSON(w, http.StatusOK, body)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
