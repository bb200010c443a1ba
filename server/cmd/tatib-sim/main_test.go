package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/server/internal/demo"
	"github.com/tatib/tatib/server/internal/parentmsg/gateway"
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
	if _, err := demo.LoadSchool(ctx, env.DB, slog.New(slog.NewTextHandler(io.Discard, nil)), io.Discard, demo.SchoolOptions{Students: 30}); err != nil {
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

// `tatib-sim wa` prints the base URL first, answers Tatib's Fonnte client
// in Fonnte's shape (here after an outage of one send) and lists what it
// accepted.
func TestWhatsAppSimulator(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	out, stdout := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- serveWhatsApp(ctx, []string{"-kind", "fonnte", "-addr", "127.0.0.1:0", "-token", "T", "-mode", "server_error", "-fail-first", "1"}, stdout, io.Discard)
		stdout.Close()
	}()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	base := strings.TrimSpace(line)
	if !strings.HasPrefix(base, "http://127.0.0.1:") {
		t.Fatalf("first line %q", line)
	}
	g, err := gateway.New(gateway.Config{Kind: "fonnte", BaseURL: base, Token: "T", Timeout: 5 * time.Second}, nil)
	if err != nil {
		t.Fatal(err)
	}
	msg := gateway.Message{Phone: "6281234567890", Text: "Halo"}
	if r := g.Send(ctx, msg); r.Outcome != gateway.Temporary || r.HTTPStatus != 502 {
		t.Errorf("first send: %s HTTP %d", r.Outcome, r.HTTPStatus)
	}
	if r := g.Send(ctx, msg); r.Outcome != gateway.Sent || r.MessageID == "" {
		t.Errorf("second send: %s %q", r.Outcome, r.Answer)
	}
	res, err := http.Get(base + "/_sim/messages")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var list struct {
		Count    int
		Requests int
		Messages []struct{ Phone, Text string }
	}
	if err := json.NewDecoder(res.Body).Decode(&list); err != nil {
		t.Fatal(err)
	}
	if list.Count != 1 || list.Requests != 2 || list.Messages[0].Phone != msg.Phone || list.Messages[0].Text != msg.Text {
		t.Errorf("messages: %+v", list)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("stopping: %v", err)
	}
	// A kind or mode it does not know is an error, before listening.
	if err := serveWhatsApp(context.Background(), []string{"-kind", "telegram", "-addr", "127.0.0.1:0"}, io.Discard, io.Discard); err == nil {
		t.Error("unknown kind accepted")
	}
	if err := serveWhatsApp(context.Background(), []string{"-mode", "sometimes", "-addr", "127.0.0.1:0"}, io.Discard, io.Discard); err == nil {
		t.Error("unknown mode accepted")
	}
}
