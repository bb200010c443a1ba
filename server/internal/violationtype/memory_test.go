package violationtype_test

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tatib/tatib/server/internal/violationtype"
)

// peakHeap runs f and samples the live heap meanwhile; it returns the
// highest sample above the heap before f.
func peakHeap(f func()) uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	base := m.HeapAlloc
	var peak atomic.Uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var s runtime.MemStats
		for {
			runtime.ReadMemStats(&s)
			if s.HeapAlloc > base && s.HeapAlloc-base > peak.Load() {
				peak.Store(s.HeapAlloc - base)
			}
			select {
			case <-stop:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()
	f()
	close(stop)
	wg.Wait()
	return peak.Load()
}

// The largest file the limits let through, and the one that makes the
// import hold the most: 2,000 rows whose descriptions are as long as
// allowed (every one different, so shared strings do not shrink them).
func largestImport(t testing.TB) []byte {
	r := rand.New(rand.NewPCG(1, 2))
	text := func(n int) string {
		var b strings.Builder
		for b.Len() < n {
			b.WriteByte(byte('a' + r.IntN(26)))
			if r.IntN(6) == 0 {
				b.WriteByte(' ')
			}
		}
		return b.String()[:n]
	}
	rows := [][]any{{"kategori", "nama", "poin", "sanksi", "deskripsi"}}
	for i := range violationtype.MaxImportRows {
		rows = append(rows, []any{fmt.Sprintf("Kategori %d", i%12), text(150), i % 100, text(500), text(2000)})
	}
	return xlsx(t, rows)
}

// worstImport is the most the import can be made to hold within its
// limits: 2,000 rows with extra (ignored) columns whose text fills the
// decompressed budget, compressible enough to fit the upload limit.
func worstImport(t testing.TB) []byte {
	r := rand.New(rand.NewPCG(3, 4))
	text := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = "abcd"[r.IntN(4)]
		}
		return string(b)
	}
	rows := [][]any{{"kategori", "nama", "poin", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p", "q", "r", "s", "t"}}
	for i := range violationtype.MaxImportRows {
		row := []any{"Ringan", fmt.Sprintf("Jenis %d", i), 1}
		for range 20 {
			row = append(row, text(340))
		}
		rows = append(rows, row)
	}
	return xlsx(t, rows)
}

// maxPeak is the heap one import may hold above its upload, as
// docs/violation-types.md states it.
const maxPeak = 64 << 20

// Not parallel: it measures the process's heap. The figures are the ones
// docs/violation-types.md states.
func TestImportPeakMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	if raceDetector {
		t.Skip("measured without -race (make test-go runs it so)")
	}
	data := largestImport(t)
	if len(data) > violationtype.MaxImportBytes {
		t.Fatalf("the test file is %d bytes, over the limit", len(data))
	}
	var n int
	peak := peakHeap(func() {
		rows, err := violationtype.ParseImport(data)
		if err != nil {
			t.Fatal(err)
		}
		n = len(rows)
	})
	t.Logf("largest import: file %d KB, %d rows, peak heap %d MB above the upload", len(data)>>10, n, peak>>20)
	if peak > maxPeak {
		t.Errorf("peak heap %d MB; docs/violation-types.md promises at most %d MB per import", peak>>20, maxPeak>>20)
	}

	worst := worstImport(t)
	if len(worst) > violationtype.MaxImportBytes {
		t.Fatalf("the worst file is %d bytes, over the limit", len(worst))
	}
	peak = peakHeap(func() {
		if _, err := violationtype.ParseImport(worst); err != nil {
			t.Fatal(err)
		}
	})
	t.Logf("worst import: file %d KB, peak heap %d MB above the upload", len(worst)>>10, peak>>20)
	if peak > maxPeak {
		t.Errorf("peak heap %d MB; docs/violation-types.md promises at most %d MB per import", peak>>20, maxPeak>>20)
	}
}
