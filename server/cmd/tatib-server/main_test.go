package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tatib/tatib/server/internal/pg/pgtest"
)

// TestServeFirstStart runs the real binary on an empty database, as `make
// run` does on a new machine: it migrates, creates the admin with a random
// password printed once (to the terminal, not the log), and serves; the admin creates a staff user, who
// is refused the user list.
func TestServeFirstStart(t *testing.T) {
	t.Parallel()
	bin := serverBin(t)
	addr := freeAddr(t)
	cmd := exec.Command(bin, "serve")
	cmd.Env = append(os.Environ(), "DATABASE_URL="+pgtest.NewURL(t), "TATIB_ADDR="+addr, "TATIB_ADMIN_PASSWORD=", "TATIB_DEMO=0",
		"TATIB_DATA_DIR="+t.TempDir())
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Signal(os.Interrupt); cmd.Wait() })

	password := ""
	var seen []string
	lines := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	re := regexp.MustCompile(`sign in as\s+admin / (\S+)`)
	deadline := time.After(30 * time.Second)
	for password == "" {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatal("server exited before printing the admin password")
			}
			seen = append(seen, l)
			if m := re.FindStringSubmatch(l); m != nil {
				password = m[1]
			}
		case <-deadline:
			t.Fatal("no admin password printed")
		}
	}
	// The password is printed for the person at the terminal, never
	// written into a log record that log collectors keep.
	for _, l := range seen {
		if strings.Contains(l, password) && strings.Contains(l, "level=") {
			t.Errorf("password in a log record: %s", l)
		}
	}
	go func() {
		for range lines {
		}
	}()
	base := "http://" + addr
	waitReady(t, base)

	admin := login(t, base, "admin", password)
	res, body := call(t, "POST", base+"/api/v1/users", admin, map[string]string{"username": "staf", "name": "Staf TU", "role": "staff", "password": "rahasia1"})
	if res != 201 {
		t.Fatalf("create staff: %d %s", res, body)
	}
	staff := login(t, base, "staf", "rahasia1")
	res, body = call(t, "GET", base+"/api/v1/users", staff, nil)
	if res != 403 || !strings.Contains(string(body), "users.view") {
		t.Fatalf("staff GET /users: %d %s", res, body)
	}
	if strings.Contains(password, " ") || len(password) < 12 {
		t.Fatalf("weak generated password %q", password)
	}
}

var built struct {
	once sync.Once
	path string
	out  []byte
	err  error
}

// serverBin builds the server binary once for the package's tests.
func serverBin(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		dir, err := os.MkdirTemp("", "tatib-server-test-")
		if err != nil {
			built.err = err
			return
		}
		built.path = filepath.Join(dir, "tatib-server")
		built.out, built.err = exec.Command("go", "build", "-o", built.path, ".").CombinedOutput()
	})
	if built.err != nil {
		t.Fatalf("build: %v\n%s", built.err, built.out)
	}
	return built.path
}

func TestMain(m *testing.M) {
	code := m.Run()
	if built.path != "" {
		os.RemoveAll(filepath.Dir(built.path))
	}
	os.Exit(code)
}

func freeAddr(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

func waitReady(t *testing.T, base string) {
	for i := 0; i < 100; i++ {
		if res, err := http.Get(base + "/readyz"); err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				return
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatal("server not ready")
}

func login(t *testing.T, base, user, pw string) string {
	t.Helper()
	status, body := call(t, "POST", base+"/api/v1/auth/login", "", map[string]string{"username": user, "password": pw})
	if status != 200 {
		t.Fatalf("login %s: %d %s", user, status, body)
	}
	var out struct{ Token string }
	json.Unmarshal(body, &out)
	return out.Token
}

func call(t *testing.T, method, url, token string, v any) (int, []byte) {
	t.Helper()
	var rd io.Reader
	if v != nil {
		b, _ := json.Marshal(v)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, url, rd)
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(fmt.Errorf("%s %s: %w", method, url, err))
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, b
}
