package studentsync_test

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/tatib/tatib/server/internal/apitest"
	schoolsim "github.com/tatib/tatib/server/internal/sim/studentaffairs"
	"github.com/tatib/tatib/server/internal/studentsync"
	"github.com/tatib/tatib/shared/perm"
)

const secret = "SECRET-TOKEN-XYZ"

// bannerServer accepts TCP connections and writes a non-HTTP greeting, as
// an SSH or mail server on a probed port would.
func bannerServer(t *testing.T, banner string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				// Greet, read what the client sent, complain, hang up.
				_, _ = c.Write([]byte(banner))
				_, _ = bufio.NewReader(c).ReadString('\n')
				_, _ = c.Write([]byte("Protocol mismatch.\r\n"))
				c.Close()
			}()
		}
	}()
	return "http://" + ln.Addr().String()
}

// The test-connection answer describes what came back in Tatib's own words
// (its status, the shape expected and the kind of thing seen) and never
// repeats what the remote side sent.
func TestTestConnectionNeverEchoesRemote(t *testing.T) {
	t.Parallel()
	f := setup(t, 5)
	serve := func(status int, contentType, body string) string {
		ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", contentType)
			w.WriteHeader(status)
			_, _ = w.Write([]byte(body))
		}))
		t.Cleanup(ts.Close)
		return ts.URL
	}
	cases := []struct {
		name, url, kind, code string
		status                int
	}{
		{"Plain500", serve(500, "text/plain", secret), studentsync.KindHTTPStatus, "school.source.server_error", 500},
		{"JSON500", serve(500, "application/json", `{"message":"`+secret+`"}`), studentsync.KindHTTPStatus, "school.source.server_error", 500},
		{"JSON418", serve(418, "application/json", `{"message":"`+secret+`"}`), studentsync.KindHTTPStatus, "school.source.http_status", 418},
		{"KeysNamed", serve(200, "application/json", `{"`+secret+`":[1],"other_`+secret+`":2}`), studentsync.KindWrongShape, "school.source.no_data", 0},
		{"HTML", serve(200, "text/html", "<html><title>"+secret+"</title></html>"), studentsync.KindNotJSON, "school.source.html", 0},
		{"BadJSON", serve(200, "application/json", secret+"{"), studentsync.KindNotJSON, "school.source.bad_json", 0},
		{"DataNotList", serve(200, "application/json", `{"data":"`+secret+`"}`), studentsync.KindWrongShape, "school.source.data_not_list", 0},
		{"Banner", bannerServer(t, "SSH-2.0-"+secret+"\r\n"), studentsync.KindNotHTTP, "school.source.not_http", 0},
	}
	for _, c := range cases {
		for _, lang := range []string{"id", "en"} {
			res := f.Admin.Do("POST", "/api/v1/settings/student-affairs/test", map[string]any{"url": c.url}, "Accept-Language", lang).Want(200)
			if strings.Contains(string(res.Body), "SECRET") {
				t.Errorf("%s (%s): remote text echoed: %s", c.name, lang, res.Body)
			}
			var out studentsync.TestResult
			res.JSON(&out)
			if out.OK || out.Kind != c.kind || out.ErrorCode != c.code || out.Status != c.status || out.Error == "" {
				t.Errorf("%s (%s): %+v, want kind %s code %s status %d", c.name, lang, out, c.kind, c.code, c.status)
			}
		}
	}
	var out studentsync.TestResult
	f.Admin.Do("POST", "/api/v1/settings/student-affairs/test", map[string]any{"url": cases[0].url}, "Accept-Language", "en").Want(200).JSON(&out)
	if !strings.Contains(out.Error, "HTTP 500") || !strings.Contains(out.Error, "error") {
		t.Errorf("English summary: %q", out.Error)
	}

	// A sync against the same source stores a key, not the text, and the
	// run never carries the remote body either.
	f.Configure(cases[1].url, simToken)
	run := f.Sync()
	if run.Status != studentsync.SyncFailed || run.ErrorCode != "school.source.server_error" {
		t.Fatalf("sync: %+v", run)
	}
	var stored struct {
		Error  string `db:"error"`
		Code   string `db:"error_code"`
		Params string `db:"error_params"`
	}
	if err := f.Env.DB.Get(&stored, `SELECT error, error_code, error_params::text FROM student_syncs WHERE id = $1`, run.ID); err != nil {
		t.Fatal(err)
	}
	if stored.Error != "" || stored.Code != "school.source.server_error" || strings.Contains(stored.Params, "SECRET") {
		t.Errorf("stored failure: %+v", stored)
	}
	var en, id studentsync.SyncRun
	f.Admin.Do("GET", fmt.Sprintf("/api/v1/students/sync/%d", run.ID), nil, "Accept-Language", "en").Want(200).JSON(&en)
	f.Admin.Do("GET", fmt.Sprintf("/api/v1/students/sync/%d", run.ID), nil, "Accept-Language", "id").Want(200).JSON(&id)
	if en.Error == id.Error || !strings.Contains(en.Error, "500") || !strings.Contains(id.Error, "500") {
		t.Errorf("rendered per language: en %q, id %q", en.Error, id.Error)
	}
	var audit string
	f.Env.DB.Get(&audit, `SELECT details::text FROM audit_log WHERE action = 'students.sync.failed'`)
	if audit == "" || strings.Contains(audit, "SECRET") {
		t.Errorf("audit: %s", audit)
	}
}

