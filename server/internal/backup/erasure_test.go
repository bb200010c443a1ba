package backup_test

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/server/internal/apperr"
	"github.com/tatib/tatib/server/internal/audit"
	"github.com/tatib/tatib/server/internal/backup"
	"github.com/tatib/tatib/server/internal/datareset"
	"github.com/tatib/tatib/server/internal/erasure"
	"github.com/tatib/tatib/server/internal/pg/pgtest"
	"github.com/tatib/tatib/server/internal/violationtype"
	wire "github.com/tatib/tatib/shared/api"
	"github.com/tatib/tatib/shared/perm"
)

const faceModel = "human-faceres-1024"

// A restore of an older backup keeps the erasures made after it: the
// face consent withdrawn after the backup stays withdrawn and the kiosk
// matches nobody, a revoked kiosk stays revoked, a removed user cannot sign
// in, a reset data set stays empty, and every session ends. Once over the
// database the erasures were made in (its own ledger), once into an empty
// database from the ledger file alone, which is refused without it.
func TestRestoreKeepsErasures(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	u := pgtest.NewURL(t)
	env := envOn(t, u, u)
	must(t, violationtype.Boot(ctx, env.Deps))
	admin := env.As(perm.Admin)
	bkID, bkName := env.CreateUser(perm.BK)
	bk := env.Login(bkName, "rahasia123")
	var class, student int64
	must(t, env.DB.Get(&class, `INSERT INTO classes (name, grade) VALUES ('X IPA 1', 10) RETURNING id`))
	must(t, env.DB.Get(&student, `INSERT INTO students (source_id, nisn, nis, full_name, class_id)
		VALUES (1, '0012345678', '1', 'Budi Santoso', $1) RETURNING id`, class))
	must(t, env.DB.Get(new(int64), `INSERT INTO notifications (user_id, kind, url) VALUES ($1, 'violation', '/violations/1') RETURNING id`, admin.UserID))
	admin.Do("PUT", "/api/v1/settings/face", wire.FaceSettings{SchoolStart: "23:59", Threshold: 0.5, Margin: 0.08, RetentionDays: 30,
		Challenges: []string{wire.ChallengeBlink}}).Want(200)
	admin.Do("PUT", fmt.Sprintf("/api/v1/students/%d/face-consent", student), wire.FaceConsentInput{GuardianName: "Ibu Sari",
		Relationship: wire.FaceRelMother, Method: wire.FaceMethodPaper, GivenOn: "2026-01-05"}).Want(200)
	face := unitVector(1)
	admin.Do("POST", fmt.Sprintf("/api/v1/students/%d/face-enrolments", student), wire.FaceEnrolmentInput{Model: faceModel,
		Embeddings: [][]float32{nudge(face, 2), nudge(face, 3), nudge(face, 4)}}).Want(http.StatusCreated)
	gate, _ := kiosk(t, env, admin, "Gerbang")
	side, sideID := kiosk(t, env, admin, "Samping")
	if got := scan(t, gate, face); got.Outcome != "matched" {
		t.Fatalf("before: %+v", got)
	}
	res, body := download(t, env, admin)
	if res.StatusCode != 200 {
		t.Fatalf("backup: %d %s", res.StatusCode, body)
	}
	file := filepath.Join(t.TempDir(), "older.dump")
	must(t, os.WriteFile(file, body, 0o600))

	// After the backup: the erasures.
	admin.Do("DELETE", fmt.Sprintf("/api/v1/students/%d/face-consent", student), nil).Want(200)
	admin.Do("DELETE", fmt.Sprintf("/api/v1/settings/kiosks/%d", sideID), nil).Want(http.StatusNoContent)
	admin.Do("DELETE", fmt.Sprintf("/api/v1/users/%d", bkID), nil).Want(200, http.StatusNoContent)
	f := apperr.Fields{}
	if _, err := datareset.NewStore(env.DB).Reset(ctx, audit.Actor{Name: "uji"}, datareset.Choose(f, []string{wire.ResetNotifications})); err != nil {
		t.Fatal(err)
	}
	if got := scan(t, gate, face); got.Outcome == "matched" {
		t.Fatalf("after the withdrawal: %+v", got)
	}

	// Over the same database: its ledger is read before it is replaced.
	ledger := filepath.Join(t.TempDir(), erasure.FileName)
	yes := func(string) (bool, error) { return true, nil }
	got, err := backup.Restore(ctx, backup.RestoreOptions{URL: u, File: file, Force: true, Confirm: yes, Log: discard, Ledger: ledger})
	if err != nil {
		t.Fatal(err)
	}
	if got.Reapplied != 4 || got.SessionsEnded < 2 {
		t.Errorf("%+v", got)
	}
	checkErased := func(url string) {
		t.Helper()
		after := envOn(t, url, url)
		if got := scan(t, clientOf(after, gate.Token), face); got.Outcome == "matched" || got.Student != nil {
			t.Errorf("the kiosk matched a face whose consent was withdrawn: %+v", got)
		}
		clientOf(after, side.Token).Do("POST", "/api/v1/face/challenge", nil).Want(http.StatusUnauthorized)
		clientOf(after, admin.Token).Do("GET", "/api/v1/auth/me", nil).Want(http.StatusUnauthorized)
		clientOf(after, bk.Token).Do("GET", "/api/v1/auth/me", nil).Want(http.StatusUnauthorized)
		if r := after.Anonymous().Do("POST", "/api/v1/auth/login", map[string]string{"username": bkName, "password": "rahasia123"}); r.Status == 200 {
			t.Error("the removed user signed in")
		}
		var consent wire.FaceStatus
		after.Login(usernameOf(t, after, admin.UserID), "rahasia123").Do("GET", fmt.Sprintf("/api/v1/students/%d/face", student), nil).Want(200).JSON(&consent)
		if consent.Consent != nil || consent.Samples != 0 {
			t.Errorf("consent %+v, %d samples", consent.Consent, consent.Samples)
		}
		var n int
		must(t, after.DB.Get(&n, `SELECT count(*) FROM notifications`))
		if n != 0 {
			t.Errorf("%d notifications back after the reset", n)
		}
	}
	checkErased(u)
	entries, err := erasure.ReadFile(ledger)
	if err != nil || len(entries) != 4 {
		t.Fatalf("ledger file: %d entries, %v", len(entries), err)
	}

	// Into an empty database (the old one lost): refused without the
	// ledger file, done again from it.
	dst := emptyURL(t)
	_, err = backup.Restore(ctx, backup.RestoreOptions{URL: dst, File: file, Log: discard, Ledger: filepath.Join(t.TempDir(), erasure.FileName)})
	if apperr.Key(err) != "backup.no_erasure_ledger" {
		t.Fatalf("without the ledger file: %v", err)
	}
	got, err = backup.Restore(ctx, backup.RestoreOptions{URL: dst, File: file, Log: discard, Ledger: ledger})
	if err != nil || got.Reapplied != 4 {
		t.Fatalf("%+v %v", got, err)
	}
	checkErased(dst)
}

