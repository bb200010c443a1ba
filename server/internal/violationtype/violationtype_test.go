package violationtype_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/tatib/tatib/server/internal/api"
	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/server/internal/demo"
	"github.com/tatib/tatib/server/internal/violationtype"
	"github.com/tatib/tatib/shared/perm"
)

func TestDefaults(t *testing.T) {
	t.Parallel()
	t.Run("OK", func(t *testing.T) {
		t.Parallel()
		env, bk := newEnv(t)
		var cats struct{ Data []violationtype.Category }
		bk.Do("GET", "/api/v1/violation-categories", nil).Want(http.StatusOK).JSON(&cats)
		if len(cats.Data) != 3 || cats.Data[0].Name != "Ringan" || cats.Data[1].Name != "Sedang" || cats.Data[2].Name != "Berat" {
			t.Fatalf("categories: %+v", cats.Data)
		}
		var thr struct{ Data []violationtype.Threshold }
		bk.Do("GET", "/api/v1/sp-thresholds", nil).Want(http.StatusOK).JSON(&thr)
		if len(thr.Data) != 3 || thr.Data[0].MinPoints != 50 || thr.Data[1].MinPoints != 100 || thr.Data[2].MinPoints != 150 || thr.Data[2].DefaultText == "" {
			t.Fatalf("thresholds: %+v", thr.Data)
		}
		var ht struct{ Data []violationtype.HandlingType }
		bk.Do("GET", "/api/v1/handling-types", nil).Want(http.StatusOK).JSON(&ht)
		if len(ht.Data) != 8 || ht.Data[0].Name != "Teguran Lisan" || ht.Data[7].Name != "Lainnya" {
			t.Fatalf("handling types: %+v", ht.Data)
		}
		alpha, late := typeBySlug(t, bk, "alpha"), typeBySlug(t, bk, "terlambat")
		if !alpha.IsSystem || alpha.Points != 15 || !late.IsSystem || late.Points != 2 || alpha.Category.Name != "Ringan" {
			t.Fatalf("system types: %+v %+v", alpha, late)
		}
		// Idempotent: a second boot adds nothing.
		if err := violationtype.Boot(context.Background(), env.Deps); err != nil {
			t.Fatal(err)
		}
		if n := len(listTypes(t, bk, "").Data); n != 2 {
			t.Fatalf("types after second boot: %d", n)
		}
	})
	t.Run("OKDeletedDefaultStaysDeleted", func(t *testing.T) {
		t.Parallel()
		env, bk := newEnv(t)
		var ht struct{ Data []violationtype.HandlingType }
		bk.Do("GET", "/api/v1/handling-types", nil).Want(http.StatusOK).JSON(&ht)
		bk.Do("DELETE", "/api/v1/handling-types/"+itoa(ht.Data[4].ID), nil).Want(http.StatusNoContent)
		if err := violationtype.Boot(context.Background(), env.Deps); err != nil {
			t.Fatal(err)
		}
		bk.Do("GET", "/api/v1/handling-types", nil).Want(http.StatusOK).JSON(&ht)
		if len(ht.Data) != 7 {
			t.Fatalf("handling types: %d, want 7", len(ht.Data))
		}
	})
	t.Run("OKSystemTypeRecreated", func(t *testing.T) {
		t.Parallel()
		env, bk := newEnv(t)
		// As an application reset leaves it: every table emptied.
		ctx := context.Background()
		if _, err := env.DB.ExecContext(ctx, `DELETE FROM violation_types; DELETE FROM violation_categories; DELETE FROM sp_thresholds; DELETE FROM handling_types`); err != nil {
			t.Fatal(err)
		}
		tx := env.DB.MustBeginTx(ctx, nil)
		if err := violationtype.EnsureDefaults(ctx, tx); err != nil {
			t.Fatal(err)
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
		if alpha := typeBySlug(t, bk, "alpha"); !alpha.IsSystem {
			t.Fatalf("alpha: %+v", alpha)
		}
		var n int
		_ = env.DB.Get(&n, `SELECT (SELECT count(*) FROM violation_categories) + (SELECT count(*) FROM sp_thresholds) + (SELECT count(*) FROM handling_types)`)
		if n != 3+3+8 {
			t.Fatalf("defaults after reset: %d", n)
		}
	})
	t.Run("OKDemo", func(t *testing.T) {
		t.Parallel()
		env, bk := newEnv(t)
		for range 2 {
			if err := demo.Types(context.Background(), env.Deps); err != nil {
				t.Fatal(err)
			}
		}
		// A boot after it keeps the list as it is.
		if err := violationtype.Boot(context.Background(), env.Deps); err != nil {
			t.Fatal(err)
		}
		l := listTypes(t, bk, "")
		if len(l.Data) < 40 {
			t.Fatalf("demo types: %d", len(l.Data))
		}
		perCat := map[string]int{}
		for _, ty := range l.Data {
			perCat[ty.Category.Name]++
			if !ty.IsSystem && ty.DefaultSanction == "" {
				t.Errorf("%s has no default sanction", ty.Name)
			}
		}
		if perCat["Ringan"] < 10 || perCat["Sedang"] < 10 || perCat["Berat"] < 10 {
			t.Fatalf("per category: %v", perCat)
		}
		if len(l.Data) != len(demo.ViolationTypes)+2 {
			t.Fatalf("demo loaded twice? %d types", len(l.Data))
		}
	})
}

func itoa(n int64) string { b, _ := json.Marshal(n); return string(b) }

func TestCategories(t *testing.T) {
	t.Parallel()
	env, bk := newEnv(t)
	_ = env
	var c violationtype.Category
	bk.Do("POST", "/api/v1/violation-categories", map[string]any{"name": "  Sangat   Berat ", "colour": "#c92a2a"}).Want(http.StatusCreated).JSON(&c)
	if c.Name != "Sangat Berat" || c.Colour != "#c92a2a" || c.SortOrder != 4 {
		t.Fatalf("created: %+v", c)
	}
	t.Run("ErrNameTaken", func(t *testing.T) {
		e := bk.Do("POST", "/api/v1/violation-categories", map[string]any{"name": "ringan"}).Want(http.StatusUnprocessableEntity).Err()
		if e.Error.Fields["name"] == "" {
			t.Fatalf("fields: %v", e.Error.Fields)
		}
	})
	t.Run("ErrColour", func(t *testing.T) {
		e := bk.Do("POST", "/api/v1/violation-categories", map[string]any{"name": "Lain", "colour": "ungu"}).Want(http.StatusUnprocessableEntity).Err()
		if e.Error.Fields["colour"] == "" {
			t.Fatalf("fields: %v", e.Error.Fields)
		}
	})
	t.Run("ErrNameRequired", func(t *testing.T) {
		e := bk.Do("POST", "/api/v1/violation-categories", map[string]any{"colour": "red"}).Want(http.StatusUnprocessableEntity).Err()
		if e.Error.Fields["name"] == "" {
			t.Fatalf("fields: %v", e.Error.Fields)
		}
	})
	t.Run("OKUpdate", func(t *testing.T) {
		var u violationtype.Category
		bk.Do("PATCH", "/api/v1/violation-categories/"+itoa(c.ID), map[string]any{"colour": "grape", "sort_order": 9}).Want(http.StatusOK).JSON(&u)
		if u.Colour != "grape" || u.SortOrder != 9 || u.Name != "Sangat Berat" {
			t.Fatalf("updated: %+v", u)
		}
	})
	t.Run("ErrDeleteWithTypes", func(t *testing.T) {
		ringan := categoryID(t, bk, "Ringan")
		e := bk.Do("DELETE", "/api/v1/violation-categories/"+itoa(ringan), nil).Want(http.StatusConflict).Err()
		if e.Error.MessageCode != "violationtype.category.has_types" || e.Error.Params["name"] != "Ringan" {
			t.Fatalf("error: %+v", e.Error)
		}
	})
	t.Run("OKDeleteEmpty", func(t *testing.T) {
		bk.Do("DELETE", "/api/v1/violation-categories/"+itoa(c.ID), nil).Want(http.StatusNoContent)
		bk.Do("DELETE", "/api/v1/violation-categories/"+itoa(c.ID), nil).Want(http.StatusNotFound)
	})
}

func TestTypes(t *testing.T) {
	t.Parallel()
	env, bk := newEnv(t)
	berat := categoryID(t, bk, "Berat")
	var fight violationtype.Type
	bk.Do("POST", "/api/v1/violation-types", map[string]any{"name": "Berkelahi di kelas", "points": 75, "category_id": berat,
		"default_sanction": "Skorsing"}).Want(http.StatusCreated).JSON(&fight)
	if fight.Slug != "berkelahi-di-kelas" || !fight.Active || fight.IsSystem || fight.Category.Name != "Berat" || fight.Category.Colour != "red" {
		t.Fatalf("created: %+v", fight)
	}

	t.Run("OKList", func(t *testing.T) {
		l := listTypes(t, bk, "?q=KELAHI")
		if len(l.Data) != 1 || l.Data[0].ID != fight.ID || len(l.Categories) != 3 {
			t.Fatalf("search: %+v", l)
		}
		if l := listTypes(t, bk, "?category_id="+itoa(berat)); len(l.Data) != 1 {
			t.Fatalf("by category: %+v", l.Data)
		}
		if l := listTypes(t, bk, "?active=false"); len(l.Data) != 0 {
			t.Fatalf("inactive: %+v", l.Data)
		}
		bk.Do("GET", "/api/v1/violation-types?active=maybe", nil).Want(http.StatusUnprocessableEntity)
		// Control bytes and broken UTF-8 are refused by the router.
		bk.Do("GET", "/api/v1/violation-types?q=%00kelahi%FF", nil).Want(http.StatusUnprocessableEntity)
	})
	t.Run("ErrFields", func(t *testing.T) {
		e := bk.Do("POST", "/api/v1/violation-types", map[string]any{"name": "", "points": -1}).Want(http.StatusUnprocessableEntity).Err()
		for _, f := range []string{"name", "points", "category_id"} {
			if e.Error.Fields[f] == "" {
				t.Errorf("no field error for %s: %v", f, e.Error.Fields)
			}
		}
		e = bk.Do("POST", "/api/v1/violation-types", map[string]any{"name": "X", "points": 1001, "category_id": berat}).Want(http.StatusUnprocessableEntity).Err()
		if e.Error.Fields["points"] == "" {
			t.Errorf("fields: %v", e.Error.Fields)
		}
		e = bk.Do("POST", "/api/v1/violation-types", map[string]any{"name": "X", "points": 1, "category_id": 999999}).Want(http.StatusUnprocessableEntity).Err()
		if e.Error.Fields["category_id"] == "" {
			t.Errorf("fields: %v", e.Error.Fields)
		}
	})
	t.Run("ErrDuplicateName", func(t *testing.T) {
		e := bk.Do("POST", "/api/v1/violation-types", map[string]any{"name": " berkelahi  DI kelas", "points": 5, "category_id": berat}).Want(http.StatusUnprocessableEntity).Err()
		if e.Error.Fields["name"] == "" {
			t.Fatalf("fields: %v", e.Error.Fields)
		}
		// The same name in another category is another type, with its own slug.
		var other violationtype.Type
		bk.Do("POST", "/api/v1/violation-types", map[string]any{"name": "Berkelahi di kelas", "points": 5, "category_id": categoryID(t, bk, "Ringan")}).
			Want(http.StatusCreated).JSON(&other)
		if other.Slug != "berkelahi-di-kelas-2" {
			t.Fatalf("slug: %s", other.Slug)
		}
	})
	t.Run("ErrSystemSlug", func(t *testing.T) {
		for _, slug := range []string{"alpha", "terlambat"} {
			e := bk.Do("POST", "/api/v1/violation-types", map[string]any{"name": "Bolos", "slug": slug, "points": 5, "category_id": berat}).Want(http.StatusUnprocessableEntity).Err()
			if e.Error.Fields["slug"] == "" {
				t.Fatalf("fields: %v", e.Error.Fields)
			}
		}
		e := bk.Do("POST", "/api/v1/violation-types", map[string]any{"name": "ALPHA", "points": 5, "category_id": berat}).Want(http.StatusUnprocessableEntity).Err()
		if e.Error.Fields["name"] == "" {
			t.Fatalf("fields: %v", e.Error.Fields)
		}
		e = bk.Do("PATCH", "/api/v1/violation-types/"+itoa(fight.ID), map[string]any{"slug": "terlambat"}).Want(http.StatusUnprocessableEntity).Err()
		if e.Error.Fields["slug"] == "" {
			t.Fatalf("fields: %v", e.Error.Fields)
		}
	})
	t.Run("OKSystemRename", func(t *testing.T) {
		alpha := typeBySlug(t, bk, "alpha")
		var u violationtype.Type
		bk.Do("PATCH", "/api/v1/violation-types/"+itoa(alpha.ID), map[string]any{"name": "Tanpa Keterangan", "points": 20, "slug": "alpha"}).Want(http.StatusOK).JSON(&u)
		if u.Name != "Tanpa Keterangan" || u.Points != 20 || u.Slug != "alpha" || !u.IsSystem {
			t.Fatalf("renamed: %+v", u)
		}
	})
	t.Run("ErrSystemSlugChange", func(t *testing.T) {
		late := typeBySlug(t, bk, "terlambat")
		e := bk.Do("PATCH", "/api/v1/violation-types/"+itoa(late.ID), map[string]any{"slug": "telat", "points": 3}).Want(http.StatusUnprocessableEntity).Err()
		if e.Error.Fields["slug"] == "" {
			t.Fatalf("fields: %v", e.Error.Fields)
		}
		if got := typeBySlug(t, bk, "terlambat"); got.Points != 2 {
			t.Fatalf("a refused change applied: %+v", got)
		}
		e = bk.Do("PATCH", "/api/v1/violation-types/"+itoa(late.ID), map[string]any{"active": false}).Want(http.StatusUnprocessableEntity).Err()
		if e.Error.Fields["active"] == "" {
			t.Fatalf("fields: %v", e.Error.Fields)
		}
	})
	t.Run("ErrSystemDelete", func(t *testing.T) {
		for _, slug := range violationtype.SystemSlugs {
			e := bk.Do("DELETE", "/api/v1/violation-types/"+itoa(typeBySlug(t, bk, slug).ID), nil).Want(http.StatusConflict).Err()
			if e.Error.MessageCode != "violationtype.type.system_not_deletable" {
				t.Fatalf("error: %+v", e.Error)
			}
		}
	})
	t.Run("OKDeleteUnused", func(t *testing.T) {
		var tmp violationtype.Type
		bk.Do("POST", "/api/v1/violation-types", map[string]any{"name": "Sementara", "points": 1, "category_id": berat}).Want(http.StatusCreated).JSON(&tmp)
		bk.Do("DELETE", "/api/v1/violation-types/"+itoa(tmp.ID), nil).Want(http.StatusNoContent)
		bk.Do("DELETE", "/api/v1/violation-types/"+itoa(tmp.ID), nil).Want(http.StatusNotFound)
		bk.Do("PATCH", "/api/v1/violation-types/"+itoa(tmp.ID), map[string]any{"points": 2}).Want(http.StatusNotFound)
	})
	t.Run("ErrDeleteInUse", func(t *testing.T) {
		// A real violation of that type (its points are a copy taken when
		// recorded).
		var student int64
		env.DB.Get(&student, `INSERT INTO students (source_id, full_name) VALUES (990001, 'Siswa Uji') RETURNING id`)
		env.DB.MustExec(`INSERT INTO violations (student_id, violation_type_id, occurred_at, occurred_on, points)
			VALUES ($1, $2, now(), current_date, 75)`, student, fight.ID)
		e := bk.Do("DELETE", "/api/v1/violation-types/"+itoa(fight.ID), nil).Want(http.StatusConflict).Err()
		if e.Error.MessageCode != "violationtype.type.in_use_count" || e.Error.Params["count"] != 1.0 {
			t.Fatalf("error: %+v", e.Error)
		}
		// Deactivating is the way out; changing points leaves history alone.
		var u violationtype.Type
		bk.Do("PATCH", "/api/v1/violation-types/"+itoa(fight.ID), map[string]any{"active": false, "points": 90}).Want(http.StatusOK).JSON(&u)
		if u.Active || u.Points != 90 {
			t.Fatalf("updated: %+v", u)
		}
		var recorded int
		if err := env.DB.Get(&recorded, `SELECT points FROM violations`); err != nil || recorded != 75 {
			t.Fatalf("recorded points %d, %v", recorded, err)
		}
	})
	t.Run("OKAudited", func(t *testing.T) {
		var actions []string
		if err := env.DB.Select(&actions, `SELECT action FROM audit_log WHERE entity = 'violation_type' ORDER BY id`); err != nil {
			t.Fatal(err)
		}
		joined := strings.Join(actions, ",")
		for _, a := range []string{"violation_type.create", "violation_type.update", "violation_type.delete"} {
			if !strings.Contains(joined, a) {
				t.Errorf("no %s in %s", a, joined)
			}
		}
	})
}

func TestThresholds(t *testing.T) {
	t.Parallel()
	_, bk := newEnv(t)
	put := func(list ...map[string]any) *apitest.Response {
		return bk.Do("PUT", "/api/v1/sp-thresholds", map[string]any{"thresholds": list})
	}
	lvl := func(level, min int, name string) map[string]any {
		return map[string]any{"level": level, "min_points": min, "name": name, "colour": "orange", "default_text": "Teks"}
	}
	t.Run("OK", func(t *testing.T) {
		var out struct{ Data []violationtype.Threshold }
		put(lvl(1, 40, "SP 1"), lvl(2, 80, "SP 2"), lvl(3, 120, "SP 3"), lvl(4, 200, "SP 4")).Want(http.StatusOK).JSON(&out)
		if len(out.Data) != 4 || out.Data[3].MinPoints != 200 || out.Data[0].MinPoints != 40 {
			t.Fatalf("thresholds: %+v", out.Data)
		}
		// Levels may come in any order; fewer levels drop the rest.
		put(lvl(2, 100, "SP 2"), lvl(1, 50, "SP 1")).Want(http.StatusOK).JSON(&out)
		if len(out.Data) != 2 || out.Data[0].Level != 1 || out.Data[1].MinPoints != 100 {
			t.Fatalf("thresholds: %+v", out.Data)
		}
	})
	cases := []struct {
		name  string
		list  []map[string]any
		field string
	}{
		{"ErrNotIncreasing", []map[string]any{lvl(1, 50, "SP 1"), lvl(2, 50, "SP 2")}, "thresholds.1.min_points"},
		{"ErrDecreasing", []map[string]any{lvl(1, 100, "SP 1"), lvl(2, 60, "SP 2")}, "thresholds.1.min_points"},
		{"ErrGap", []map[string]any{lvl(1, 50, "SP 1"), lvl(3, 150, "SP 3")}, "thresholds.1.level"},
		{"ErrDuplicateLevel", []map[string]any{lvl(1, 50, "SP 1"), lvl(1, 150, "SP 3")}, "thresholds.1.level"},
		{"ErrZeroPoints", []map[string]any{lvl(1, 0, "SP 1")}, "thresholds.0.min_points"},
		{"ErrNameRequired", []map[string]any{lvl(1, 50, " ")}, "thresholds.0.name"},
		{"ErrEmpty", []map[string]any{}, "thresholds"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := put(c.list...).Want(http.StatusUnprocessableEntity).Err()
			if e.Error.Fields[c.field] == "" {
				t.Fatalf("want field %s, got %v", c.field, e.Error.Fields)
			}
		})
	}
}

