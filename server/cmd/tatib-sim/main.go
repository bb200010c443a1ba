// Command tatib-sim simulates the systems Tatib talks to. Subcommand
// student-affairs serves a generated school at /api/integration/students
// in the deployed student-affairs system's shape (bearer token, Laravel
// paging), with optional injected faults for testing.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"
	_ "time/tzdata"

	"github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/server/internal/school/schoolsim"
)

func main() {
	if len(os.Args) < 2 || os.Args[1] != "student-affairs" {
		fmt.Fprintln(os.Stderr, "usage: tatib-sim student-affairs [flags]   (tatib-sim student-affairs -h for flags)")
		os.Exit(2)
	}
	if err := studentAffairs(os.Args[2:]); err != nil {
		fmt.Fprintln(os.Stderr, "tatib-sim:", err)
		os.Exit(1)
	}
}

func env(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}

func envInt(key string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(key)); err == nil {
		return n
	}
	return def
}

func studentAffairs(args []string) error {
	fs := flag.NewFlagSet("student-affairs", flag.ContinueOnError)
	addr := fs.String("addr", env("TATIB_SIM_ADDR", "127.0.0.1:8090"), "listen address (TATIB_SIM_ADDR)")
	token := fs.String("token", env("TATIB_SIM_TOKEN", "sim-token"), "bearer token callers must send; empty accepts anyone (TATIB_SIM_TOKEN)")
	seed := fs.Uint64("seed", uint64(envInt("TATIB_SIM_SEED", school.DemoSeed)), "seed of the generated school; the demo school uses the same default (TATIB_SIM_SEED)")
	students := fs.Int("students", envInt("TATIB_SIM_STUDENTS", 1200), "number of students (TATIB_SIM_STUDENTS)")
	var f schoolsim.Faults
	fs.IntVar(&f.Status, "status", 0, "fault: answer every request with this HTTP status (401, 403, 500 ...)")
	fs.IntVar(&f.FailPage, "fail-page", 0, "fault: answer page N with HTTP 500")
	fs.IntVar(&f.BadJSONPage, "bad-json-page", 0, "fault: answer page N with truncated JSON")
	fs.IntVar(&f.HTMLPage, "html-page", 0, "fault: answer page N with an HTML page (-1: every page)")
	fs.BoolVar(&f.WrongShape, "wrong-shape", false, "fault: answer {\"students\":[...]} instead of {\"data\":[...]}")
	fs.DurationVar(&f.Delay, "delay", 0, "fault: wait this long before answering")
	fs.IntVar(&f.DelayPage, "delay-page", 0, "with -delay: only on page N")
	fs.BoolVar(&f.NoMeta, "no-meta", false, "page with links.next only, without meta")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	sch := schoolsim.Generate(schoolsim.Options{Seed: *seed, Students: *students})
	sim := schoolsim.NewServer(sch, *token)
	sim.SetFaults(f)
	mux := http.NewServeMux()
	mux.Handle(schoolsim.Path, sim)
	mux.Handle(schoolsim.Path+"/", sim)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprintf(w, "tatib-sim student-affairs: %s, %d classes, %d students.\nGET %s with Authorization: Bearer <token>; ?page=N&per_page=M.\n",
			sch.Name, len(sch.Classes), len(sch.Students), schoolsim.Path)
	})
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "tatib-sim student-affairs: %s (%d classes, %d students, seed %d)\n  URL:   http://%s\n  token: %s\n",
		sch.Name, len(sch.Classes), len(sch.Students), *seed, ln.Addr(), *token)
	if ta, ok := ln.Addr().(*net.TCPAddr); ok && (ta.IP.IsLoopback() || ta.IP.IsUnspecified()) {
		// Tatib refuses local student-affairs addresses unless told otherwise.
		fmt.Fprintln(os.Stderr, "  Tatib reaches a simulator on this address only when started with TATIB_ALLOW_LOCAL_SOURCES=1.")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { <-ctx.Done(); _ = hs.Shutdown(context.Background()) }()
	if err := hs.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
