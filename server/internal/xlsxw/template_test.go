package xlsxw_test

import (
	"testing"

	"github.com/tatib/tatib/server/internal/locale"
	"github.com/tatib/tatib/server/internal/violationtype"
	"github.com/tatib/tatib/server/internal/xlsxw/xlsxwtest"
)

// The violation-type import template used to declare <dimension ref="A1">
// over five columns, so openpyxl in read-only mode saw one column.
func TestTypeImportTemplateReadsBackInOpenpyxl(t *testing.T) {
	data, err := violationtype.Template(locale.ID)
	if err != nil {
		t.Fatal(err)
	}
	if m := dimension.FindSubmatch(unzip(t, data)["xl/worksheets/sheet1.xml"]); m == nil || string(m[1]) != "A1:E4" {
		t.Fatalf("dimension %q, want A1:E4", m)
	}
	sh := xlsxwtest.Openpyxl(t, data)
	if sh.MaxColumn != 5 || len(sh.Rows) != 4 || len(sh.Rows[0]) != 5 || sh.Rows[0][4] != "deskripsi" {
		t.Fatalf("openpyxl: %d columns, rows %v", sh.MaxColumn, sh.Rows)
	}
}