func TestHandlingTypes(t *testing.T) {
	t.Parallel()
	env, bk := newEnv(t)
	var h violationtype.HandlingType
	bk.Do("POST", "/api/v1/handling-types", map[string]any{"name": "Mediasi"}).Want(http.StatusCreated).JSON(&h)
	if h.SortOrder != 9 || !h.Active {
		t.Fatalf("created: %+v", h)
	}
	t.Run("ErrDuplicate", func(t *testing.T) {
		e := bk.Do("POST", "/api/v1/handling-types", map[string]any{"name": "home  visit"}).Want(http.StatusUnprocessableEntity).Err()
		if e.Error.Fields["name"] == "" {
			t.Fatalf("fields: %v", e.Error.Fields)
		}
	})
	t.Run("OKUpdate", func(t *testing.T) {
		var u violationtype.HandlingType
		bk.Do("PATCH", "/api/v1/handling-types/"+itoa(h.ID), map[string]any{"active": false, "name": "Mediasi Teman Sebaya"}).Want(http.StatusOK).JSON(&u)
		if u.Active || u.Name != "Mediasi Teman Sebaya" {
			t.Fatalf("updated: %+v", u)
		}
		var l struct{ Data []violationtype.HandlingType }
		bk.Do("GET", "/api/v1/handling-types?active=true", nil).Want(http.StatusOK).JSON(&l)
		if len(l.Data) != 8 {
			t.Fatalf("active: %d", len(l.Data))
		}
	})
	t.Run("ErrDeleteInUse", func(t *testing.T) {
		var student, violation, typeID int64
		env.DB.Get(&student, `INSERT INTO students (source_id, full_name) VALUES (990002, 'Siswa Uji') RETURNING id`)
		env.DB.Get(&typeID, `SELECT id FROM violation_types ORDER BY id LIMIT 1`)
		env.DB.Get(&violation, `INSERT INTO violations (student_id, violation_type_id, occurred_at, occurred_on, points)
			VALUES ($1, $2, now(), current_date, 1) RETURNING id`, student, typeID)
		env.DB.MustExec(`INSERT INTO handlings (violation_id, handling_type_id, handled_on) VALUES ($1, $2, current_date)`, violation, h.ID)
		bk.Do("DELETE", "/api/v1/handling-types/"+itoa(h.ID), nil).Want(http.StatusConflict)
	})
	t.Run("OKDelete", func(t *testing.T) {
		var n violationtype.HandlingType
		bk.Do("POST", "/api/v1/handling-types", map[string]any{"name": "Sementara"}).Want(http.StatusCreated).JSON(&n)
		bk.Do("DELETE", "/api/v1/handling-types/"+itoa(n.ID), nil).Want(http.StatusNoContent)
	})
}

