package portal

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/server/internal/violation"
	"github.com/tatib/tatib/shared/api"
)

// MaxExcusePhotos is how many pictures an excuse carries (a doctor's note,
// a letter): the whole request stays under the server's upload limit.
const MaxExcusePhotos = 3

const maxDataPart = 64 << 10

// readExcuse reads an excuse as JSON, or as multipart with the JSON in the
// part "data" and up to MaxExcusePhotos parts "photos", each re-encoded by
// violation.PreparePhoto as it arrives (EXIF stripped).
func readExcuse(r *http.Request) (api.ExcuseInput, []violation.Photo, error) {
	var in api.ExcuseInput
	mr, err := r.MultipartReader()
	if errors.Is(err, http.ErrNotMultipart) {
		return in, nil, httpx.DecodeJSON(r, &in)
	}
	if err != nil {
		return in, nil, apperr.New(apperr.BadRequest, "portal.multipart_unreadable")
	}
	var photos []violation.Photo
	f := apperr.Fields{}
	seen, count := false, 0
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return in, nil, partError(err)
		}
		switch part.FormName() {
		case "data":
			b, err := io.ReadAll(io.LimitReader(part, maxDataPart+1))
			if err != nil {
				return in, nil, partError(err)
			}
			if len(b) > maxDataPart {
				return in, nil, apperr.New(apperr.TooLarge, "request.too_large", "limit", maxDataPart)
			}
			jr := &http.Request{Header: http.Header{"Content-Type": {"application/json"}}, Body: io.NopCloser(bytes.NewReader(b))}
			if err := httpx.DecodeJSON(jr, &in); err != nil {
				return in, nil, err
			}
			seen = true
		case "photos":
			count++
			b, err := io.ReadAll(io.LimitReader(part, violation.MaxPhotoBytes+1))
			if err != nil {
				return in, nil, partError(err)
			}
			if count > MaxExcusePhotos {
				f.Add("photos", "portal.excuse.too_many_photos", "max", MaxExcusePhotos)
				continue
			}
			if len(b) == 0 {
				continue
			}
			name := "foto-" + strconv.Itoa(count)
			if fn := part.FileName(); fn != "" && len(fn) <= 100 {
				name = fn
			}
			p, err := violation.PreparePhoto(r.Context(), "photos", name, b)
			if e, ok := apperr.As(err); ok && e.Code == apperr.Invalid {
				for k, m := range e.Fields {
					f[k] = m
				}
				continue
			}
			if err != nil {
				return in, nil, err
			}
			photos = append(photos, p)
		default:
			return in, nil, apperr.New(apperr.BadRequest, "portal.unknown_part", "name", httpx.CleanHeader(part.FormName(), 40))
		}
	}
	if !seen {
		f.Add("data", "portal.data_required")
	}
	return in, photos, f.Err()
}

func partError(err error) error {
	var mb *http.MaxBytesError
	if errors.As(err, &mb) {
		return apperr.New(apperr.TooLarge, "request.too_large", "limit", mb.Limit)
	}
	return apperr.New(apperr.BadRequest, "portal.multipart_unreadable")
}

func insertExcusePhotos(ctx context.Context, tx *sqlx.Tx, excuseID int64, photos []violation.Photo) error {
	if len(photos) == 0 {
		return nil
	}
	n := len(photos)
	pos, ws, hs := make([]int64, n), make([]int64, n), make([]int64, n)
	imgs, thumbs := make(pq.ByteaArray, n), make(pq.ByteaArray, n)
	for i, p := range photos {
		pos[i], ws[i], hs[i], imgs[i], thumbs[i] = int64(i+1), int64(p.Width), int64(p.Height), p.Image, p.Thumbnail
	}
	const q = `INSERT INTO excuse_photos (excuse_id, position, width, height, image, thumbnail)
		SELECT $1, p.pos, p.w, p.h, p.image, p.thumb FROM unnest($2::smallint[], $3::int[], $4::int[], $5::bytea[], $6::bytea[]) AS p(pos, w, h, image, thumb)`
	if _, err := tx.ExecContext(ctx, q, excuseID, pq.Array(pos), pq.Array(ws), pq.Array(hs), imgs, thumbs); err != nil {
		return fmt.Errorf("portal: excuse photos: %w", err)
	}
	return nil
}

// ExcusePhoto returns an excuse's photo (or its thumbnail) for staff in
// scope.
func ExcusePhoto(ctx context.Context, db *sqlx.DB, homeroom, excuseID int64, position int, thumbnail bool) ([]byte, error) {
	col := "image"
	if thumbnail {
		col = "thumbnail"
	}
	var b []byte
	err := db.GetContext(ctx, &b, `SELECT p.`+col+` FROM excuse_photos p JOIN excuses e ON e.id = p.excuse_id
		WHERE p.excuse_id = $2 AND p.position = $3 AND `+studentScope("e.student_id", "$1"), homeroom, excuseID, position)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "portal.photo_not_found")
	}
	if err != nil {
		return nil, fmt.Errorf("portal: excuse photo: %w", err)
	}
	return b, nil
}
