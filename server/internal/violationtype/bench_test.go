package violationtype_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/server/internal/violationtype"
	"github.com/tatib/tatib/shared/perm"
)

// importTarget is the longest a counselor should wait for the largest
// allowed import (2,000 rows); the benchmark prints its time as a ratio.
const importTarget = 5 * time.Second

func fullImportFile(b *testing.B) []byte {
	rows := [][]any{{"kategori", "nama", "poin", "sanksi", "deskripsi"}}
	for i := 0; i < violationtype.MaxImportRows; i++ {
		rows = append(rows, []any{fmt.Sprintf("Kategori %d", i%12), fmt.Sprintf("Pelanggaran nomor %d", i), i % 100,
			"Pembinaan oleh guru BK", "Contoh deskripsi pelanggaran yang cukup panjang untuk baris ini."})
	}
	return xlsx(b, rows)
}

// BenchmarkParseImport2000 reads the largest allowed file: zip checks,
// the formula scan and excelize's row reader.
func BenchmarkParseImport2000(b *testing.B) {
	data := fullImportFile(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	start := time.Now()
	for b.Loop() {
		rows, err := violationtype.ParseImport(data)
		if err != nil || len(rows) != violationtype.MaxImportRows {
			b.Fatalf("%d rows, %v", len(rows), err)
		}
	}
	b.ReportMetric(float64(time.Since(start))/float64(b.N)/float64(importTarget), "x-target")
}

// BenchmarkImport2000 is the whole request: upload, parse, and one
// transaction creating 12 categories and 2,000 types.
func BenchmarkImport2000(b *testing.B) {
	data := fullImportFile(b)
	b.ReportAllocs()
	var total time.Duration
	for b.Loop() {
		b.StopTimer()
		env := apitest.New(b)
		admin := env.As(perm.Admin)
		b.StartTimer()
		start := time.Now()
		res := upload(b, admin, "file", "besar.xlsx", data).Want(200)
		total += time.Since(start)
		var out importResult
		res.JSON(&out)
		if len(out.Created) != violationtype.MaxImportRows {
			b.Fatalf("created %d", len(out.Created))
		}
	}
	b.ReportMetric(float64(total)/float64(b.N)/float64(importTarget), "x-target")
}