// TestPermissions: every change needs violation_types.manage; reading needs
// violation_types.view.
func TestPermissions(t *testing.T) {
	t.Parallel()
	env, bk := newEnv(t)
	fight := map[string]any{"name": "Berkelahi", "points": 75, "category_id": categoryID(t, bk, "Berat")}
	var ty violationtype.Type
	bk.Do("POST", "/api/v1/violation-types", fight).Want(http.StatusCreated).JSON(&ty)
	changes := []struct{ method, path string }{
		{"POST", "/api/v1/violation-categories"},
		{"PATCH", "/api/v1/violation-categories/1"},
		{"DELETE", "/api/v1/violation-categories/1"},
		{"POST", "/api/v1/violation-types"},
		{"PATCH", "/api/v1/violation-types/" + itoa(ty.ID)},
		{"DELETE", "/api/v1/violation-types/" + itoa(ty.ID)},
		{"POST", "/api/v1/violation-types/import"},
		{"PUT", "/api/v1/sp-thresholds"},
		{"POST", "/api/v1/handling-types"},
		{"PATCH", "/api/v1/handling-types/1"},
		{"DELETE", "/api/v1/handling-types/1"},
	}
	reads := []string{"/api/v1/violation-categories", "/api/v1/violation-types", "/api/v1/violation-types/import-template",
		"/api/v1/sp-thresholds", "/api/v1/handling-types"}
	staff, guest := env.As(perm.Staff), env.As(perm.Other)
	for _, c := range changes {
		t.Run("ErrForbidden"+c.method+c.path, func(t *testing.T) {
			e := staff.Do(c.method, c.path, map[string]any{"name": "x"}).Want(http.StatusForbidden).Err()
			if e.Error.Params["code"] != "violation_types.manage" {
				t.Fatalf("message: %s", e.Error.Message)
			}
			env.Anonymous().Do(c.method, c.path, map[string]any{}).Want(http.StatusUnauthorized)
		})
	}
	for _, p := range reads {
		staff.Do("GET", p, nil).Want(http.StatusOK)
		guest.Do("GET", p, nil).Want(http.StatusForbidden)
	}
	if got := typeBySlug(t, bk, ty.Slug); got.Name != "Berkelahi" {
		t.Fatalf("a refused change applied: %+v", got)
	}
}

