package points

import (
	"strings"
	"testing"

	"github.com/tatib/tatib/server/internal/pg/pgtest"
)

// The function ledger_read (migration 00192) runs readSQL: a change of one
// without the other is a new migration forgotten.
func TestReadFunctionIsReadSQL(t *testing.T) {
	db := pgtest.New(t)
	var src string
	if err := db.Get(&src, `SELECT prosrc FROM pg_proc WHERE proname = 'ledger_read'`); err != nil {
		t.Fatal(err)
	}
	if norm := func(s string) string { return strings.Join(strings.Fields(s), " ") }; !strings.Contains(norm(src), norm(readSQL)) {
		t.Fatalf("ledger_read does not run readSQL; replace it in a new migration:\n%s", src)
	}
}

// The function point_audit_notify (migration 00197) runs pointAuditSQL,
// entrySQL and then notify_violations with the parameters after theirs:
// a change of one without the other is a new migration forgotten.
func TestPointAuditFunctionIsItsSQL(t *testing.T) {
	db := pgtest.New(t)
	var src string
	if err := db.Get(&src, `SELECT prosrc FROM pg_proc WHERE proname = $1`, pointAuditNotify); err != nil {
		t.Fatal(err)
	}
	norm := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	want := norm(pointAuditSQL) + "; " + norm(entrySQL) + "; PERFORM notify_violations($15, $16, $17, $18);"
	if !strings.Contains(norm(src), want) {
		t.Fatalf("%s does not run pointAuditSQL, entrySQL and notify_violations; replace it in a new migration:\n%s", pointAuditNotify, src)
	}
}
