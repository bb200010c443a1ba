package school

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	_ "image/jpeg" // logos may be uploaded as JPEG
	"image/png"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/server/internal/pg"
)

// Logo limits. An upload is checked by its content (PNG or JPEG), at most
// MaxLogoBytes and MaxLogoPixels on either side (read from the header
// before the image is decoded, so a small file cannot claim a huge
// picture), then stored re-encoded as PNG with the longer side at most
// LogoStoredPixels: what the letterhead and the sign-in page need, and no
// metadata of the original file.
const (
	MaxLogoBytes     = 2 << 20
	MaxLogoPixels    = 4000
	LogoStoredPixels = 512
)

// LogoURL is where the logo is served (public).
const LogoURL = "/api/v1/school/logo"

// Logo describes the stored logo.
type Logo struct {
	Width     int       `json:"width" db:"width"`
	Height    int       `json:"height" db:"height"`
	SHA256    string    `json:"-" db:"sha256"`
	URL       string    `json:"url" db:"-" jsonschema_description:"/api/v1/school/logo?v=<hash prefix>"`
	UpdatedAt time.Time `json:"updated_at" db:"updated_at"`
}

func (l *Logo) setURL() { l.URL = LogoURL + "?v=" + l.SHA256[:12] }

// LoadLogo returns the stored logo as PNG, or nil when none was uploaded.
// Letters read it for their letterhead.
func LoadLogo(ctx context.Context, q sqlx.QueryerContext) ([]byte, error) {
	var b []byte
	err := q.QueryRowxContext(ctx, `SELECT image FROM school_logo`).Scan(&b)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("school: load logo: %w", err)
	}
	return b, nil
}

// logoInfo returns the stored logo's description; found is false when none.
func logoInfo(ctx context.Context, q sqlx.QueryerContext) (Logo, bool, error) {
	var l Logo
	err := sqlx.GetContext(ctx, q, &l, `SELECT width, height, sha256, updated_at FROM school_logo`)
	if errors.Is(err, sql.ErrNoRows) {
		return Logo{}, false, nil
	}
	if err != nil {
		return Logo{}, false, fmt.Errorf("school: logo: %w", err)
	}
	l.setURL()
	return l, true, nil
}

