package portal

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/violation"
	"github.com/tatib/tatib/shared/api"
)

// MaxExcusePhotos is how many pictures an excuse carries (a doctor's note,
// a letter): the whole request stays under the server's upload limit.
const MaxExcusePhotos = 3

// excuseForm reads an excuse: JSON, or multipart with the JSON in the part
// "data" and up to MaxExcusePhotos parts "photos", each re-encoded by
// violation.PreparePhoto as it arrives (EXIF stripped).
var excuseForm = violation.PhotoForm{
	DataPart: "data", PhotoPart: "photos", MaxPhotos: MaxExcusePhotos, MaxData: 64 << 10, FileNames: true,
	Unreadable:  "portal.multipart_unreadable",
	UnknownPart: "portal.unknown_part",
	TooMany:     "portal.excuse.too_many_photos",
	DataMissing: "portal.data_required", DataMissingField: true,
}

func readExcuse(r *http.Request) (api.ExcuseInput, []violation.Photo, error) {
	var in api.ExcuseInput
	f := apperr.Fields{}
	photos, err := excuseForm.Read(r, &in, f)
	if err != nil {
		return in, nil, err
	}
	return in, photos, f.Err()
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