// TestOpenAPI checks that every route of this feature is documented with
// its permission, and every documented path of the fragment is a route.
func TestOpenAPI(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	b, err := api.OpenAPI()
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	mine := func(p string) bool {
		for _, pre := range []string{"/violation-categories", "/violation-types", "/sp-thresholds", "/handling-types"} {
			if strings.HasPrefix(p, pre) {
				return true
			}
		}
		return false
	}
	registered := map[string]bool{}
	for _, r := range env.API.Router.Routes() {
		p := strings.TrimPrefix(r.Pattern, api.Prefix)
		if !mine(p) {
			continue
		}
		key := strings.ToLower(r.Method) + " " + p
		registered[key] = true
		var op struct {
			Permission string `json:"x-permission"`
		}
		raw, ok := doc.Paths[p][strings.ToLower(r.Method)]
		if !ok {
			t.Errorf("%s is not documented", key)
			continue
		}
		if err := json.Unmarshal(raw, &op); err != nil || op.Permission != string(r.Permission) {
			t.Errorf("%s: x-permission %q, route needs %q", key, op.Permission, r.Permission)
		}
	}
	for p, ops := range doc.Paths {
		if !mine(p) {
			continue
		}
		for m := range ops {
			if m != "parameters" && !registered[m+" "+p] {
				t.Errorf("%s %s documented but not registered", m, p)
			}
		}
	}
}

