package face

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/auth"
	"github.com/tatib/tatib/server/internal/face/match"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/shared/api"
)

// enrolLock is the pg_advisory_xact_lock key every enrolment takes, so
// two enrolments of one face for two students cannot both pass the
// duplicate check ("face" in ASCII).
const enrolLock = 0x66616365

// rawVector is an embedding as sent: each number kept raw, so a value
// float32 cannot hold, or a string such as "NaN", is a field error (422)
// rather than a JSON type error (400).
type rawVector []json.RawMessage

// parse returns the vector, or the catalogue key of what is wrong with it.
func (rv rawVector) parse() ([]float32, string) {
	if len(rv) < match.MinDim || len(rv) > match.MaxDim {
		return nil, "face.embedding.dims"
	}
	v := make([]float32, len(rv))
	for i, raw := range rv {
		raw = bytes.TrimSpace(raw)
		if len(raw) == 0 || raw[0] == '"' || raw[0] == 'n' || raw[0] == 't' || raw[0] == 'f' || raw[0] == '[' || raw[0] == '{' {
			return nil, "face.embedding.not_number"
		}
		f, err := strconv.ParseFloat(string(raw), 32)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, "face.embedding.not_finite"
		}
		v[i] = float32(f)
	}
	switch err := match.Validate(v); {
	case errors.Is(err, match.ErrDims):
		return nil, "face.embedding.dims"
	case errors.Is(err, match.ErrNotFinite):
		return nil, "face.embedding.not_finite"
	case errors.Is(err, match.ErrZero):
		return nil, "face.embedding.zero"
	case err != nil:
		return nil, "face.embedding.not_finite"
	}
	return v, ""
}

type enrolInput struct {
	Model      string      `json:"model"`
	Embeddings []rawVector `json:"embeddings"`
}

// validModel checks a model name (1–80 characters) and returns it trimmed.
func validModel(f apperr.Fields, model string) string {
	model = strings.TrimSpace(model)
	switch n := utf8.RuneCountInString(model); {
	case n == 0:
		f.Add("model", "face.model.required")
	case n > 80:
		f.Add("model", "face.field.too_long", "max", 80)
	}
	return model
}

func validateEnrolment(in enrolInput) (string, [][]float32, error) {
	f := apperr.Fields{}
	model := validModel(f, in.Model)
	var vecs [][]float32
	if n := len(in.Embeddings); n < api.FaceMinSamples || n > api.FaceMaxSamples {
		f.Add("embeddings", "face.embeddings.count", "min", api.FaceMinSamples, "max", api.FaceMaxSamples, "count", n)
	} else {
		for i, rv := range in.Embeddings {
			field := "embeddings." + strconv.Itoa(i)
			v, problem := rv.parse()
			if problem != "" {
				f.Add(field, problem, "min", match.MinDim, "max", match.MaxDim, "sample", i+1)
				continue
			}
			if len(vecs) > 0 && len(v) != len(vecs[0]) {
				f.Add(field, "face.embeddings.lengths", "sample", i+1, "length", len(v), "want", len(vecs[0]))
				continue
			}
			vecs = append(vecs, v)
		}
	}
	return model, vecs, f.Err()
}

// enrol replaces the student's samples with 3–5 new embeddings, refused
// without an active consent or when the face already matches another
// student.
func (h *Handler) enrol(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	id, err := studentID(r)
	if err != nil {
		return err
	}
	var in enrolInput
	if err := httpx.DecodeJSON(r, &in); err != nil {
		return err
	}
	homeroom := auth.HomeroomID(ctx)
	if _, err := h.store.Student(ctx, homeroom, id); err != nil {
		return err
	}
	model, vecs, err := validateEnrolment(in)
	if err != nil {
		return err
	}
	out, err := h.store.Enrol(ctx, h.auth.Actor(r), homeroom, id, model, vecs)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusCreated, out)
}

// deleteSamples deletes the student's embeddings; the consent stays.
func (h *Handler) deleteSamples(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	id, err := studentID(r)
	if err != nil {
		return err
	}
	out, err := h.store.DeleteSamples(ctx, h.auth.Actor(r), auth.HomeroomID(ctx), id)
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, out)
}
