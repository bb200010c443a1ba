package violationtype_test

import (
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/locale"
	"github.com/tatib/tatib/server/internal/violationtype"
)

// FuzzParseImport feeds the import parser arbitrary bytes. Run briefly as a
// normal test (the seeds); longer by hand:
//
//	go test -run '^$' -fuzz=FuzzParseImport -fuzztime=60s ./internal/violationtype/
func FuzzParseImport(f *testing.F) {
	tmpl, err := violationtype.Template(locale.ID)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(tmpl)
	f.Add(xlsx(f, [][]any{{"category", "name", "points"}, {"Ringan", "X", 1}, {"", "", "abc"}}))
	f.Add(xlsx(f, [][]any{{"kategori", "nama", "poin"}, {"Ringan", "Rumus", 1}}, func(x *excelize.File, s string) {
		_ = x.SetCellFormula(s, "C2", "=SUM(1,2)")
	}))
	f.Add(xlsx(f, nil))
	f.Add([]byte("kategori,nama,poin\n"))
	f.Add([]byte("PK\x03\x04"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		rows, err := violationtype.ParseImport(data)
		if err != nil {
			if c := apperr.Code(err); c != apperr.Invalid && c != apperr.TooLarge {
				t.Fatalf("error code %q: %v", c, err)
			}
			return
		}
		if len(rows) == 0 || len(rows) > violationtype.MaxImportRows {
			t.Fatalf("%d rows without an error", len(rows))
		}
		for i := 1; i < len(rows); i++ {
			if rows[i].Num <= rows[i-1].Num {
				t.Fatalf("row numbers not increasing: %d after %d", rows[i].Num, rows[i-1].Num)
			}
		}
	})
}