// TestHandlingTypeSummonsParent: the flag that makes a handling queue the
// parent's summons message is read, set on create and changed on update;
// the default "Panggilan Orang Tua" carries it, before and after a reset.
func TestHandlingTypeSummonsParent(t *testing.T) {
	t.Parallel()
	env, bk := newEnv(t)
	summoning := func() []string {
		t.Helper()
		var l struct{ Data []violationtype.HandlingType }
		bk.Do("GET", "/api/v1/handling-types", nil).Want(http.StatusOK).JSON(&l)
		var out []string
		for _, h := range l.Data {
			if h.SummonsParent {
				out = append(out, h.Name)
			}
		}
		return out
	}
	t.Run("OKDefaults", func(t *testing.T) {
		if got := summoning(); len(got) != 1 || got[0] != "Panggilan Orang Tua" {
			t.Fatalf("summoning defaults: %v", got)
		}
	})
	t.Run("OKCreateUpdate", func(t *testing.T) {
		var h violationtype.HandlingType
		bk.Do("POST", "/api/v1/handling-types", map[string]any{"name": "Undangan Wali", "summons_parent": true}).
			Want(http.StatusCreated).JSON(&h)
		if !h.SummonsParent {
			t.Fatalf("created: %+v", h)
		}
		var plain violationtype.HandlingType
		bk.Do("POST", "/api/v1/handling-types", map[string]any{"name": "Refleksi Diri"}).Want(http.StatusCreated).JSON(&plain)
		if plain.SummonsParent {
			t.Fatalf("created without the flag: %+v", plain)
		}
		// Absent keeps; false clears.
		var u violationtype.HandlingType
		bk.Do("PATCH", "/api/v1/handling-types/"+itoa(h.ID), map[string]any{"name": "Undangan Orang Tua/Wali"}).Want(http.StatusOK).JSON(&u)
		if !u.SummonsParent {
			t.Fatalf("rename dropped the flag: %+v", u)
		}
		bk.Do("PATCH", "/api/v1/handling-types/"+itoa(h.ID), map[string]any{"summons_parent": false}).Want(http.StatusOK).JSON(&u)
		if u.SummonsParent || u.Name != "Undangan Orang Tua/Wali" {
			t.Fatalf("cleared: %+v", u)
		}
		var change string
		env.DB.Get(&change, `SELECT details->'summons_parent'->>'from' || '→' || (details->'summons_parent'->>'to') FROM audit_log
			WHERE action = 'handling_type.update' AND entity_id = $1 ORDER BY id DESC LIMIT 1`, itoa(h.ID))
		if change != "true→false" {
			t.Errorf("audit change: %q", change)
		}
		bk.Do("PATCH", "/api/v1/handling-types/"+itoa(plain.ID), map[string]any{"summons_parent": true}).Want(http.StatusOK).JSON(&u)
		if !u.SummonsParent {
			t.Fatalf("set: %+v", u)
		}
	})
	t.Run("OKAfterReset", func(t *testing.T) {
		ctx := context.Background()
		env.DB.MustExec(`DELETE FROM handlings; DELETE FROM handling_types`)
		tx := env.DB.MustBeginTx(ctx, nil)
		if err := violationtype.EnsureDefaults(ctx, tx); err != nil {
			t.Fatal(err)
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
		if got := summoning(); len(got) != 1 || got[0] != "Panggilan Orang Tua" {
			t.Fatalf("summoning after reset: %v", got)
		}
	})
}
