// Package config reads Tatib's configuration from environment variables.
package config

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// DefaultMaxUploadBytes is the default largest multipart body: room for
// the 5 MB spreadsheet import and its envelope.
const DefaultMaxUploadBytes = 8 << 20

// DefaultDBMaxConns is TATIB_DB_MAX_CONNS's default: two replicas fit in
// PgBouncer's default pool of 20 server connections whatever its mode.
const DefaultDBMaxConns = 10

// Config is the server's configuration. Every field comes from one
// environment variable, documented in the README.
type Config struct {
	Addr        string // TATIB_ADDR
	DatabaseURL string // DATABASE_URL; empty means the private cluster
	// DatabaseDirectURL reaches the same database with a session of its
	// own (never through a transaction pooler): LISTEN, the migration and
	// backup locks, pg_dump and pg_restore. Empty means DatabaseURL; see
	// DirectURL.
	DatabaseDirectURL string // TATIB_DATABASE_DIRECT_URL
	// DBMaxConns is the most connections this process opens to the
	// database, both URLs together; see PoolConns.
	DBMaxConns    int           // TATIB_DB_MAX_CONNS (default DefaultDBMaxConns)
	AdminPassword string        // TATIB_ADMIN_PASSWORD
	DataDir       string        // TATIB_DATA_DIR
	BaseURL       string        // TATIB_BASE_URL
	Demo          bool          // TATIB_DEMO (default on)
	SessionIdle   time.Duration // TATIB_SESSION_IDLE
	SessionMaxAge time.Duration // TATIB_SESSION_MAX_AGE
	DBPort        int           // TATIB_DB_PORT, the private cluster's port
	LogFormat     string        // TATIB_LOG_FORMAT: text or json
	MaxBodyBytes  int64         // TATIB_MAX_BODY_BYTES
	// MaxUploadBytes caps multipart bodies (file uploads); 0 means
	// DefaultMaxUploadBytes.
	MaxUploadBytes int64 // TATIB_MAX_UPLOAD_BYTES
	TrustProxy     bool  // TATIB_TRUST_PROXY: take the client address from X-Forwarded-For
	// MessagingWorkers is how many parent messages this process sends at
	// once; 0 sends none (another replica does).
	MessagingWorkers int // TATIB_MESSAGING_WORKERS (default 2)
}

// FromEnv reads the configuration. repoRoot is where the default data folder
// lives.
func FromEnv(getenv func(string) string) (Config, error) {
	c := Config{
		Addr:              or(getenv("TATIB_ADDR"), "127.0.0.1:8080"),
		DatabaseURL:       getenv("DATABASE_URL"),
		DatabaseDirectURL: getenv("TATIB_DATABASE_DIRECT_URL"),
		AdminPassword:     getenv("TATIB_ADMIN_PASSWORD"),
		DataDir:           or(getenv("TATIB_DATA_DIR"), ".data"),
		BaseURL:           getenv("TATIB_BASE_URL"),
		Demo:              getenv("TATIB_DEMO") != "0" && getenv("TATIB_DEMO") != "false",
		LogFormat:         or(getenv("TATIB_LOG_FORMAT"), "text"),
		TrustProxy:        getenv("TATIB_TRUST_PROXY") == "1" || getenv("TATIB_TRUST_PROXY") == "true",
	}
	var errs []error
	var err error
	if c.SessionIdle, err = duration(getenv, "TATIB_SESSION_IDLE", 8*time.Hour); err != nil {
		errs = append(errs, err)
	}
	if c.SessionMaxAge, err = duration(getenv, "TATIB_SESSION_MAX_AGE", 30*24*time.Hour); err != nil {
		errs = append(errs, err)
	}
	if c.DBPort, err = integer(getenv, "TATIB_DB_PORT", 54329); err != nil {
		errs = append(errs, err)
	}
	var mb int
	if mb, err = integer(getenv, "TATIB_MAX_BODY_BYTES", 1<<20); err != nil {
		errs = append(errs, err)
	}
	c.MaxBodyBytes = int64(mb)
	if mb, err = integer(getenv, "TATIB_MAX_UPLOAD_BYTES", DefaultMaxUploadBytes); err != nil {
		errs = append(errs, err)
	}
	c.MaxUploadBytes = int64(mb)
	if c.MessagingWorkers, err = integer(getenv, "TATIB_MESSAGING_WORKERS", 2); err != nil {
		errs = append(errs, err)
	}
	if c.DBMaxConns, err = integer(getenv, "TATIB_DB_MAX_CONNS", DefaultDBMaxConns); err != nil {
		errs = append(errs, err)
	}
	if abs, err := filepath.Abs(c.DataDir); err == nil {
		c.DataDir = abs
	}
	if c.BaseURL == "" {
		c.BaseURL = "http://" + c.Addr
	}
	errs = append(errs, c.Validate())
	return c, errors.Join(errs...)
}

