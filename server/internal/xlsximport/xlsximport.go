// Package xlsximport is the HTTP side of a master-data import from an .xlsx
// file, shared by the violation types and the achievement types: the
// template download and the upload of the file (the multipart part "file",
// read into memory under a limit). Reading the sheet, checking its header
// and rows, the preview (?dry_run=1) and the import with duplicates skipped
// are each feature's own, given the rows this package hands over.
package xlsximport

import (
	"errors"
	"io"
	"net/http"
	"strconv"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/server/internal/locale"
)

// ContentType is the media type of .xlsx files.
const ContentType = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

// TemplateHandler serves GET …/import-template: the template build makes
// in the request's language, as a download named filename.
func TemplateHandler(filename string, build func(locale.Lang) ([]byte, error)) httpx.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		b, err := build(locale.FromContext(r.Context()))
		if err != nil {
			return err
		}
		return ServeTemplate(w, filename, b)
	}
}

// ServeTemplate answers a built template as a download named filename.
func ServeTemplate(w http.ResponseWriter, filename string, b []byte) error {
	w.Header().Set("Content-Type", ContentType)
	w.Header().Set("Content-Disposition", `attachment; filename="`+filename+`"`)
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.Header().Set("Cache-Control", "no-store")
	_, err := w.Write(b)
	return err
}

// Upload describes the upload of an import file: the multipart part "file"
// of at most MaxBytes, in a body of at most MaxBytes+Slack (the envelope).
type Upload struct {
	MaxBytes int
	Slack    int
	// Message keys (400): a multipart body that cannot be read, and a file
	// part that breaks off ("" : Unreadable).
	Unreadable, Incomplete string
	// BodyTooLarge answers a body over its limit; nil: the general 413
	// request.too_large with the limit.
	BodyTooLarge func(limit int64) error
	// Name is the file's name as the audit log keeps it; nil: at most 200
	// bytes of it, control characters dropped.
	Name func(string) string
}

// TooLarge is the refusal of a file over MaxBytes.
func (u Upload) TooLarge() error {
	return apperr.New(apperr.TooLarge, "violationtype.file.too_large", "mb", u.MaxBytes>>20)
}

// Read reads the file of the request (the first part "file"; other parts
// before it are passed over) and answers its name and content. The server's
// JSON body limit does not apply to multipart bodies, so the limit is
// enforced here.
func (u Upload) Read(w http.ResponseWriter, r *http.Request) (name string, data []byte, err error) {
	limit := int64(u.MaxBytes + u.Slack)
	if r.ContentLength > limit {
		return "", nil, u.bodyTooLarge(limit)
	}
	r.Body = http.MaxBytesReader(w, r.Body, limit)
	mr, err := r.MultipartReader()
	if err != nil {
		return "", nil, apperr.New(apperr.BadRequest, "violationtype.request.not_multipart")
	}
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return "", nil, apperr.New(apperr.Invalid, "violationtype.file.required").WithField("file", "violationtype.file.required")
		}
		if err != nil {
			return "", nil, u.partError(err, u.Unreadable)
		}
		if part.FormName() != "file" {
			_ = part.Close()
			continue
		}
		if u.Name != nil {
			name = u.Name(part.FileName())
		} else {
			name = httpx.CleanHeader(part.FileName(), 200)
		}
		b, err := io.ReadAll(io.LimitReader(part, int64(u.MaxBytes)+1))
		if err != nil {
			key := u.Incomplete
			if key == "" {
				key = u.Unreadable
			}
			return "", nil, u.partError(err, key)
		}
		if len(b) > u.MaxBytes {
			return "", nil, u.TooLarge()
		}
		return name, b, nil
	}
}

func (u Upload) partError(err error, key string) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return u.bodyTooLarge(mbe.Limit)
	}
	return apperr.New(apperr.BadRequest, key)
}

func (u Upload) bodyTooLarge(limit int64) error {
	if u.BodyTooLarge != nil {
		return u.BodyTooLarge(limit)
	}
	return apperr.New(apperr.TooLarge, "request.too_large", "limit", limit)
}