// PrepareLogo checks an uploaded logo and returns it re-encoded as PNG, at
// most LogoStoredPixels on its longer side.
func PrepareLogo(data []byte) ([]byte, int, int, error) {
	if len(data) > MaxLogoBytes {
		return nil, 0, 0, logoTooLarge()
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil || (format != "png" && format != "jpeg") {
		return nil, 0, 0, apperr.New(apperr.Invalid, "school.logo.invalid").WithField("logo", "school.logo.type")
	}
	if cfg.Width < 1 || cfg.Height < 1 || cfg.Width > MaxLogoPixels || cfg.Height > MaxLogoPixels {
		return nil, 0, 0, apperr.New(apperr.Invalid, "school.logo.invalid").WithField("logo", "school.logo.dimensions", "max", MaxLogoPixels)
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, 0, 0, apperr.New(apperr.Invalid, "school.logo.invalid").WithField("logo", "school.logo.unreadable")
	}
	out := shrink(img, LogoStoredPixels)
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(&buf, out); err != nil {
		return nil, 0, 0, fmt.Errorf("school: encode logo: %w", err)
	}
	b := out.Bounds()
	return buf.Bytes(), b.Dx(), b.Dy(), nil
}

// shrink returns img as 8-bit NRGBA (what fpdf reads; it refuses 16-bit
// PNG) with its longer side at most limit, by averaging each target
// pixel's area of the source (good for logos, which have hard edges).
func shrink(img image.Image, limit int) *image.NRGBA {
	b := img.Bounds()
	sw, sh := b.Dx(), b.Dy()
	src := image.NewNRGBA(image.Rect(0, 0, sw, sh))
	draw.Draw(src, src.Bounds(), img, b.Min, draw.Src)
	if sw <= limit && sh <= limit {
		return src
	}
	dw, dh := limit, sh*limit/sw
	if sh > sw {
		dw, dh = sw*limit/sh, limit
	}
	dw, dh = max(dw, 1), max(dh, 1)
	dst := image.NewNRGBA(image.Rect(0, 0, dw, dh))
	for y := 0; y < dh; y++ {
		y0, y1 := y*sh/dh, max((y+1)*sh/dh, y*sh/dh+1)
		for x := 0; x < dw; x++ {
			x0, x1 := x*sw/dw, max((x+1)*sw/dw, x*sw/dw+1)
			// Premultiply while averaging so transparent pixels add no colour.
			var r, g, bl, a, n uint64
			for sy := y0; sy < y1; sy++ {
				row := src.Pix[sy*src.Stride:]
				for sx := x0; sx < x1; sx++ {
					p := row[sx*4 : sx*4+4]
					pa := uint64(p[3])
					r += uint64(p[0]) * pa
					g += uint64(p[1]) * pa
					bl += uint64(p[2]) * pa
					a += pa
					n++
				}
			}
			c := color.NRGBA{}
			if a > 0 {
				c = color.NRGBA{R: uint8(r / a), G: uint8(g / a), B: uint8(bl / a), A: uint8(a / n)}
			}
			dst.SetNRGBA(x, y, c)
		}
	}
	return dst
}

// SaveLogo stores a prepared logo in place of the old one, audited.
func SaveLogo(ctx context.Context, db *sqlx.DB, actor audit.Actor, img []byte, w, h int) (Logo, error) {
	sum := sha256.Sum256(img)
	l := Logo{Width: w, Height: h, SHA256: hex.EncodeToString(sum[:])}
	var by *int64
	if actor.ID != 0 {
		by = &actor.ID
	}
	err := pg.InTx(ctx, db, func(tx *sqlx.Tx) error {
		const q = `INSERT INTO school_logo (id, image, width, height, sha256, updated_at, updated_by)
			VALUES (true, $1, $2, $3, $4, now(), $5)
			ON CONFLICT (id) DO UPDATE SET image = EXCLUDED.image, width = EXCLUDED.width, height = EXCLUDED.height,
				sha256 = EXCLUDED.sha256, updated_at = now(), updated_by = EXCLUDED.updated_by
			RETURNING updated_at`
		if err := tx.QueryRowxContext(ctx, q, img, w, h, l.SHA256, by).Scan(&l.UpdatedAt); err != nil {
			return fmt.Errorf("school: save logo: %w", err)
		}
		return audit.Record(ctx, tx, actor, "settings.school.logo.update", "setting", "school_logo",
			map[string]any{"width": w, "height": h, "bytes": len(img), "sha256": l.SHA256})
	})
	if err != nil {
		return Logo{}, err
	}
	l.setURL()
	return l, nil
}

// DeleteLogo removes the logo, audited; removing none is not an error.
func DeleteLogo(ctx context.Context, db *sqlx.DB, actor audit.Actor) error {
	return pg.InTx(ctx, db, func(tx *sqlx.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM school_logo`)
		if err != nil {
			return fmt.Errorf("school: delete logo: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil
		}
		return audit.Record(ctx, tx, actor, "settings.school.logo.delete", "setting", "school_logo", nil)
	})
}

func logoTooLarge() error {
	return apperr.New(apperr.TooLarge, "school.logo.too_large", "max_mb", MaxLogoBytes>>20).
		WithField("logo", "school.logo.too_large", "max_mb", MaxLogoBytes>>20)
}

// logoSlack is room for the multipart envelope around the file.
const logoSlack = 64 << 10

func (h *Handler) putLogo(w http.ResponseWriter, r *http.Request) error {
	if r.ContentLength > MaxLogoBytes+logoSlack {
		return logoTooLarge()
	}
	r.Body = http.MaxBytesReader(w, r.Body, MaxLogoBytes+logoSlack)
	mr, err := r.MultipartReader()
	if err != nil {
		return apperr.New(apperr.BadRequest, "school.logo.not_multipart")
	}
	var data []byte
	for data == nil {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			if mbe := (*http.MaxBytesError)(nil); errors.As(err, &mbe) {
				return logoTooLarge()
			}
			return apperr.New(apperr.BadRequest, "school.logo.unreadable_upload")
		}
		if part.FormName() != "logo" {
			_ = part.Close()
			continue
		}
		b, err := io.ReadAll(io.LimitReader(part, MaxLogoBytes+1))
		if err != nil {
			if mbe := (*http.MaxBytesError)(nil); errors.As(err, &mbe) {
				return logoTooLarge()
			}
			return apperr.New(apperr.BadRequest, "school.logo.unreadable_upload")
		}
		if len(b) > MaxLogoBytes {
			return logoTooLarge()
		}
		data = b
	}
	if len(data) == 0 {
		return apperr.New(apperr.Invalid, "school.logo.invalid").WithField("logo", "school.logo.required")
	}
	img, width, height, err := PrepareLogo(data)
	if err != nil {
		return err
	}
	l, err := SaveLogo(r.Context(), h.db, h.auth.Actor(r), img, width, height)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, l)
}

func (h *Handler) deleteLogo(w http.ResponseWriter, r *http.Request) error {
	if err := DeleteLogo(r.Context(), h.db, h.auth.Actor(r)); err != nil {
		return err
	}
	return httpx.NoContent(w)
}

// getLogo serves the logo to anyone (the sign-in page shows it). The URL
// with ?v=<hash> (as LogoURL answers) may be cached for good; the plain URL
// is revalidated with its ETag.
func (h *Handler) getLogo(w http.ResponseWriter, r *http.Request) error {
	var l Logo
	var img []byte
	err := h.db.QueryRowxContext(r.Context(), `SELECT image, sha256 FROM school_logo`).Scan(&img, &l.SHA256)
	if errors.Is(err, sql.ErrNoRows) {
		return apperr.New(apperr.NotFound, "school.logo.none")
	}
	if err != nil {
		return fmt.Errorf("school: logo: %w", err)
	}
	etag := `"` + l.SHA256[:32] + `"`
	w.Header().Set("ETag", etag)
	if v := r.URL.Query().Get("v"); v != "" && strings.HasPrefix(l.SHA256, v) && len(v) >= 8 {
		w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		w.Header().Set("Cache-Control", "public, max-age=300, must-revalidate")
	}
	if match := r.Header.Get("If-None-Match"); match != "" && strings.Contains(match, etag) {
		w.WriteHeader(http.StatusNotModified)
		return nil
	}
	w.Header().Set("Content-Type", "image/png")
	w.Header().Set("Content-Length", strconv.Itoa(len(img)))
	w.WriteHeader(http.StatusOK)
	_, err = w.Write(img)
	return err
}
