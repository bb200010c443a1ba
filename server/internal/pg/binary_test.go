package pg_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/lib/pq"

	"github.com/tatib/tatib/server/internal/pg"
	"github.com/tatib/tatib/server/internal/pg/pgtest"
)

// TestBinaryParameters: with every query in one round trip
// (binary_parameters, as pg.Open and pgtest connect) each kind of
// parameter Tatib sends arrives intact: bytea with NUL and backslashes,
// arrays, timestamps, JSON as text into jsonb. A []byte into jsonb is
// refused, which is why JSON goes as a string.
func TestBinaryParameters(t *testing.T) {
	t.Parallel()
	db, err := pg.Open(context.Background(), pgtest.NewURL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	db.MustExec(`CREATE TABLE kinds (b bytea, j jsonb, t timestamptz, n bigint[], s text[], bs bytea[], x text)`)
	raw := []byte{0, '\\', 'x', 0xff, '"', 0, 1}
	at := time.Date(2026, 7, 13, 6, 45, 1, 123456000, time.FixedZone("WIB", 7*3600))
	doc, _ := json.Marshal(map[string]any{"nama": "Budi \"B\" \\ Santoso", "poin": 15})
	_, err = db.ExecContext(ctx, `INSERT INTO kinds VALUES ($1, $2, $3, $4, $5, $6, $7)`,
		raw, string(doc), at, pq.Array([]int64{1, -2, 1 << 40}), pq.Array([]string{"a,b", `"q"`, "", "NULL"}),
		pq.ByteaArray([][]byte{raw, {}}), []byte("teks biasa"))
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		B  []byte         `db:"b"`
		J  string         `db:"j"`
		T  time.Time      `db:"t"`
		N  pq.Int64Array  `db:"n"`
		S  pq.StringArray `db:"s"`
		BS pq.ByteaArray  `db:"bs"`
		X  string         `db:"x"`
	}
	if err := db.GetContext(ctx, &got, `SELECT b, j, t, n, s, bs, x FROM kinds WHERE b = $1 AND t = $2`, raw, at); err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(got.J), &m); err != nil || m["nama"] != "Budi \"B\" \\ Santoso" || m["poin"] != 15.0 {
		t.Errorf("jsonb: %s %v", got.J, err)
	}
	if !bytes.Equal(got.B, raw) || !got.T.Equal(at) || len(got.N) != 3 || got.N[2] != 1<<40 ||
		strings.Join(got.S, "|") != `a,b|"q"||NULL` || len(got.BS) != 2 || !bytes.Equal(got.BS[0], raw) || got.X != "teks biasa" {
		t.Errorf("%+v", got)
	}
	var n int
	if err := db.GetContext(ctx, &n, `SELECT count(*) FROM kinds WHERE b = ANY($1::bytea[]) AND j @> $2::jsonb`,
		pq.ByteaArray([][]byte{raw}), `{"poin": 15}`); err != nil || n != 1 {
		t.Errorf("arrays and jsonb in WHERE: %d %v", n, err)
	}
	_, err = db.ExecContext(ctx, `UPDATE kinds SET j = $1`, doc)
	var pe *pq.Error
	if !errors.As(err, &pe) || !strings.Contains(pe.Message, "jsonb") {
		t.Errorf("[]byte into jsonb: %v", err)
	}
}

func TestWithBinaryParameters(t *testing.T) {
	for in, want := range map[string]string{
		"postgres://u:p@h:5432/d?sslmode=disable":  "postgres://u:p@h:5432/d?binary_parameters=yes&sslmode=disable",
		"postgresql://u@h/d?binary_parameters=yes": "postgresql://u@h/d?binary_parameters=yes",
		"host=/run/postgresql dbname=tatib":        "host=/run/postgresql dbname=tatib binary_parameters=yes",
		"host=h dbname=d binary_parameters=yes":    "host=h dbname=d binary_parameters=yes binary_parameters=yes",
	} {
		if got, err := pg.WithBinaryParameters(in); err != nil || got != want {
			t.Errorf("%q: %q %v", in, got, err)
		}
	}
	for _, in := range []string{"postgres://u@h/d?binary_parameters=no", "host=h binary_parameters=off"} {
		if _, err := pg.WithBinaryParameters(in); err == nil || !strings.Contains(err.Error(), "remove binary_parameters") {
			t.Errorf("%q: %v", in, err)
		}
	}
}
