// Package erasure keeps the erasure ledger: every erasure the product
// promises (a withdrawn face consent, deleted face data, a revoked kiosk, a
// removed user, a data reset), written in the erasure's own transaction, so
// that restoring an older backup does it again (docs/data-safety.md, "A
// restore keeps erasures"). The ledger lives in the erasures table and, so
// that a restore cannot drop it, in a file beside the data folder that
// every server keeps up to date (Background) and every backup refreshes.
package erasure

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/jmoiron/sqlx"
)

// The kinds of erasure; Details hold ids only (the file holds nobody's
// name).
const (
	// FaceConsentWithdrawn: a parent withdrew the face consent; details
	// student_id, consent_id.
	FaceConsentWithdrawn = "face.consent_withdrawn"
	// FaceEnrolmentDeleted: a student's face data was deleted; details
	// student_id.
	FaceEnrolmentDeleted = "face.enrolment_deleted"
	// KioskRevoked: a gate kiosk's token was revoked; details kiosk_id.
	KioskRevoked = "kiosk.revoked"
	// UserRemoved: a user was deleted or deactivated; details user_id.
	UserRemoved = "user.removed"
	// DataReset: data sets were emptied; details sets.
	DataReset = "data.reset"
)

// FileName is the ledger's file in the data folder (TATIB_DATA_DIR).
const FileName = "erasures.jsonl"

// Entry is one erasure.
type Entry struct {
	// Ledger is the database's lineage (erasure_ledger): the file holds
	// the entries of every database this data folder served.
	Ledger  string          `json:"ledger" db:"-"`
	Key     string          `json:"key" db:"key"`
	Kind    string          `json:"kind" db:"kind"`
	At      time.Time       `json:"at" db:"at"`
	Details json.RawMessage `json:"details" db:"details"`
}

// Int is the details' number name (an id), 0 when absent.
func (e Entry) Int(name string) int64 {
	var m map[string]json.Number
	if json.Unmarshal(e.Details, &m) != nil {
		return 0
	}
	n, _ := m[name].Int64()
	return n
}

// Strings is the details' list name (the reset's sets).
func (e Entry) Strings(name string) []string {
	var m map[string][]string
	_ = json.Unmarshal(e.Details, &m)
	return m[name]
}

