package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/backup"
	"github.com/tatib/tatib/server/internal/erasure"
	"github.com/tatib/tatib/server/internal/locale"
	"github.com/tatib/tatib/shared/api"
)

// cliActor is who the audit log says made a backup from the command line.
var cliActor = audit.Actor{Name: "sistem (cli)"}

// backupCmd writes a backup of DATABASE_URL to stdout (`tatib-server
// backup > file`), recorded like one from Settings with via "cli".
func backupCmd(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("backup", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: tatib-server backup > tatib.dump\n\nWrites a pg_dump custom-format backup of DATABASE_URL's database to standard output\n(pg_dump connects through TATIB_DATABASE_DIRECT_URL when it is set).")
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return errors.New("backup takes no arguments: redirect standard output to the file")
	}
	if isTerminal(os.Stdout) {
		return errors.New("the backup is binary: redirect it to a file, e.g. tatib-server backup > tatib.dump")
	}
	cfg, _, err := setup()
	if err != nil {
		return err
	}
	db, err := openDatabase(ctx, cfg, 2)
	if err != nil {
		return err
	}
	defer db.Close()
	svc := &backup.Service{DB: db, URL: cfg.DirectURL()}
	out := bufio.NewWriterSize(os.Stdout, 256<<10)
	rec, err := svc.Dump(ctx, out, backup.DumpOptions{Via: backup.ViaCLI, Actor: cliActor, Begin: func(api.Backup) {}})
	if err == nil {
		err = out.Flush()
	}
	if err != nil {
		return cliError(err)
	}
	fmt.Fprintf(os.Stderr, "tatib-server: backup %d done: %s, %d bytes, sha256 %s\n", rec.ID, rec.Filename, rec.SizeBytes, rec.SHA256)
	// The ledger file beside the data folder: a restore of this or an older
	// backup on this machine does the later erasures again.
	path := filepath.Join(cfg.DataDir, erasure.FileName)
	if _, err := erasure.Mirror(ctx, db, path); err != nil {
		fmt.Fprintf(os.Stderr, "tatib-server: warning: the erasure ledger's file %s was not written: %v\n", path, err)
	}
	return nil
}

// restoreCmd loads a backup into DATABASE_URL: `tatib-server restore
// [--force] [--yes] file`.
func restoreCmd(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("restore", flag.ContinueOnError)
	force := fs.Bool("force", false, "replace a database that already holds a school (asks for its name; see --yes)")
	yes := fs.Bool("yes", false, "with --force: do not ask (for scripts)")
	without := fs.Bool("without-erasures", false, "into an empty database without the erasure ledger file ($TATIB_DATA_DIR/"+erasure.FileName+
		"): erasures made after the backup are not done again")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: tatib-server restore [--force [--yes]] file\n\nRestores a backup into DATABASE_URL's database (through TATIB_DATABASE_DIRECT_URL when it is set),\nwhich must be empty unless --force is given.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return errors.New("restore needs exactly one backup file")
	}
	if *yes && !*force {
		return errors.New("--yes only goes with --force")
	}
	cfg, log, err := setup()
	if err != nil {
		return err
	}
	// The restore runs wholly on the direct URL (pg_restore's settings must
	// not be left on pooled connections); the check says it is one.
	db, err := openDatabase(ctx, cfg, 1)
	if err != nil {
		return err
	}
	db.Close()
	res, err := backup.Restore(ctx, backup.RestoreOptions{URL: cfg.DirectURL(), File: fs.Arg(0), Force: *force, Log: log,
		Ledger: filepath.Join(cfg.DataDir, erasure.FileName), WithoutLedger: *without,
		Confirm: func(database string) (bool, error) {
			if *yes {
				return true, nil
			}
			return confirm(os.Stdin, os.Stderr, database)
		}})
	if err != nil {
		return cliError(err)
	}
	what := "restored into the empty database"
	if res.Replaced {
		what = "replaced the school in"
	}
	fmt.Fprintf(os.Stderr, "tatib-server: %s %s (%d bytes, sha256 %s); %d erasures made after the backup done again; %d sessions ended (everyone signs in again)\n",
		what, res.Database, res.Size, res.SHA256, res.Reapplied, res.SessionsEnded)
	return nil
}

// confirm asks for the database's name on a terminal; elsewhere it
// refuses, since nobody is there to answer (scripts pass --yes).
func confirm(in *os.File, out io.Writer, database string) (bool, error) {
	if !isTerminal(in) {
		return false, errors.New("--force needs the database's name typed on a terminal; in a script add --yes")
	}
	fmt.Fprintf(out, "The database %q holds a school. Restoring replaces everything in it.\nType the database's name to go on: ", database)
	line, err := bufio.NewReader(in).ReadString('\n')
	if err != nil && line == "" {
		return false, nil
	}
	return strings.TrimSpace(line) == database, nil
}

// isTerminal reports whether f is a character device other than the null
// device (which is one too: a script's standard input often is it).
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	if err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	null, err := os.Stat(os.DevNull)
	return err != nil || !os.SameFile(st, null)
}

// cliError renders a message for people in the terminal's language
// (Indonesian when LANG says id, else English).
func cliError(err error) error {
	e, ok := apperr.As(err)
	if !ok {
		return err
	}
	lang := locale.EN
	if strings.HasPrefix(os.Getenv("LANG"), "id") {
		lang = locale.ID
	}
	return errors.New(locale.Render(lang, e.Msg.Key, e.Msg.Params))
}
