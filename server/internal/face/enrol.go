package face

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/auth"
	"github.com/tatib/tatib/server/internal/erasure"
	"github.com/tatib/tatib/server/internal/face/match"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/server/internal/pg"
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
	if _, err := getStudent(ctx, h.db, homeroom, id); err != nil {
		return err
	}
	model, vecs, err := validateEnrolment(in)
	if err != nil {
		return err
	}
	actor := h.auth.Actor(r)
	var out api.FaceStatus
	err = pg.InTx(ctx, h.db, func(tx *sqlx.Tx) error {
		// One enrolment at a time, school-wide: the duplicate check below
		// then sees every enrolment committed before it.
		if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock($1)`, enrolLock); err != nil {
			return fmt.Errorf("face: enrol lock: %w", err)
		}
		st, err := lockStudent(ctx, tx, homeroom, id)
		if err != nil {
			return err
		}
		var consentID int64
		err = tx.GetContext(ctx, &consentID, `SELECT id FROM face_consents WHERE student_id = $1 AND withdrawn_at IS NULL`, id)
		if pgNoRows(err) {
			return apperr.New(apperr.Conflict, "face.no_consent", "student", st.Name)
		}
		if err != nil {
			return fmt.Errorf("face: consent: %w", err)
		}
		settings, err := LoadSettings(ctx, tx)
		if err != nil {
			return err
		}
		// Before this transaction writes anything: the index must not
		// see (and cache) uncommitted rows.
		if err := h.duplicate(ctx, tx, st, model, vecs, settings.Threshold); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM face_embeddings WHERE student_id = $1`, id)
		if err != nil {
			return fmt.Errorf("face: replace embeddings: %w", err)
		}
		replaced, _ := res.RowsAffected()
		blobs := make([][]byte, len(vecs))
		for i, v := range vecs {
			blobs[i] = match.Encode(v)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO face_embeddings (student_id, consent_id, model, dim, vec, created_by)
			SELECT $1, $2, $3, $4, v, $6 FROM unnest($5::bytea[]) WITH ORDINALITY AS u(v, n) ORDER BY n`,
			id, consentID, model, len(vecs[0]), pq.Array(blobs), userRef(actor)); err != nil {
			return fmt.Errorf("face: store embeddings: %w", err)
		}
		if err := audit.Record(ctx, tx, actor, "face.enrol", "student", strconv.FormatInt(id, 10), map[string]any{
			"student": st.Name, "model": model, "dim": len(vecs[0]), "samples": len(vecs), "replaced": replaced, "consent_id": consentID,
		}); err != nil {
			return err
		}
		out, err = status(ctx, tx, st)
		return err
	})
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusCreated, out)
}

// duplicate refuses (409 face.duplicate) when any new sample matches
// another enrolled student at or above the threshold.
func (h *Handler) duplicate(ctx context.Context, tx *sqlx.Tx, st student, model string, vecs [][]float32, threshold float64) error {
	ix, err := h.cache.Get(ctx, tx)
	if err != nil {
		return fmt.Errorf("face: index: %w", err)
	}
	var best match.Candidate
	for _, v := range vecs {
		if res := ix.Match(model, v, st.ID); res.Best.StudentID != 0 && res.Best.Score > best.Score {
			best = res.Best
		}
	}
	if best.StudentID == 0 || best.Score < threshold {
		return nil
	}
	var other student
	if err := tx.GetContext(ctx, &other, `SELECT s.id, s.full_name, COALESCE(c.name, '') AS class_name, s.active
		FROM students s LEFT JOIN classes c ON c.id = s.class_id WHERE s.id = $1`, best.StudentID); err != nil {
		return fmt.Errorf("face: duplicate student: %w", err)
	}
	return apperr.New(apperr.Conflict, "face.duplicate", "other", other.Name, "other_id", other.ID, "class", other.ClassName,
		"score", round(best.Score), "student", st.Name, "student_id", st.ID)
}

// deleteSamples deletes the student's embeddings; the consent stays.
func (h *Handler) deleteSamples(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	id, err := studentID(r)
	if err != nil {
		return err
	}
	actor := h.auth.Actor(r)
	var out api.FaceStatus
	err = pg.InTx(ctx, h.db, func(tx *sqlx.Tx) error {
		st, err := lockStudent(ctx, tx, auth.HomeroomID(ctx), id)
		if err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM face_embeddings WHERE student_id = $1`, id)
		if err != nil {
			return fmt.Errorf("face: delete embeddings: %w", err)
		}
		deleted, _ := res.RowsAffected()
		if err := audit.Record(ctx, tx, actor, "face.enrolment_delete", "student", strconv.FormatInt(id, 10), map[string]any{
			"student": st.Name, "embeddings_deleted": deleted,
		}); err != nil {
			return err
		}
		if err := erasure.Record(ctx, tx, erasure.FaceEnrolmentDeleted, map[string]any{"student_id": id}); err != nil {
			return err
		}
		out, err = status(ctx, tx, st)
		return err
	})
	if err != nil {
		return err
	}
	return httpx.JSON(w, http.StatusOK, out)
}
