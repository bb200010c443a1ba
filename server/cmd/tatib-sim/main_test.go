package main

import (
	"context"
	"io"
	"log/slog"
	"os"
	"testing"

	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/server/internal/violationtype"
	"github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

// `tatib-sim journal` pushes the demo school's day to a real server: the
// server takes the E-Jurnal's shape, the demo students' ids match, and the
// unknown ones are parked.
func TestJournalPush(t *testing.T) {
	env := apitest.New(t)
	ctx := context.Background()
	if err := violationtype.Boot(ctx, env.Deps); err != nil {
		t.Fatal(err)
	}
	if _, err := school.LoadDemo(ctx, env.DB, slog.New(slog.NewTextHandler(io.Discard, nil)), io.Discard, school.DemoOptions{Students: 30}); err != nil {
		t.Fatal(err)
	}
	var tok api.JournalToken
	env.As(perm.Admin).Do("POST", "/api/v1/settings/journal-token", nil).Want(200).JSON(&tok)
	stdout := os.Stdout
	os.Stdout, _ = os.Open(os.DevNull)
	defer func() { os.Stdout = stdout }()
	err := journalPush([]string{"-server", env.Server.URL, "-token", tok.Token, "-students", "30", "-date", "2026-11-02", "-unknown", "2"})
	if err != nil {
		t.Fatal(err)
	}
	var active, rows, parked int
	env.DB.Get(&active, `SELECT count(*) FROM students WHERE active`)
	env.DB.Get(&rows, `SELECT count(*) FROM attendance WHERE date = '2026-11-02' AND from_journal`)
	env.DB.Get(&parked, `SELECT count(*) FROM attendance_unmatched`)
	if active == 0 || rows != active*10 || parked != 20 {
		t.Errorf("%d active students, %d rows, %d parked", active, rows, parked)
	}
	// A wrong token is an error.
	if err := journalPush([]string{"-server", env.Server.URL, "-token", "salah", "-students", "30"}); err == nil {
		t.Error("wrong token accepted")
	}
}
