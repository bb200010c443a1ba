// Command tatib-server is Tatib's central server: the API, the journal sync
// API and the front end. Subcommands: serve (default), migrate, backup,
// restore, openapi (prints the OpenAPI document as it is served).
package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"
	_ "time/tzdata" // Asia/Jakarta whatever the host has

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/api"
	"github.com/tatib/tatib/server/internal/app"
	"github.com/tatib/tatib/server/internal/auth"
	"github.com/tatib/tatib/server/internal/config"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/pg/listen"
	"github.com/tatib/tatib/server/internal/users"
)

func main() {
	cmd := "serve"
	if len(os.Args) > 1 {
		cmd = os.Args[1]
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var err error
	switch cmd {
	case "serve":
		err = serve(ctx)
	case "migrate":
		err = migrate(ctx)
	case "backup":
		err = backupCmd(ctx, os.Args[2:])
	case "restore":
		err = restoreCmd(ctx, os.Args[2:])
	case "openapi":
		var b []byte
		if b, err = api.OpenAPI(); err == nil {
			_, err = os.Stdout.Write(append(b, '\n'))
		}
	case "help", "-h", "--help":
		fmt.Println("usage: tatib-server [serve|migrate|backup > file|restore [--force [--yes]] file|openapi > file]\n\nConfiguration comes from environment variables; see README.md.")
		return
	default:
		err = fmt.Errorf("unknown command %q (want serve, migrate, backup, restore or openapi)", cmd)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "tatib-server:", pg.Redact(err))
		os.Exit(1)
	}
}

func setup() (config.Config, *slog.Logger, error) {
	cfg, err := config.FromEnv(os.Getenv)
	if err != nil {
		return cfg, nil, err
	}
	// Every error in the log goes through pg.Redact: a database error may
	// quote a query parameter's value (a session token's hash, a student's
	// data).
	opts := &slog.HandlerOptions{ReplaceAttr: pg.RedactAttr}
	var h slog.Handler = slog.NewTextHandler(os.Stderr, opts)
	if cfg.LogFormat == "json" {
		h = slog.NewJSONHandler(os.Stderr, opts)
	}
	log := slog.New(h)
	httpx.Logger = log
	if cfg.DatabaseURL == "" {
		return cfg, log, errors.New("DATABASE_URL is not set: start the private cluster with `make run` (or scripts/db.sh start) or point DATABASE_URL at a PostgreSQL database")
	}
	return cfg, log, nil
}

func migrate(ctx context.Context) error {
	cfg, log, err := setup()
	if err != nil {
		return err
	}
	db, err := openDatabase(ctx, cfg, 1)
	if err != nil {
		return err
	}
	defer db.Close()
	return migrateDirect(ctx, cfg, log)
}

// directCheckWait is how long the start waits to hear its own NOTIFY on
// the direct URL.
const directCheckWait = 10 * time.Second

// openDatabase opens the pool on DATABASE_URL (conns connections) and
// makes sure TATIB_DATABASE_DIRECT_URL gives a session of its own on the
// same database, else refuses with what to change.
func openDatabase(ctx context.Context, cfg config.Config, conns int) (*sqlx.DB, error) {
	db, err := pg.OpenPool(ctx, cfg.DatabaseURL, conns)
	if err != nil {
		return nil, err
	}
	if err := pg.CheckDirect(ctx, db, cfg.DirectURL(), directCheckWait); err != nil {
		db.Close()
		if !errors.Is(err, pg.ErrNoSession) {
			return nil, fmt.Errorf("TATIB_DATABASE_DIRECT_URL: %w", err)
		}
		which := "TATIB_DATABASE_DIRECT_URL"
		if cfg.DatabaseDirectURL == "" {
			which = "DATABASE_URL (TATIB_DATABASE_DIRECT_URL is unset, so DATABASE_URL serves for it)"
		}
		why := strings.TrimPrefix(err.Error(), pg.ErrNoSession.Error()+": ")
		return nil, fmt.Errorf("%s keeps no session of its own: %s.\n"+
			"Notifications (LISTEN), the migration and backup locks and pg_dump need one. Behind a pooler in transaction mode "+
			"(PgBouncer's pool_mode = transaction, most managed PostgreSQL poolers) set TATIB_DATABASE_DIRECT_URL to PostgreSQL itself, "+
			"or to a session-mode pool, of the same database as DATABASE_URL. See docs/deployment.md", which, why)
	}
	return db, nil
}

// migrateDirect applies the migrations over the direct URL: their lock is
// a session's.
func migrateDirect(ctx context.Context, cfg config.Config, log *slog.Logger) error {
	direct, err := pg.OpenPool(ctx, cfg.DirectURL(), 2)
	if err != nil {
		return err
	}
	defer direct.Close()
	return pg.Migrate(ctx, direct.DB, log)
}

func serve(ctx context.Context) error {
	cfg, log, err := setup()
	if err != nil {
		return err
	}
	// Take the address first: a second copy started by mistake stops here,
	// before it migrates or loads anything.
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", cfg.Addr, err)
	}
	defer ln.Close()
	db, err := openDatabase(ctx, cfg, cfg.PoolConns())
	if err != nil {
		return err
	}
	defer db.Close()
	if err := migrateDirect(ctx, cfg, log); err != nil {
		return err
	}
	log.Info("database connections", "max", cfg.DBMaxConns, "pool", cfg.PoolConns(), "listening", cfg.ListenConns(),
		"for_migrations_and_backups", cfg.SessionConns()-cfg.ListenConns(), "direct_url_set", cfg.DatabaseDirectURL != "")
	created, generated, err := users.EnsureAdmin(ctx, db, cfg.AdminPassword)
	if err != nil {
		return err
	}
	if created {
		if generated != "" {
			// The password goes to the terminal only, never into a log
			// record that may be collected and kept.
			log.Warn("created the admin user with a random password, printed once to the terminal", "username", "admin")
			fmt.Fprintf(os.Stderr, "\n  First start: sign in as  admin / %s\n  (shown once; change it under Profil after signing in)\n\n", generated)
		} else {
			log.Info("created the admin user with TATIB_ADMIN_PASSWORD", "username", "admin")
		}
	}
	authSvc := auth.New(db, auth.Options{Idle: cfg.SessionIdle, MaxAge: cfg.SessionMaxAge, Secure: cfg.Secure(), TrustProxy: cfg.TrustProxy}, log)
	// The process's one LISTEN connection, on the direct URL: every
	// feature that follows a channel subscribes to it.
	deps := app.Deps{DB: db, Config: cfg, Log: log, Auth: authSvc, Listen: listen.New(cfg.DirectURL(), log)}
	if err := boot(ctx, deps); err != nil {
		return err
	}
	srv := api.New(deps)
	g := newLoops()
	background(ctx, g, deps, srv)

	hs := &http.Server{Addr: cfg.Addr, Handler: srv, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
	log.Info("tatib serving", "addr", ln.Addr().String(), "url", cfg.BaseURL)
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	log.Info("shutting down")
	err = hs.Shutdown(shutdown)
	if left := g.Wait(ShutdownWait); len(left) > 0 {
		log.Warn("stopped without waiting for every background loop", "running", strings.Join(left, ", "))
	}
	return err
}

func every(ctx context.Context, d time.Duration, fn func()) {
	t := time.NewTicker(d)
	defer t.Stop()
	for {
		fn()
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