// Record writes an erasure of kind with details in tx, the erasure's own
// transaction; its time is the transaction's. The first one gives the
// database its lineage.
func Record(ctx context.Context, tx sqlx.ExtContext, kind string, details map[string]any) error {
	b, err := json.Marshal(details)
	if err != nil {
		return fmt.Errorf("erasure: details: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO erasure_ledger (lineage) VALUES ($1) ON CONFLICT (id) DO NOTHING`, newKey()); err != nil {
		return fmt.Errorf("erasure: lineage: %w", err)
	}
	const q = `INSERT INTO erasures (key, kind, details) VALUES ($1, $2, $3)`
	if _, err := tx.ExecContext(ctx, q, newKey(), kind, string(b)); err != nil {
		return fmt.Errorf("erasure: record: %w", err)
	}
	return nil
}

func newKey() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// Load reads the database's lineage and whole ledger, oldest first. A
// database without the tables (before this version, or empty) has lineage
// "" and no entries.
func Load(ctx context.Context, q sqlx.QueryerContext) (string, []Entry, error) {
	lineage, err := Lineage(ctx, q)
	if err != nil || lineage == "" {
		return "", []Entry{}, err
	}
	out := []Entry{}
	if err := sqlx.SelectContext(ctx, q, &out, `SELECT key, kind, at, details FROM erasures ORDER BY at, id`); err != nil {
		return "", nil, fmt.Errorf("erasure: load: %w", err)
	}
	for i := range out {
		out[i].Ledger = lineage
	}
	return lineage, out, nil
}

// Lineage is the database's ledger lineage, "" when it has none (a
// database before this version, or one that never erased anything).
func Lineage(ctx context.Context, q sqlx.QueryerContext) (string, error) {
	var exists bool
	if err := sqlx.GetContext(ctx, q, &exists, `SELECT to_regclass('public.erasure_ledger') IS NOT NULL`); err != nil {
		return "", fmt.Errorf("erasure: lineage: %w", err)
	}
	if !exists {
		return "", nil
	}
	var lineage string
	if err := sqlx.GetContext(ctx, q, &lineage, `SELECT coalesce((SELECT lineage FROM erasure_ledger), '')`); err != nil {
		return "", fmt.Errorf("erasure: lineage: %w", err)
	}
	return lineage, nil
}

// Adopt makes lineage the database's (a restore of a backup without one
// continues the lineage of the database it replaced).
func Adopt(ctx context.Context, tx sqlx.ExecerContext, lineage string) error {
	const q = `INSERT INTO erasure_ledger (lineage) VALUES ($1) ON CONFLICT (id) DO UPDATE SET lineage = EXCLUDED.lineage`
	if _, err := tx.ExecContext(ctx, q, lineage); err != nil {
		return fmt.Errorf("erasure: adopt: %w", err)
	}
	return nil
}

// Missing returns the entries of the database's lineage in ledger that
// its own ledger lacks (those made after its backup was taken), oldest
// first.
func Missing(ctx context.Context, q sqlx.QueryerContext, ledger []Entry) ([]Entry, error) {
	lineage, have, err := Load(ctx, q)
	if err != nil {
		return nil, err
	}
	keys := map[string]bool{}
	for _, e := range have {
		keys[e.Key] = true
	}
	var out []Entry
	for _, e := range Merge(ledger) {
		if e.Ledger == lineage && !keys[e.Key] {
			out = append(out, e)
		}
	}
	return out, nil
}

// Add writes entries (applied again by a restore) into the database's
// ledger, so the next restore knows them.
func Add(ctx context.Context, tx sqlx.ExecerContext, entries []Entry) error {
	for _, e := range entries {
		const q = `INSERT INTO erasures (key, kind, at, details, reapplied_at) VALUES ($1, $2, $3, $4, now()) ON CONFLICT (key) DO NOTHING`
		if _, err := tx.ExecContext(ctx, q, e.Key, e.Kind, e.At, string(e.Details)); err != nil {
			return fmt.Errorf("erasure: add: %w", err)
		}
	}
	return nil
}

// Merge is the union of ledgers, one entry per key, oldest first.
func Merge(ledgers ...[]Entry) []Entry {
	seen := map[string]bool{}
	out := []Entry{}
	for _, l := range ledgers {
		for _, e := range l {
			if !seen[e.Key] {
				seen[e.Key] = true
				out = append(out, e)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b Entry) int { return a.At.Compare(b.At) })
	return out
}

// ErrNoFile is ReadFile's error when there is no ledger file.
var ErrNoFile = errors.New("erasure: no ledger file")

// ReadFile reads the ledger file at path (one JSON entry a line).
func ReadFile(path string) ([]Entry, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, ErrNoFile
	}
	if err != nil {
		return nil, fmt.Errorf("erasure: %w", err)
	}
	out := []Entry{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var e Entry
		if err := json.Unmarshal(line, &e); err != nil || e.Key == "" || e.Kind == "" || e.Ledger == "" {
			return nil, fmt.Errorf("erasure: %s line %d is not a ledger entry", path, n)
		}
		out = append(out, e)
	}
	return out, sc.Err()
}

// WriteFile replaces the ledger file at path with entries, whole or not at
// all (written beside it, then renamed).
func WriteFile(path string, entries []Entry) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	for _, e := range entries {
		if err := enc.Encode(e); err != nil {
			return fmt.Errorf("erasure: %w", err)
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("erasure: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), FileName+".*.part")
	if err != nil {
		return fmt.Errorf("erasure: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(buf.Bytes()); err != nil {
		tmp.Close()
		return fmt.Errorf("erasure: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("erasure: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("erasure: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("erasure: %w", err)
	}
	return nil
}

// Mirror writes the database's ledger, merged with what the file at path
// already holds (entries of a database a restore replaced, or of another
// database), to the file.
func Mirror(ctx context.Context, q sqlx.QueryerContext, path string) (int, error) {
	_, have, err := Load(ctx, q)
	if err != nil {
		return 0, err
	}
	old, err := ReadFile(path)
	if err != nil && !errors.Is(err, ErrNoFile) {
		return 0, err
	}
	all := Merge(old, have)
	if err == nil && len(all) == len(old) {
		return len(all), nil // nothing new
	}
	return len(all), WriteFile(path, all)
}

// MirrorEvery is how often Background copies the ledger to its file.
const MirrorEvery = time.Minute

// Background keeps the ledger file in the data folder up to date with the
// database (at start, then every MirrorEvery), so a restore on this
// machine finds every erasure even when the database is gone. It returns
// when ctx ends.
func Background(ctx context.Context, db *sqlx.DB, dataDir string, log *slog.Logger) {
	path := filepath.Join(dataDir, FileName)
	t := time.NewTicker(MirrorEvery)
	defer t.Stop()
	for {
		if _, err := Mirror(ctx, db, path); err != nil && ctx.Err() == nil {
			log.Warn("erasure ledger: cannot write its file; a restore on this machine will need the database's own", "file", path, "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
