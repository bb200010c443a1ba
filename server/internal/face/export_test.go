package face

import (
	"testing"
	"time"
)

// SetNow replaces the package's clock for one (non-parallel) test.
func SetNow(t testing.TB, f func() time.Time) {
	old := now
	now = f
	t.Cleanup(func() { now = old })
}
