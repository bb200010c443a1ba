package violation

import (
	"bytes"
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/httpx"
)

// PhotoForm reads a request that carries evidence photos: plain JSON, or
// multipart/form-data with the JSON in one part and the photos in another,
// each photo re-encoded by PreparePhoto as it arrives so only the small
// results stay in memory. Recording a violation, the anonymous report
// (cases) and a guardian's excuse (portal) read their requests with it;
// they differ only in the values below.
type PhotoForm struct {
	DataPart  string // the JSON part ("data")
	PhotoPart string // the photo parts ("photos"), also the field of their errors
	MaxPhotos int    // photos beyond this are refused with TooMany
	MaxData   int    // bytes of the JSON part; larger is 413 request.too_large
	// FileNames names a photo in its message by its (cleaned) file name;
	// otherwise, and when it has none, by "#N".
	FileNames bool
	// Message keys: a body that is no readable multipart, a part of another
	// name (400 each), too many photos (a field error of PhotoPart).
	Unreadable, UnknownPart, TooMany string
	// DataMissing answers a form without its JSON part: a 400, or, with
	// DataMissingField, a field error of DataPart.
	DataMissing      string
	DataMissingField bool
}

// Read decodes the JSON into dst and answers the prepared photos. Errors of
// the photos (too many, not a picture, too large) go into f, so the caller
// answers them with its own validation; every other problem is the error.
func (pf PhotoForm) Read(r *http.Request, dst any, f apperr.Fields) ([]Photo, error) {
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "multipart/form-data" {
		return nil, httpx.DecodeJSON(r, dst)
	}
	mr, err := r.MultipartReader()
	if err != nil {
		return nil, apperr.New(apperr.BadRequest, pf.Unreadable)
	}
	var photos []Photo
	seenData, count := false, 0
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, pf.partError(err)
		}
		switch part.FormName() {
		case pf.DataPart:
			b, err := io.ReadAll(io.LimitReader(part, int64(pf.MaxData)+1))
			if err != nil {
				return nil, pf.partError(err)
			}
			if len(b) > pf.MaxData {
				return nil, apperr.New(apperr.TooLarge, "request.too_large", "limit", pf.MaxData)
			}
			jr := &http.Request{Header: http.Header{"Content-Type": {"application/json"}}, Body: io.NopCloser(bytes.NewReader(b))}
			if err := httpx.DecodeJSON(jr, dst); err != nil {
				return nil, err
			}
			seenData = true
		case pf.PhotoPart:
			count++
			b, err := io.ReadAll(io.LimitReader(part, MaxPhotoBytes+1))
			if err != nil {
				return nil, pf.partError(err)
			}
			if count > pf.MaxPhotos {
				f.Add(pf.PhotoPart, pf.TooMany, "max", pf.MaxPhotos)
				continue
			}
			if _, failed := f[pf.PhotoPart]; failed || len(b) == 0 {
				continue // the first problem is the message; an empty file input
			}
			name := "#" + strconv.Itoa(count)
			if pf.FileNames {
				name = cleanName(part.FileName(), count)
			}
			p, err := PreparePhoto(r.Context(), pf.PhotoPart, name, b)
			if e, ok := apperr.As(err); ok && e.Code == apperr.Invalid {
				for k, m := range e.Fields {
					f[k] = m
				}
				continue
			}
			if err != nil {
				return nil, err
			}
			photos = append(photos, p)
		default:
			return nil, apperr.New(apperr.BadRequest, pf.UnknownPart, "name", httpx.CleanHeader(part.FormName(), 40))
		}
	}
	if !seenData {
		if !pf.DataMissingField {
			return nil, apperr.New(apperr.BadRequest, pf.DataMissing)
		}
		f.Add(pf.DataPart, pf.DataMissing)
	}
	return photos, nil
}

func (pf PhotoForm) partError(err error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return apperr.New(apperr.TooLarge, "request.too_large", "limit", mbe.Limit)
	}
	return apperr.New(apperr.BadRequest, pf.Unreadable)
}

// cleanName is a file name fit for a message: no path, at most 80
// characters, or "#N" when there is none.
func cleanName(name string, n int) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	name = httpx.CleanHeader(name, 80)
	if name == "" {
		return "#" + strconv.Itoa(n)
	}
	return name
}
