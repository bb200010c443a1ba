package violation

import (
	"bytes"
	"context"
	"encoding/binary"
	"image"
	"image/color"
	"image/jpeg"
	"net/http"
	"runtime"
	"time"

	// Decoders image.Decode knows: phone cameras send JPEG, screenshots
	// PNG, messengers sometimes GIF. WebP is refused with its own message
	// (the standard library has no decoder for it).
	_ "image/gif"
	_ "image/png"

	"golang.org/x/sync/semaphore"

	"github.com/tatib/tatib/server/internal/apperr"
)

// Photo is an evidence photo ready to store: re-encoded as JPEG (so no
// EXIF, GPS or device data survives), at most MaxPhotoSide pixels on its
// longest side, turned upright, with a thumbnail of at most
// MaxThumbnailSide.
type Photo struct {
	Width, Height int
	Image         []byte
	Thumbnail     []byte
}

// decodeBudget bounds the bytes of decoded pictures this process holds at
// once, whatever the number of uploads: one 40-megapixel photo (160 MB), or
// many phone photos (12 MP, 48 MB each) side by side. A photo waits for its
// share (pixels × bytes per pixel) and gives it back once downscaled, after
// a collection when it was large, so the garbage of one big decode is gone
// before the next starts (three uploads of 5 × 40 MP peaked at 835 MB with
// two fixed slots). A variable for the test.
var decodeBudget = semaphore.NewWeighted(maxDecodedBytes)

// collectAbove: a decode this large is collected before its share returns.
const collectAbove = 64 << 20

// decodeWait is how long a photo waits for a decode slot before the
// request is answered 503.
const decodeWait = 15 * time.Second

// maxDecodedBytes bounds the memory one decoded photo may take (pixels ×
// bytes per pixel): 40 megapixels at 4 bytes; a 16-bit PNG must be smaller.
const maxDecodedBytes = MaxPhotoPixels * 4

// PreparePhoto checks that data is a JPEG, PNG or GIF picture by its
// content (not its name), no larger than the limits, and re-encodes it.
// field names the form field of the error ("photos"); name is the file's
// name, for the message.
func PreparePhoto(ctx context.Context, field, name string, data []byte) (Photo, error) {
	bad := func(key string, kv ...any) error {
		return invalid(apperr.Fields{field: apperr.M(key, append([]any{"name", name}, kv...)...)})
	}
	if len(data) > MaxPhotoBytes {
		return Photo{}, bad("violation.photo.too_large", "mb", MaxPhotoBytes>>20)
	}
	switch kind := http.DetectContentType(data); kind {
	case "image/jpeg", "image/png", "image/gif":
	case "image/webp", "image/bmp", "image/x-icon":
		return Photo{}, bad("violation.photo.unsupported")
	default:
		return Photo{}, bad("violation.photo.not_image")
	}
	// The header first: a small file can claim a huge picture (a
	// decompression bomb), refused before any pixel is decoded.
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return Photo{}, bad("violation.photo.damaged")
	}
	pixels := int64(cfg.Width) * int64(cfg.Height)
	if cfg.Width <= 0 || cfg.Height <= 0 || pixels > MaxPhotoPixels || pixels*bytesPerPixel(cfg.ColorModel) > maxDecodedBytes {
		return Photo{}, bad("violation.photo.too_many_pixels", "mp", MaxPhotoPixels/1_000_000)
	}
	share := max(1, pixels*bytesPerPixel(cfg.ColorModel))
	wait, cancel := context.WithTimeout(ctx, decodeWait)
	defer cancel()
	if err := decodeBudget.Acquire(wait, share); err != nil {
		return Photo{}, apperr.New(apperr.Unavailable, "violation.photo.busy")
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		img = nil
		releaseDecode(share)
		return Photo{}, bad("violation.photo.damaged")
	}
	small := downscale(img, MaxPhotoSide)
	img = nil
	releaseDecode(share)
	small = orient(small, exifOrientation(data))
	thumb := downscale(small, MaxThumbnailSide)
	var full, th bytes.Buffer
	if err := jpeg.Encode(&full, small, &jpeg.Options{Quality: 85}); err != nil {
		return Photo{}, bad("violation.photo.damaged")
	}
	if err := jpeg.Encode(&th, thumb, &jpeg.Options{Quality: 80}); err != nil {
		return Photo{}, bad("violation.photo.damaged")
	}
	b := small.Bounds()
	return Photo{Width: b.Dx(), Height: b.Dy(), Image: full.Bytes(), Thumbnail: th.Bytes()}, nil
}

// releaseDecode gives a decode's share back, collecting first when it was
// large so its pixels are freed before another decode takes the share.
func releaseDecode(share int64) {
	if share > collectAbove {
		runtime.GC()
	}
	decodeBudget.Release(share)
}

func bytesPerPixel(m color.Model) int64 {
	switch m {
	case color.RGBA64Model, color.NRGBA64Model:
		return 8
	case color.Gray16Model:
		return 2
	default:
		return 4
	}
}

