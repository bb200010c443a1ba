package demo_test

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/server/internal/demo"
)

// TestDemoPasswordsNotLogged: the demo users' passwords are printed to the
// terminal once and never written into a log record, which log collectors
// keep (JSON logs in particular).
func TestDemoPasswordsNotLogged(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	var logs, out bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&logs, nil))
	res, err := demo.LoadSchool(context.Background(), env.DB, log, &out, demo.SchoolOptions{})
	if err != nil || !res.Loaded {
		t.Fatalf("%+v %v", res, err)
	}
	if logs.Len() == 0 {
		t.Fatal("nothing logged")
	}
	for _, a := range res.Accounts {
		if strings.Contains(logs.String(), a.Password) {
			t.Fatalf("password of %s in the log: %s", a.Username, logs.String())
		}
		if !strings.Contains(out.String(), a.Password) {
			t.Fatalf("password of %s not printed", a.Username)
		}
	}
}
