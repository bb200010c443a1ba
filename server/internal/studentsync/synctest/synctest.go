// Package synctest is the student-sync fixture the roster's and the sync's
// tests share: a generated school served by the student-affairs simulator,
// configured as the school's source, and synced through the API as in
// production.
package synctest

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/tatib/tatib/server/internal/apitest"
	schoolsim "github.com/tatib/tatib/server/internal/sim/studentaffairs"
	"github.com/tatib/tatib/server/internal/studentsync"
	"github.com/tatib/tatib/shared/perm"
)

// Token is the simulator's API token.
const Token = "rahasia-kesiswaan"

// Fixture is a test database with an admin client and a simulator holding
// a generated school. The simulator listens on 127.0.0.1: the test binary's
// TestMain must set TATIB_ALLOW_LOCAL_SOURCES=1.
type Fixture struct {
	Env   *apitest.Env
	Admin *apitest.Client
	Sim   *schoolsim.Server
	URL   string
}

// New serves a generated school of students (seed 7) and configures it as
// the student-affairs source.
func New(t *testing.T, students int) *Fixture {
	t.Helper()
	env := apitest.New(t)
	sch := schoolsim.Generate(schoolsim.Options{Seed: 7, Students: students, AcademicYearStart: 2026})
	sim := schoolsim.NewServer(sch, Token)
	ts := httptest.NewServer(sim)
	t.Cleanup(ts.Close)
	f := &Fixture{Env: env, Admin: env.As(perm.Admin), Sim: sim, URL: ts.URL}
	f.Configure(ts.URL, Token)
	return f
}

// Configure saves url and token as the student-affairs connection.
func (f *Fixture) Configure(url, token string) {
	f.Env.T.Helper()
	f.Admin.Do("PUT", "/api/v1/settings/student-affairs", map[string]any{"url": url, "token": token}).Want(200)
}

// Sync starts a sync and waits for it to end.
func (f *Fixture) Sync() studentsync.SyncRun {
	f.Env.T.Helper()
	var run studentsync.SyncRun
	f.Admin.Do("POST", "/api/v1/students/sync", nil).Want(http.StatusAccepted).JSON(&run)
	return f.Wait(run.ID)
}

// Wait polls sync run id until it is no longer running (at most a minute).
func (f *Fixture) Wait(id int64) studentsync.SyncRun {
	f.Env.T.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		var run studentsync.SyncRun
		f.Admin.Do("GET", fmt.Sprintf("/api/v1/students/sync/%d", id), nil).Want(200).JSON(&run)
		if run.Status != studentsync.SyncRunning {
			return run
		}
		if time.Now().After(deadline) {
			f.Env.T.Fatalf("sync %d still running", id)
		}
		time.Sleep(30 * time.Millisecond)
	}
}
