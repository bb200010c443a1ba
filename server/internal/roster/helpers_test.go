package roster_test

// The roster's students come in through the student-affairs sync, as in
// production: these helpers serve a generated school from the simulator and
// sync it (the same fixture as studentsync's tests).

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"github.com/tatib/tatib/server/internal/apitest"
	schoolsim "github.com/tatib/tatib/server/internal/sim/studentaffairs"
	"github.com/tatib/tatib/server/internal/studentsync"
	"github.com/tatib/tatib/shared/perm"
)

func TestMain(m *testing.M) {
	// The simulator listens on 127.0.0.1; production refuses loopback.
	// TestLocalSourcesRefused turns this off for itself.
	os.Setenv("TATIB_ALLOW_LOCAL_SOURCES", "1")
	os.Exit(m.Run())
}

const simToken = "rahasia-kesiswaan"

type fixture struct {
	env   *apitest.Env
	admin *apitest.Client
	sim   *schoolsim.Server
	url   string
}

func setup(t *testing.T, students int) *fixture {
	t.Helper()
	env := apitest.New(t)
	sch := schoolsim.Generate(schoolsim.Options{Seed: 7, Students: students, AcademicYearStart: 2026})
	sim := schoolsim.NewServer(sch, simToken)
	ts := httptest.NewServer(sim)
	t.Cleanup(ts.Close)
	f := &fixture{env: env, admin: env.As(perm.Admin), sim: sim, url: ts.URL}
	f.configure(ts.URL, simToken)
	return f
}

func (f *fixture) configure(url, token string) {
	f.env.T.Helper()
	f.admin.Do("PUT", "/api/v1/settings/student-affairs", map[string]any{"url": url, "token": token}).Want(200)
}

func (f *fixture) sync() studentsync.SyncRun {
	f.env.T.Helper()
	var run studentsync.SyncRun
	f.admin.Do("POST", "/api/v1/students/sync", nil).Want(http.StatusAccepted).JSON(&run)
	return f.wait(run.ID)
}

func (f *fixture) wait(id int64) studentsync.SyncRun {
	f.env.T.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		var run studentsync.SyncRun
		f.admin.Do("GET", fmt.Sprintf("/api/v1/students/sync/%d", id), nil).Want(200).JSON(&run)
		if run.Status != studentsync.SyncRunning {
			return run
		}
		if time.Now().After(deadline) {
			f.env.T.Fatalf("sync %d still running", id)
		}
		time.Sleep(30 * time.Millisecond)
	}
}