// Validate checks rules that span fields.
func (c Config) Validate() error {
	if c.SessionIdle <= 0 || c.SessionMaxAge <= 0 {
		return errors.New("config: TATIB_SESSION_IDLE and TATIB_SESSION_MAX_AGE must be positive")
	}
	if c.SessionIdle > c.SessionMaxAge {
		return errors.New("config: TATIB_SESSION_IDLE must not exceed TATIB_SESSION_MAX_AGE")
	}
	if u, err := url.Parse(c.BaseURL); err != nil || u.Scheme == "" || u.Host == "" {
		return fmt.Errorf("config: TATIB_BASE_URL %q is not an absolute URL", c.BaseURL)
	}
	if c.LogFormat != "text" && c.LogFormat != "json" {
		return fmt.Errorf("config: TATIB_LOG_FORMAT must be text or json, not %q", c.LogFormat)
	}
	if c.MaxBodyBytes < 1024 {
		return errors.New("config: TATIB_MAX_BODY_BYTES must be at least 1024")
	}
	if c.MaxUploadBytes != 0 && c.MaxUploadBytes < c.MaxBodyBytes {
		return errors.New("config: TATIB_MAX_UPLOAD_BYTES must not be below TATIB_MAX_BODY_BYTES")
	}
	if c.MessagingWorkers < 0 || c.MessagingWorkers > 64 {
		return errors.New("config: TATIB_MESSAGING_WORKERS must be 0 to 64")
	}
	if c.PoolConns() < MinPoolConns {
		return fmt.Errorf("config: TATIB_DB_MAX_CONNS must be at least %d: %d listening, %d for migrations and backups, at least %d for requests",
			c.SessionConns()+MinPoolConns, c.ListenConns(), c.SessionConns()-c.ListenConns(), MinPoolConns)
	}
	return nil
}

// DirectURL is where the server opens what needs a session of its own:
// TATIB_DATABASE_DIRECT_URL, else DATABASE_URL.
func (c Config) DirectURL() string {
	if c.DatabaseDirectURL != "" {
		return c.DatabaseDirectURL
	}
	return c.DatabaseURL
}

// MinPoolConns is the smallest pool for requests and workers TATIB_DB_MAX_CONNS may leave.
const MinPoolConns = 2

// ListenConns is how many connections stay open on DirectURL, listening:
// the process's one listener (pg/listen), which serves notifications,
// permission changes and the outbox.
func (c Config) ListenConns() int { return 1 }

// SessionConns is how many connections DirectURL may hold at once: the
// listeners, and two more for the migrations at start or a backup (its
// lock and pg_dump).
func (c Config) SessionConns() int { return c.ListenConns() + 2 }

// PoolConns is the pool on DATABASE_URL for requests and workers: what
// TATIB_DB_MAX_CONNS leaves after SessionConns.
func (c Config) PoolConns() int {
	max := c.DBMaxConns
	if max == 0 {
		max = DefaultDBMaxConns
	}
	return max - c.SessionConns()
}

// Secure reports whether the service is reached over TLS, so cookies get the
// Secure attribute.
func (c Config) Secure() bool {
	u, err := url.Parse(c.BaseURL)
	return err == nil && u.Scheme == "https"
}

func or(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

func duration(getenv func(string) string, key string, def time.Duration) (time.Duration, error) {
	v := getenv(key)
	if v == "" {
		return def, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		return 0, fmt.Errorf("config: %s: %w", key, err)
	}
	return d, nil
}

func integer(getenv func(string) string, key string, def int) (int, error) {
	v := getenv(key)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, fmt.Errorf("config: %s: %w", key, err)
	}
	return n, nil
}

// Env is os.Getenv, for callers.
var Env = os.Getenv
