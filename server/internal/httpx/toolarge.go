package httpx

import (
	"fmt"

	"github.com/tatib/tatib/server/internal/apperr"
)

type tooLargeErr struct{ limit int64 }

func (e *tooLargeErr) Error() string { return fmt.Sprintf("body over %d bytes", e.limit) }

// Unwrap presents the overflow as an application error.
func (e *tooLargeErr) Unwrap() error {
	return apperr.New(apperr.TooLarge, "request.too_large", "limit", e.limit)
}
