package school_test

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"mime/multipart"
	"net/http"
	"testing"

	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/server/internal/school"
	"github.com/tatib/tatib/shared/perm"
)

func pngOf(t testing.TB, w, h int) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for x := 0; x < w; x++ {
		for y := 0; y < h; y++ {
			img.Set(x, y, color.NRGBA{R: uint8(x), G: uint8(y), B: 90, A: 255})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func putLogo(t testing.TB, c *apitest.Client, field, filename string, data []byte) *apitest.Response {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, err := mw.CreateFormFile(field, filename)
	if err != nil {
		t.Fatal(err)
	}
	fw.Write(data)
	mw.Close()
	return c.Do("PUT", "/api/v1/settings/school/logo", &body, "Content-Type", mw.FormDataContentType())
}

func TestLogo(t *testing.T) {
	env := apitest.New(t)
	admin := env.As(perm.Admin)
	anon := env.Anonymous()

	t.Run("NoneYet", func(t *testing.T) {
		e := anon.Do("GET", "/api/v1/school/logo", nil).Want(http.StatusNotFound).Err()
		if e.Error.MessageCode != "school.logo.none" {
			t.Errorf("message_code %q", e.Error.MessageCode)
		}
		var pub school.PublicProfile
		anon.Do("GET", "/api/v1/school/public", nil).Want(200).JSON(&pub)
		if pub.LogoURL != nil {
			t.Errorf("logo_url %q without a logo", *pub.LogoURL)
		}
	})

	t.Run("OK", func(t *testing.T) {
		// A JPEG under a misleading name: recognised by content, shrunk to
		// 512 px on its longer side, stored as PNG.
		src := image.NewRGBA(image.Rect(0, 0, 1200, 600))
		for x := 0; x < 1200; x++ {
			for y := 0; y < 600; y++ {
				src.Set(x, y, color.RGBA{R: 30, G: 120, B: uint8(x % 256), A: 255})
			}
		}
		var jpg bytes.Buffer
		if err := jpeg.Encode(&jpg, src, nil); err != nil {
			t.Fatal(err)
		}
		var l school.Logo
		putLogo(t, admin, "logo", "logo.gif", jpg.Bytes()).Want(200).JSON(&l)
		if l.Width != 512 || l.Height != 256 || l.URL == "" {
			t.Fatalf("logo %+v", l)
		}
		res := anon.Do("GET", l.URL, nil).Want(200)
		if ct := res.Header.Get("Content-Type"); ct != "image/png" {
			t.Errorf("content type %q", ct)
		}
		if cc := res.Header.Get("Cache-Control"); cc != "public, max-age=31536000, immutable" {
			t.Errorf("versioned Cache-Control %q", cc)
		}
		img, err := png.Decode(bytes.NewReader(res.Body))
		if err != nil || img.Bounds().Dx() != 512 || img.Bounds().Dy() != 256 {
			t.Fatalf("served image: %v %v", err, img)
		}
		plain := anon.Do("GET", "/api/v1/school/logo", nil).Want(200)
		if cc := plain.Header.Get("Cache-Control"); cc != "public, max-age=300, must-revalidate" {
			t.Errorf("plain Cache-Control %q", cc)
		}
		anon.Do("GET", "/api/v1/school/logo", nil, "If-None-Match", plain.Header.Get("ETag")).Want(http.StatusNotModified)

		var pub school.PublicProfile
		anon.Do("GET", "/api/v1/school/public", nil).Want(200).JSON(&pub)
		if pub.LogoURL == nil || *pub.LogoURL != l.URL {
			t.Errorf("public logo_url %v, want %s", pub.LogoURL, l.URL)
		}
		stored, err := school.LoadLogo(context.Background(), env.DB)
		if err != nil || !bytes.Equal(stored, res.Body) {
			t.Errorf("LoadLogo: %v, %d bytes", err, len(stored))
		}
		var n int
		env.DB.Get(&n, `SELECT count(*) FROM audit_log WHERE action = 'settings.school.logo.update'`)
		if n != 1 {
			t.Errorf("audit entries %d", n)
		}
	})

	t.Run("SmallKeptAsIs", func(t *testing.T) {
		var l school.Logo
		putLogo(t, admin, "logo", "logo.png", pngOf(t, 100, 80)).Want(200).JSON(&l)
		if l.Width != 100 || l.Height != 80 {
			t.Errorf("logo %+v", l)
		}
	})

	t.Run("ErrNotImage", func(t *testing.T) {
		e := putLogo(t, admin, "logo", "logo.png", []byte("<svg xmlns='http://www.w3.org/2000/svg'/>")).Want(422).Err()
		if e.Error.FieldCodes["logo"].Code != "school.logo.type" {
			t.Errorf("field codes %+v", e.Error.FieldCodes)
		}
	})

	t.Run("ErrTooManyPixels", func(t *testing.T) {
		// The header claims 4001 px: refused before decoding.
		e := putLogo(t, admin, "logo", "logo.png", pngOf(t, 4001, 1)).Want(422).Err()
		if e.Error.FieldCodes["logo"].Code != "school.logo.dimensions" {
			t.Errorf("field codes %+v", e.Error.FieldCodes)
		}
	})

	t.Run("ErrTooLarge", func(t *testing.T) {
		big := append(pngOf(t, 10, 10), make([]byte, school.MaxLogoBytes)...)
		e := putLogo(t, admin, "logo", "logo.png", big).Want(http.StatusRequestEntityTooLarge).Err()
		if e.Error.MessageCode != "school.logo.too_large" {
			t.Errorf("message_code %q", e.Error.MessageCode)
		}
	})

	t.Run("ErrMissingPart", func(t *testing.T) {
		e := putLogo(t, admin, "file", "logo.png", pngOf(t, 10, 10)).Want(422).Err()
		if e.Error.FieldCodes["logo"].Code != "school.logo.required" {
			t.Errorf("field codes %+v", e.Error.FieldCodes)
		}
		admin.Do("PUT", "/api/v1/settings/school/logo", []byte(`{}`)).Want(http.StatusBadRequest)
	})

	t.Run("Permissions", func(t *testing.T) {
		bk := env.As(perm.BK)
		putLogo(t, bk, "logo", "logo.png", pngOf(t, 10, 10)).Want(http.StatusForbidden)
		bk.Do("DELETE", "/api/v1/settings/school/logo", nil).Want(http.StatusForbidden)
		anon.Do("DELETE", "/api/v1/settings/school/logo", nil).Want(http.StatusUnauthorized)
	})

	t.Run("Delete", func(t *testing.T) {
		admin.Do("DELETE", "/api/v1/settings/school/logo", nil).Want(http.StatusNoContent)
		anon.Do("GET", "/api/v1/school/logo", nil).Want(http.StatusNotFound)
		admin.Do("DELETE", "/api/v1/settings/school/logo", nil).Want(http.StatusNoContent)
	})
}

// A transparent logo keeps its transparency and gains no dark fringe when
// shrunk (the average is weighted by alpha).
func TestLogoTransparency(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 1024, 1024))
	for x := 0; x < 1024; x++ {
		for y := 0; y < 1024; y++ {
			if x%2 == 0 {
				img.Set(x, y, color.NRGBA{R: 255, A: 255})
			}
		}
	}
	var buf bytes.Buffer
	png.Encode(&buf, img)
	out, w, h, err := school.PrepareLogo(buf.Bytes())
	if err != nil || w != 512 || h != 512 {
		t.Fatal(w, h, err)
	}
	dec, err := png.Decode(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	c := color.NRGBAModel.Convert(dec.At(10, 10)).(color.NRGBA)
	if c.R != 255 || c.G != 0 || c.A < 120 || c.A > 135 {
		t.Errorf("pixel %+v, want pure red at half alpha", c)
	}
}

func TestPaperSize(t *testing.T) {
	env := apitest.New(t)
	admin := env.As(perm.Admin)
	var p school.Profile
	admin.Do("GET", "/api/v1/settings/school", nil).Want(200).JSON(&p)
	if p.PaperSize != "A4" {
		t.Errorf("default paper %q", p.PaperSize)
	}
	admin.Do("PUT", "/api/v1/settings/school", map[string]any{"name": "SMA Contoh", "paper_size": "f4"}).Want(200).JSON(&p)
	if p.PaperSize != "F4" {
		t.Errorf("paper %q", p.PaperSize)
	}
	admin.Do("PUT", "/api/v1/settings/school", map[string]any{"name": "SMA Contoh"}).Want(200).JSON(&p)
	if p.PaperSize != "A4" {
		t.Errorf("absent paper %q", p.PaperSize)
	}
	e := admin.Do("PUT", "/api/v1/settings/school", map[string]any{"name": "SMA Contoh", "paper_size": "Letter"}).Want(422).Err()
	if e.Error.FieldCodes["paper_size"].Code != "school.profile.paper_size" {
		t.Errorf("field codes %+v", e.Error.FieldCodes)
	}
	// A profile saved before the field existed reads as A4.
	env.DB.MustExec(`UPDATE settings SET value = value - 'paper_size' WHERE key = 'school'`)
	admin.Do("GET", "/api/v1/settings/school", nil).Want(200).JSON(&p)
	if p.PaperSize != "A4" {
		t.Errorf("old profile paper %q", p.PaperSize)
	}
}
