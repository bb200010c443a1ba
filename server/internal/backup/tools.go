package backup

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/jmoiron/sqlx"
)

// Tool is a PostgreSQL client program (pg_dump, pg_restore) on this
// machine.
type Tool struct {
	Path    string
	Version string // "15.18"
	Major   int
}

// Tools is what Find learnt about the client programs and the database
// server they must talk to.
type Tools struct {
	// Tool is the usable program; Path is "" when there is none.
	Tool Tool
	// Older is a program found but older than the server (pg_dump cannot
	// dump a newer server), for the message.
	Older Tool
	// ServerMajor is the database server's major version (15).
	ServerMajor int
}

// Usable reports whether a program was found that can talk to the server.
func (t Tools) Usable() bool { return t.Tool.Path != "" }

// Find looks for the program name (pg_dump or pg_restore): only in
// TATIB_PG_BIN when that is set; else beside the database server's own
// binaries when it runs on this machine (the private cluster), in
// /usr/lib/postgresql/<server major>/bin, on PATH, and in the other
// /usr/lib/postgresql/*/bin, newest first. The first whose major version is
// at least the server's wins: an older pg_dump refuses a newer server.
func Find(ctx context.Context, db sqlx.QueryerContext, getenv func(string) string, name string) (Tools, error) {
	var t Tools
	var num int
	if err := sqlx.GetContext(ctx, db, &num, `SELECT current_setting('server_version_num')::int`); err != nil {
		return t, fmt.Errorf("backup: server version: %w", err)
	}
	t.ServerMajor = num / 10000
	for _, p := range candidates(ctx, db, getenv, name, t.ServerMajor) {
		tool, ok := probe(ctx, p)
		if !ok {
			continue
		}
		if tool.Major >= t.ServerMajor {
			t.Tool = tool
			return t, nil
		}
		if t.Older.Path == "" {
			t.Older = tool
		}
	}
	return t, nil
}

func candidates(ctx context.Context, db sqlx.QueryerContext, getenv func(string) string, name string, major int) []string {
	if dir := getenv("TATIB_PG_BIN"); dir != "" {
		return []string{filepath.Join(dir, name)}
	}
	var out []string
	// The pg_config view is the superuser's only (the private cluster's
	// owner is one); elsewhere the query fails and the other places remain.
	var bindir string
	if err := sqlx.GetContext(ctx, db, &bindir, `SELECT setting FROM pg_config WHERE name = 'BINDIR'`); err == nil && bindir != "" {
		out = append(out, filepath.Join(bindir, name))
	}
	out = append(out, filepath.Join("/usr/lib/postgresql", strconv.Itoa(major), "bin", name))
	if p, err := exec.LookPath(name); err == nil {
		out = append(out, p)
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return dirMajor(dirs[i]) > dirMajor(dirs[j]) })
	for _, d := range dirs {
		out = append(out, filepath.Join(d, name))
	}
	seen := map[string]bool{}
	uniq := out[:0]
	for _, p := range out {
		if !seen[p] {
			seen[p] = true
			uniq = append(uniq, p)
		}
	}
	return uniq
}

func dirMajor(dir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(dir)))
	return n
}

var versionRE = regexp.MustCompile(`\(PostgreSQL\) (\d+)(?:\.(\d+))?`)

// probe runs `path --version`.
func probe(ctx context.Context, path string) (Tool, bool) {
	if st, err := os.Stat(path); err != nil || st.IsDir() {
		return Tool{}, false
	}
	out, err := exec.CommandContext(ctx, path, "--version").Output()
	if err != nil {
		return Tool{}, false
	}
	m := versionRE.FindStringSubmatch(string(out))
	if m == nil {
		return Tool{}, false
	}
	major, _ := strconv.Atoi(m[1])
	v := m[1]
	if m[2] != "" {
		v += "." + m[2]
	}
	return Tool{Path: path, Version: strings.TrimSpace(v), Major: major}, true
}
