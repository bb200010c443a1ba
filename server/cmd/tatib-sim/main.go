// Command tatib-sim simulates the systems Tatib talks to. Subcommand
// student-affairs serves a generated school at /api/integration/students
// in the deployed student-affairs system's shape (bearer token, Laravel
// paging), with optional injected faults for testing. Subcommand journal
// pushes a school day of attendance to Tatib the way the deployed E-Jurnal
// does. Subcommand wa serves a simulated WhatsApp gateway (Fonnte, Wablas,
// go-whatsapp-web-multidevice or a webhook) for parent messaging.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"
	_ "time/tzdata"

	journalsim "github.com/tatib/tatib/server/internal/sim/journal"
	schoolsim "github.com/tatib/tatib/server/internal/sim/studentaffairs"
	wasim "github.com/tatib/tatib/server/internal/sim/wa"
	"github.com/tatib/tatib/shared/client"
)

func main() {
	var run func([]string) error
	if len(os.Args) >= 2 {
		switch os.Args[1] {
		case "student-affairs":
			run = studentAffairs
		case "journal":
			run = journalPush
		case "wa":
			run = whatsApp
		}
	}
	if run == nil {
		fmt.Fprintln(os.Stderr, "usage: tatib-sim student-affairs [flags]   serve the student-affairs system\n"+
			"       tatib-sim journal [flags]           push a school day of attendance as the E-Jurnal does\n"+
			"       tatib-sim wa [flags]                serve a WhatsApp gateway (fonnte, wablas, gowa, webhook)\n"+
			"(tatib-sim <command> -h for flags)")
		os.Exit(2)
	}
	if err := run(os.Args[2:]); err != nil {
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
	seed := fs.Uint64("seed", uint64(envInt("TATIB_SIM_SEED", schoolsim.DemoSeed)), "seed of the generated school; the demo school uses the same default (TATIB_SIM_SEED)")
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

// journalPush sends one school day of the demo school's attendance to a
// Tatib server in the deployed E-Jurnal's request shape (token in the
// body, "attendances", source_student_id, status words) and prints the
// answer.
func journalPush(args []string) error {
	fs := flag.NewFlagSet("journal", flag.ContinueOnError)
	server := fs.String("server", env("TATIB_SIM_SERVER", "http://127.0.0.1:8080"), "Tatib's address (TATIB_SIM_SERVER)")
	token := fs.String("token", env("TATIB_JOURNAL_TOKEN", ""), "the journal token from Settings → Integrations (TATIB_JOURNAL_TOKEN)")
	date := fs.String("date", "", "the school day, YYYY-MM-DD (default: today in Asia/Jakarta)")
	seed := fs.Uint64("seed", uint64(envInt("TATIB_SIM_SEED", schoolsim.DemoSeed)), "seed of the generated school (the demo school's by default) and of the day")
	students := fs.Int("students", envInt("TATIB_SIM_STUDENTS", 1200), "number of students of the generated school")
	hours := fs.Int("hours", 10, "lesson hours per day (the school profile's)")
	unknown := fs.Int("unknown", 3, "students Tatib does not know yet (their entries are parked)")
	out := fs.String("out", "", "write the request body to this file (- for standard output) instead of sending it")
	busy := fs.Bool("busy", false, "a heavy day (about 10% alpha, the benchmark's) instead of a real school's rates")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if *date == "" {
		*date = journalsim.Today(time.Now())
	}
	if _, err := time.Parse(time.DateOnly, *date); err != nil {
		return fmt.Errorf("-date %q: want YYYY-MM-DD", *date)
	}
	sch := schoolsim.Generate(schoolsim.Options{Seed: *seed, Students: *students})
	list := append(journalsim.FromSchool(sch), journalsim.UnknownStudents(*unknown, *seed)...)
	day := journalsim.TypicalDay
	if *busy {
		day = journalsim.Day
	}
	entries := day(list, *date, *seed, *hours)
	body, err := json.Marshal(journalsim.Request{Token: *token, Attendances: entries})
	if err != nil {
		return err
	}
	count := map[string]int{}
	for _, e := range entries {
		count[e.Status]++
	}
	summary := fmt.Sprintf("%s: %d students (%d unknown), %d entries: hadir %d, sakit %d, izin %d, alpha %d, terlambat %d",
		*date, len(list), *unknown, len(entries), count[journalsim.Present], count[journalsim.Sick], count[journalsim.Excused],
		count[journalsim.Alpha], count[journalsim.Late])
	switch *out {
	case "":
	case "-":
		_, err := os.Stdout.Write(append(body, '\n'))
		return err
	default:
		fmt.Fprintln(os.Stderr, "tatib-sim journal:", summary)
		return os.WriteFile(*out, body, 0o644)
	}
	if *token == "" {
		return errors.New("-token is required: generate the journal token in Tatib under Settings → Integrations")
	}
	c := client.New(*server)
	c.HTTP.Timeout = 5 * time.Minute
	fmt.Fprintf(os.Stderr, "tatib-sim journal: POST %s/api/v1/attendance/sync\n  %s (%d KB)\n", c.BaseURL, summary, len(body)/1024)
	start := time.Now()
	var answer json.RawMessage
	err = c.Do(context.Background(), http.MethodPost, "/api/v1/attendance/sync", json.RawMessage(body), &answer)
	var refused *client.Error
	if errors.As(err, &refused) {
		fmt.Fprintf(os.Stderr, "  HTTP %d in %v\n", refused.Status, time.Since(start).Round(time.Millisecond))
		return fmt.Errorf("the server refused the push (HTTP %d): %s", refused.Status, refused.Message)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "  HTTP 200 in %v\n", time.Since(start).Round(time.Millisecond))
	var pretty bytes.Buffer
	if json.Indent(&pretty, answer, "", "  ") == nil {
		answer = pretty.Bytes()
	}
	fmt.Println(strings.TrimSpace(string(answer)))
	return nil
}

// whatsApp serves a simulated WhatsApp gateway in the foreground until
// interrupted.
func whatsApp(args []string) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serveWhatsApp(ctx, args, os.Stdout, os.Stderr)
}

// serveWhatsApp runs the gateway simulator until ctx ends. The first line
// on stdout is the base URL to enter in Tatib, so a test that starts it as
// a child process reads where it listens.
func serveWhatsApp(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("wa", flag.ContinueOnError)
	fs.SetOutput(stderr)
	kind := fs.String("kind", env("TATIB_SIM_WA_KIND", wasim.Fonnte), "gateway to simulate: fonnte, wablas, gowa or webhook (TATIB_SIM_WA_KIND)")
	addr := fs.String("addr", env("TATIB_SIM_WA_ADDR", "127.0.0.1:9100"), "listen address; port 0 picks a free one (TATIB_SIM_WA_ADDR)")
	token := fs.String("token", env("TATIB_SIM_WA_TOKEN", ""), "token callers must send (fonnte, wablas; webhook as a bearer token); empty accepts any (TATIB_SIM_WA_TOKEN)")
	user := fs.String("user", env("TATIB_SIM_WA_USER", ""), "basic-auth user (gowa, webhook); empty accepts any (TATIB_SIM_WA_USER)")
	password := fs.String("password", env("TATIB_SIM_WA_PASSWORD", ""), "basic-auth password (TATIB_SIM_WA_PASSWORD)")
	mode := fs.String("mode", "ok", "how sends are answered: "+strings.Join(wasim.Modes, ", "))
	failFirst := fs.Int("fail-first", 0, "with -mode: only the first N sends fail that way, the rest succeed")
	delay := fs.Duration("delay", 0, "wait this long before every answer (the wait of -mode slow)")
	numeric := fs.Bool("numeric-ids", false, "fonnte: answer message ids as numbers instead of strings")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	switch *kind {
	case wasim.Fonnte, wasim.Wablas, wasim.Gowa, wasim.Webhook:
	default:
		return fmt.Errorf("-kind %q: want fonnte, wablas, gowa or webhook", *kind)
	}
	sim := wasim.New(*kind)
	sim.Token, sim.Username, sim.Password = *token, *user, *password
	if err := sim.SetMode(wasim.Mode{Mode: *mode, FailFirst: *failFirst, DelayMS: int(delay.Milliseconds()), NumericIDs: *numeric}); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	base := sim.BaseURL("http://" + ln.Addr().String())
	fmt.Fprintln(stdout, base)
	fmt.Fprintf(stderr, "tatib-sim wa: %s gateway, mode %s\n  base URL: %s\n", *kind, *mode, base)
	switch *kind {
	case wasim.Gowa:
		fmt.Fprintf(stderr, "  basic auth: %q / %q\n", *user, *password)
	default:
		fmt.Fprintf(stderr, "  token: %q\n", *token)
	}
	fmt.Fprintf(stderr, "  control: POST %[1]s/_sim/mode {\"mode\",\"fail_first\",\"delay_ms\"}, GET %[1]s/_sim/messages, POST %[1]s/_sim/reset\n",
		"http://"+ln.Addr().String())
	hs := &http.Server{Handler: sim, ReadHeaderTimeout: 10 * time.Second}
	go func() { <-ctx.Done(); _ = hs.Shutdown(context.Background()) }()
	if err := hs.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