func kiosk(t *testing.T, env *apitest.Env, admin *apitest.Client, name string) (*apitest.Client, int64) {
	t.Helper()
	var k wire.KioskCreated
	admin.Do("POST", "/api/v1/settings/kiosks", wire.KioskInput{Name: name}).Want(http.StatusCreated).JSON(&k)
	return clientOf(env, k.Token), k.ID
}

func clientOf(env *apitest.Env, token string) *apitest.Client {
	c := env.Anonymous()
	c.Token = token
	return c
}

func scan(t *testing.T, k *apitest.Client, probe []float32) wire.FaceScanResult {
	t.Helper()
	var ch wire.FaceChallenge
	k.Do("POST", "/api/v1/face/challenge", nil).Want(http.StatusCreated).JSON(&ch)
	open := func(v float64) *float64 { return &v }
	var out wire.FaceScanResult
	k.Do("POST", "/api/v1/face/scan", wire.FaceScanInput{Model: faceModel, Embedding: probe,
		Challenge: wire.FaceChallengeResult{ID: ch.ID, Kind: wire.ChallengeBlink, Passed: true, OpenMin: open(0.45), OpenMax: open(1.05), Frames: 8, Millis: 700}}).
		Want(200).JSON(&out)
	return out
}

// unitVector is a fixed face: 128 numbers of length 1.
func unitVector(seed int) []float32 {
	v := make([]float32, 128)
	var n float64
	for i := range v {
		x := math.Sin(float64(i*7+seed) * 1.3)
		v[i] = float32(x)
		n += x * x
	}
	for i := range v {
		v[i] /= float32(math.Sqrt(n))
	}
	return v
}

// nudge is the same face seen again: a little different.
func nudge(v []float32, seed int) []float32 {
	out := make([]float32, len(v))
	for i, f := range v {
		out[i] = f + float32(math.Cos(float64(i*seed))*0.005)
	}
	return out
}
