package violation

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"testing"
	"time"

	"golang.org/x/sync/semaphore"

	"github.com/tatib/tatib/server/internal/apperr"
)

func pngOf(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = byte(i)
	}
	img.Set(0, 0, color.White)
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// Decoding waits for its share of the process's pixel budget: a photo whose
// decoded size does not fit beside the decodes in flight waits (and is
// answered 503 when the wait ends), while a small one that fits goes ahead
// (issue 25: three uploads of 5 × 40 MP peaked at 835 MB).
func TestPhotoDecodeBudget(t *testing.T) {
	saved := decodeBudget
	decodeBudget = semaphore.NewWeighted(5_000_000)
	t.Cleanup(func() { decodeBudget = saved })
	big, small := pngOf(t, 1000, 1000), pngOf(t, 100, 100) // 4 MB and 40 kB decoded

	// Another upload's decode holds 4 MB of the 5.
	if !decodeBudget.TryAcquire(4_000_000) {
		t.Fatal("budget busy")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if _, err := PreparePhoto(ctx, "photos", "big.png", big); apperr.Code(err) != apperr.Unavailable {
		t.Fatalf("a photo over the free budget: %v, want 503 after the wait", err)
	}
	if _, err := PreparePhoto(context.Background(), "photos", "small.png", small); err != nil {
		t.Fatalf("a photo that fits beside it: %v", err)
	}
	decodeBudget.Release(4_000_000)
	p, err := PreparePhoto(context.Background(), "photos", "big.png", big)
	if err != nil || p.Width != MaxPhotoSide && p.Width != 1000 {
		t.Fatalf("after the other decode ended: %+v %v", p.Width, err)
	}
	// Every share came back.
	if !decodeBudget.TryAcquire(5_000_000) {
		t.Fatal("a decode kept its share")
	}
}
