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