// localOff starts an API that refuses local student-affairs addresses, as
// production does (TATIB_ALLOW_LOCAL_SOURCES unset). Not parallel: it
// changes the environment for the server it builds.
func localOff(t *testing.T) (*apitest.Env, *apitest.Client, string) {
	t.Setenv("TATIB_ALLOW_LOCAL_SOURCES", "")
	env := apitest.New(t)
	sim := schoolsim.NewServer(schoolsim.Generate(schoolsim.Options{Seed: 7, Students: 5, AcademicYearStart: 2026}), simToken)
	ts := httptest.NewServer(sim)
	t.Cleanup(ts.Close)
	return env, env.As(perm.Admin), ts.URL
}

func TestLocalSourcesRefused(t *testing.T) {
	_, admin, simURL := localOff(t)
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(simURL, "http://"))
	test := func(url string) studentsync.TestResult {
		var out studentsync.TestResult
		admin.Do("POST", "/api/v1/settings/student-affairs/test", map[string]any{"url": url, "token": simToken}).Want(200).JSON(&out)
		return out
	}
	for _, url := range []string{simURL, "http://localhost:" + port, "http://[::1]:" + port, "http://0.0.0.0:" + port,
		"http://169.254.169.254", "http://[fe80::1]:" + port} {
		if got := test(url); got.OK || got.Kind != studentsync.KindLocal || got.ErrorCode != "school.source.local_refused" {
			t.Errorf("%s: %+v, want refused as local", url, got)
		}
	}
	// The sync refuses it too, at the same place.
	admin.Do("PUT", "/api/v1/settings/student-affairs", map[string]any{"url": simURL, "token": simToken}).Want(200)
	var run studentsync.SyncRun
	admin.Do("POST", "/api/v1/students/sync", nil).Want(http.StatusAccepted).JSON(&run)
	done := waitRun(t, admin, run.ID)
	if done.Status != studentsync.SyncFailed || done.ErrorCode != "school.source.local_refused" {
		t.Errorf("sync: %+v", done)
	}
}

// The check applies to the address actually dialled: a redirect from an
// address that is allowed to a loopback one is refused too (as a name
// resolving to 127.0.0.1 would be).
func TestLocalSourcesRefusedAfterRedirect(t *testing.T) {
	ip := outsideAddress(t)
	_, admin, simURL := localOff(t)
	ln, err := net.Listen("tcp", net.JoinHostPort(ip, "0"))
	if err != nil {
		t.Skipf("cannot listen on %s: %v", ip, err)
	}
	redirect := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, simURL+r.URL.RequestURI(), http.StatusFound)
	})}
	go redirect.Serve(ln)
	t.Cleanup(func() { redirect.Close() })
	var out studentsync.TestResult
	admin.Do("POST", "/api/v1/settings/student-affairs/test", map[string]any{"url": "http://" + ln.Addr().String(), "token": simToken}).
		Want(200).JSON(&out)
	if out.OK || out.Kind != studentsync.KindLocal {
		t.Fatalf("redirect to loopback: %+v", out)
	}
}

// With TATIB_ALLOW_LOCAL_SOURCES=1 (TestMain) the same loopback simulator
// is reachable: the development and demo set-up.
func TestLocalSourcesAllowed(t *testing.T) {
	t.Parallel()
	f := setup(t, 5)
	var out studentsync.TestResult
	f.Admin.Do("POST", "/api/v1/settings/student-affairs/test", nil).Want(200).JSON(&out)
	if !out.OK || out.Count != 5 {
		t.Fatalf("allowed: %+v", out)
	}
}

// outsideAddress is a non-loopback address of this machine, or skips.
func outsideAddress(t *testing.T) string {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		t.Skip(err)
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && n.IP.To4() != nil && !n.IP.IsLoopback() && !n.IP.IsLinkLocalUnicast() {
			return n.IP.String()
		}
	}
	t.Skip("no non-loopback IPv4 address")
	return ""
}

func waitRun(t *testing.T, c *apitest.Client, id int64) studentsync.SyncRun {
	t.Helper()
	for i := 0; i < 2000; i++ {
		var run studentsync.SyncRun
		c.Do("GET", fmt.Sprintf("/api/v1/students/sync/%d", id), nil).Want(200).JSON(&run)
		if run.Status != studentsync.SyncRunning {
			return run
		}
		time.Sleep(30 * time.Millisecond)
	}
	t.Fatalf("sync %d still running", id)
	return studentsync.SyncRun{}
}
