package roster_test

// The roster's students come in through the student-affairs sync, as in
// production: these helpers serve a generated school from the simulator and
// sync it (studentsync/synctest, shared with the sync's tests).

import (
	"os"
	"testing"

	"github.com/tatib/tatib/server/internal/studentsync/synctest"
)

func TestMain(m *testing.M) {
	// The simulator listens on 127.0.0.1; production refuses loopback.
	// TestLocalSourcesRefused turns this off for itself.
	os.Setenv("TATIB_ALLOW_LOCAL_SOURCES", "1")
	os.Exit(m.Run())
}

type fixture = synctest.Fixture

func setup(t *testing.T, students int) *fixture { return synctest.New(t, students) }