// downscale returns img at most maxSide on its longest side (never
// enlarged), averaging the source pixels under each new pixel (a box
// filter: sharp enough for evidence, and every source pixel counts), on a
// white background where the source is transparent.
func downscale(img image.Image, maxSide int) *image.RGBA {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	dw, dh := w, h
	if w > maxSide || h > maxSide {
		if w >= h {
			dw, dh = maxSide, max(1, (h*maxSide+w/2)/w)
		} else {
			dw, dh = max(1, (w*maxSide+h/2)/h), maxSide
		}
	}
	dst := image.NewRGBA(image.Rect(0, 0, dw, dh))
	px := pixelReader(img)
	for y := 0; y < dh; y++ {
		y0, y1 := y*h/dh, max((y+1)*h/dh, y*h/dh+1)
		for x := 0; x < dw; x++ {
			x0, x1 := x*w/dw, max((x+1)*w/dw, x*w/dw+1)
			var r, g, bl, n uint32
			for sy := y0; sy < y1; sy++ {
				for sx := x0; sx < x1; sx++ {
					cr, cg, cb := px(b.Min.X+sx, b.Min.Y+sy)
					r, g, bl = r+uint32(cr), g+uint32(cg), bl+uint32(cb)
					n++
				}
			}
			o := dst.PixOffset(x, y)
			dst.Pix[o], dst.Pix[o+1], dst.Pix[o+2], dst.Pix[o+3] = uint8(r/n), uint8(g/n), uint8(bl/n), 0xff
		}
	}
	return dst
}

// pixelReader returns a function reading one opaque 8-bit RGB pixel, fast
// for the decoders' usual image types.
func pixelReader(img image.Image) func(x, y int) (uint8, uint8, uint8) {
	over := func(c, a uint32) uint8 { // premultiplied 16-bit over white
		return uint8((c + (0xffff - a)) >> 8)
	}
	switch m := img.(type) {
	case *image.YCbCr:
		return func(x, y int) (uint8, uint8, uint8) {
			c := m.YCbCrAt(x, y)
			return color.YCbCrToRGB(c.Y, c.Cb, c.Cr)
		}
	case *image.RGBA:
		return func(x, y int) (uint8, uint8, uint8) {
			c := m.RGBAAt(x, y)
			a := uint32(c.A) * 0x101
			return over(uint32(c.R)*0x101, a), over(uint32(c.G)*0x101, a), over(uint32(c.B)*0x101, a)
		}
	case *image.NRGBA:
		return func(x, y int) (uint8, uint8, uint8) {
			c := m.NRGBAAt(x, y)
			a := uint32(c.A)
			mix := func(v uint8) uint8 { return uint8((uint32(v)*a + 255*(255-a)) / 255) }
			return mix(c.R), mix(c.G), mix(c.B)
		}
	case *image.Gray:
		return func(x, y int) (uint8, uint8, uint8) {
			v := m.GrayAt(x, y).Y
			return v, v, v
		}
	default:
		return func(x, y int) (uint8, uint8, uint8) {
			r, g, b, a := img.At(x, y).RGBA()
			return over(r, a), over(g, a), over(b, a)
		}
	}
}

// orient turns img upright according to an EXIF orientation (1–8): the
// re-encoded JPEG carries no EXIF, so the rotation a camera left to the
// viewer must be applied to the pixels.
func orient(img *image.RGBA, o int) *image.RGBA {
	if o < 2 || o > 8 {
		return img
	}
	w, h := img.Bounds().Dx(), img.Bounds().Dy()
	dw, dh := w, h
	if o >= 5 {
		dw, dh = h, w
	}
	dst := image.NewRGBA(image.Rect(0, 0, dw, dh))
	for y := 0; y < dh; y++ {
		for x := 0; x < dw; x++ {
			var sx, sy int
			switch o {
			case 2:
				sx, sy = w-1-x, y
			case 3:
				sx, sy = w-1-x, h-1-y
			case 4:
				sx, sy = x, h-1-y
			case 5:
				sx, sy = y, x
			case 6:
				sx, sy = y, h-1-x
			case 7:
				sx, sy = w-1-y, h-1-x
			case 8:
				sx, sy = w-1-y, x
			}
			so, do := img.PixOffset(sx, sy), dst.PixOffset(x, y)
			copy(dst.Pix[do:do+4], img.Pix[so:so+4])
		}
	}
	return dst
}

// exifOrientation reads the orientation tag (0x0112) of a JPEG's EXIF
// segment; 1 (upright) when there is none or it cannot be read.
func exifOrientation(data []byte) int {
	if len(data) < 4 || data[0] != 0xFF || data[1] != 0xD8 {
		return 1
	}
	i := 2
	for i+4 <= len(data) && data[i] == 0xFF {
		marker := data[i+1]
		if marker == 0xDA || marker == 0xD9 { // start of scan, end of image
			return 1
		}
		n := int(binary.BigEndian.Uint16(data[i+2:]))
		if n < 2 || i+2+n > len(data) {
			return 1
		}
		seg := data[i+4 : i+2+n]
		if marker == 0xE1 && len(seg) > 14 && string(seg[:6]) == "Exif\x00\x00" {
			return tiffOrientation(seg[6:])
		}
		i += 2 + n
	}
	return 1
}

func tiffOrientation(t []byte) int {
	if len(t) < 8 {
		return 1
	}
	var bo binary.ByteOrder
	switch string(t[:2]) {
	case "II":
		bo = binary.LittleEndian
	case "MM":
		bo = binary.BigEndian
	default:
		return 1
	}
	ifd := int(bo.Uint32(t[4:]))
	if ifd < 8 || ifd+2 > len(t) {
		return 1
	}
	count := int(bo.Uint16(t[ifd:]))
	for k := 0; k < count; k++ {
		e := ifd + 2 + 12*k
		if e+12 > len(t) {
			return 1
		}
		if bo.Uint16(t[e:]) == 0x0112 && bo.Uint16(t[e+2:]) == 3 { // SHORT
			if v := int(bo.Uint16(t[e+8:])); v >= 1 && v <= 8 {
				return v
			}
			return 1
		}
	}
	return 1
}
