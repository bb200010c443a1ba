package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/tatib/tatib/server/internal/api"
	"github.com/tatib/tatib/server/internal/apitest"
	"github.com/tatib/tatib/server/internal/httpx"
	"github.com/tatib/tatib/shared/perm"
)

// TestOpenAPIMatchesRouter fails when a route is registered but not
// documented, documented but not registered, or documented with another
// permission than the router enforces.
func TestOpenAPIMatchesRouter(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	var doc struct {
		OpenAPI string                                `json:"openapi"`
		Paths   map[string]map[string]json.RawMessage `json:"paths"`
	}
	env.Anonymous().Do("GET", "/api/v1/openapi.json", nil).Want(200).JSON(&doc)
	if !strings.HasPrefix(doc.OpenAPI, "3.1") {
		t.Fatalf("openapi version %q", doc.OpenAPI)
	}
	documented := map[string]string{}
	for p, ops := range doc.Paths {
		for m, raw := range ops {
			if m == "parameters" || m == "summary" || m == "description" {
				continue
			}
			var op struct {
				Permission string `json:"x-permission"`
			}
			if err := json.Unmarshal(raw, &op); err != nil {
				t.Fatalf("%s %s: %v", m, p, err)
			}
			if op.Permission == "" {
				t.Errorf("%s %s: no x-permission", strings.ToUpper(m), p)
			}
			documented[strings.ToUpper(m)+" "+api.Prefix+p] = op.Permission
		}
	}
	registered := map[string]string{}
	for _, r := range env.API.Router.Routes() {
		registered[r.Method+" "+r.Pattern] = string(r.Permission)
	}
	for k, p := range registered {
		dp, ok := documented[k]
		switch {
		case !ok:
			t.Errorf("registered but not documented: %s", k)
		case dp != p:
			t.Errorf("%s: router needs %q, document says %q", k, p, dp)
		}
	}
	for k := range documented {
		if _, ok := registered[k]; !ok {
			t.Errorf("documented but not registered: %s", k)
		}
	}
	if len(registered) < 10 {
		t.Fatalf("only %d routes registered", len(registered))
	}
}

// TestEveryRoutePermission walks every registered route with a user of each
// role and checks that the answer is 403 exactly where the role lacks the
// route's permission, before and after the matrix is changed.
func TestEveryRoutePermission(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	routes := env.API.Router.Routes()
	users := map[perm.Role]int64{}
	for _, r := range perm.Roles {
		users[r], _ = env.CreateUser(r)
	}
	matrix := map[perm.Role][]perm.Name{}
	for _, r := range perm.Roles {
		matrix[r] = perm.Defaults(r)
	}
	walk := func(t *testing.T) {
		for _, rt := range routes {
			for _, role := range perm.Roles {
				c := env.Session(users[role], role)
				res := c.Do(rt.Method, concrete(rt.Pattern), body(rt.Method))
				allowed := rt.Permission == perm.Public || rt.Permission == perm.Authenticated || slices.Contains(matrix[role], rt.Permission)
				// The journal's and the gate kiosk's routes are public at the
				// router and guarded by their device token in the handler: 401
				// there names the token.
				journalToken := rt.Permission == perm.Public && res.Status == http.StatusUnauthorized &&
					(strings.HasPrefix(res.Err().Error.MessageCode, "journal.token_") || res.Err().Error.MessageCode == "face.kiosk_token_invalid")
				// A family portal route answers 401 to every staff session.
				if rt.Permission == perm.Guardian {
					if res.Status != http.StatusUnauthorized {
						t.Errorf("%s %s as %s: %d, want 401 (portal route)", rt.Method, rt.Pattern, role, res.Status)
					}
					continue
				}
				switch {
				case allowed && !journalToken && (res.Status == http.StatusForbidden || res.Status == http.StatusUnauthorized):
					t.Errorf("%s %s as %s (has %s): %d %s", rt.Method, rt.Pattern, role, rt.Permission, res.Status, res.Body)
				case !allowed && res.Status != http.StatusForbidden:
					t.Errorf("%s %s as %s (lacks %s): %d, want 403", rt.Method, rt.Pattern, role, rt.Permission, res.Status)
				case !allowed:
					// People read the permission's label; programs get its code.
					e := res.Err().Error
					label, _ := perm.Lookup(rt.Permission)
					if e.Params["code"] != string(rt.Permission) || !strings.Contains(e.Message, label.Label) {
						t.Errorf("%s %s as %s: 403 does not name the permission: %q %v", rt.Method, rt.Pattern, role, e.Message, e.Params)
					}
				}
			}
		}
	}
	t.Run("Defaults", walk)

	admin := env.Session(users[perm.Admin], perm.Admin)
	staff := []perm.Name{perm.UsersView, perm.RolesManage, perm.DashboardView}
	admin.Do("PUT", "/api/v1/roles/staff/permissions", map[string]any{"permissions": staff}).Want(200)
	matrix[perm.Staff] = staff
	admin.Do("PUT", "/api/v1/roles/other/permissions", map[string]any{"permissions": []string{}}).Want(200)
	matrix[perm.Other] = nil
	bk := append([]perm.Name{}, perm.Defaults(perm.BK)...)
	bk = slices.DeleteFunc(bk, func(n perm.Name) bool { return n == perm.DashboardView })
	admin.Do("PUT", "/api/v1/roles/bk/permissions", map[string]any{"permissions": bk}).Want(200)
	matrix[perm.BK] = bk
	t.Run("AfterChange", walk)

	t.Run("ErrAdminLocked", func(t *testing.T) {
		admin.Do("PUT", "/api/v1/roles/admin/permissions", map[string]any{"permissions": []string{}}).Want(409)
	})
	t.Run("ErrUnknownRoleOrPermission", func(t *testing.T) {
		admin.Do("PUT", "/api/v1/roles/raja/permissions", map[string]any{"permissions": []string{}}).Want(404)
		e := admin.Do("PUT", "/api/v1/roles/bk/permissions", map[string]any{"permissions": []string{"terbang"}}).Want(422).Err()
		if e.Error.Fields["permissions"] == "" {
			t.Fatalf("%+v", e)
		}
	})
	t.Run("RolesListed", func(t *testing.T) {
		var roles struct {
			Data []struct {
				Role        perm.Role   `json:"role"`
				Locked      bool        `json:"locked"`
				Permissions []perm.Name `json:"permissions"`
			} `json:"data"`
		}
		admin.Do("GET", "/api/v1/roles", nil).Want(200).JSON(&roles)
		if len(roles.Data) != len(perm.Roles) {
			t.Fatalf("%d roles", len(roles.Data))
		}
		for _, r := range roles.Data {
			if (r.Role == perm.Admin) != r.Locked {
				t.Errorf("%s locked=%v", r.Role, r.Locked)
			}
			want := matrix[r.Role]
			if r.Role == perm.Admin {
				want = perm.Defaults(perm.Admin)
			}
			if fmt.Sprint(sorted(r.Permissions)) != fmt.Sprint(sorted(want)) {
				t.Errorf("%s: %v, want %v", r.Role, r.Permissions, want)
			}
		}
	})
}

var param = regexp.MustCompile(`\{[^}]+\}`)

func concrete(pattern string) string {
	return param.ReplaceAllStringFunc(pattern, func(p string) string {
		if p == "{role}" {
			return "staff"
		}
		return "999999"
	})
}

func body(method string) any {
	if method == http.MethodGet || method == http.MethodDelete {
		return nil
	}
	return map[string]any{}
}

func sorted(n []perm.Name) []perm.Name {
	out := append([]perm.Name{}, n...)
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

func TestManners(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	anon := env.Anonymous()
	t.Run("Health", func(t *testing.T) {
		anon.Do("GET", "/healthz", nil).Want(200)
		anon.Do("GET", "/readyz", nil).Want(200)
	})
	t.Run("UnknownAPIPathIsJSON404", func(t *testing.T) {
		for _, p := range []string{"/api/v1/tidak-ada", "/api/v2/users", "/api/x"} {
			e := anon.Do("GET", p, nil, apitest.Undocumented()...).Want(404).Err()
			if e.Error.Code != "not_found" {
				t.Errorf("%s: %+v", p, e)
			}
		}
	})
	t.Run("SecurityHeaders", func(t *testing.T) {
		res := anon.Do("GET", "/api/v1/auth/me", nil)
		for _, h := range []string{"X-Content-Type-Options", "X-Frame-Options", "Content-Security-Policy", "Referrer-Policy", "X-Request-Id"} {
			if res.Header.Get(h) == "" {
				t.Errorf("missing %s", h)
			}
		}
	})
	t.Run("ErrBodyTooLarge", func(t *testing.T) {
		big := `{"username":"` + strings.Repeat("a", 2<<20) + `","password":"x"}`
		e := anon.Do("POST", "/api/v1/auth/login", []byte(big)).Want(413).Err()
		if e.Error.Code != "too_large" {
			t.Fatalf("%+v", e)
		}
	})
	t.Run("ErrNotJSON", func(t *testing.T) {
		anon.Do("POST", "/api/v1/auth/login", strings.NewReader("username=a"), "Content-Type", "application/x-www-form-urlencoded").Want(415)
	})
	t.Run("StatusMapping", func(t *testing.T) {
		for code, status := range map[string]int{"invalid": 422, "bad_request": 400, "unauthorized": 401, "forbidden": 403, "not_found": 404,
			"method_not_allowed": 405, "conflict": 409, "too_large": 413, "unsupported_media_type": 415, "rate_limited": 429,
			"internal": 500, "unavailable": 503, "whatever": 500} {
			if got := httpx.Status(code); got != status {
				t.Errorf("%s: %d, want %d", code, got, status)
			}
		}
	})
	t.Run("FrontEndFallback", func(t *testing.T) {
		res := anon.Do("GET", "/pengguna/123", nil)
		if res.Status != 200 && res.Status != 503 { // 503 when the front end is not built into this binary
			t.Fatalf("SPA route: %d", res.Status)
		}
	})
}

// The document is OpenAPI 3.1 as it is served: no 3.0 "nullable" (a 3.1
// validator rejects the nulls it stands for: a null is a type), every
// signed-in route lists its 401 and every route with a permission its 403,
// and the journal's error is not nested one level too deep.
func TestOpenAPIDescribesWhatIsSent(t *testing.T) {
	t.Parallel()
	b, err := api.OpenAPI()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), `"nullable"`) {
		t.Error(`the document uses 3.0's "nullable"`)
	}
	var doc struct {
		Paths      map[string]map[string]json.RawMessage `json:"paths"`
		Components struct {
			Schemas map[string]json.RawMessage `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	for p, ops := range doc.Paths {
		for m, raw := range ops {
			var op struct {
				Permission string                     `json:"x-permission"`
				Responses  map[string]json.RawMessage `json:"responses"`
			}
			if json.Unmarshal(raw, &op) != nil || op.Permission == "" {
				continue
			}
			if _, ok := op.Responses["401"]; op.Permission != "public" && !ok {
				t.Errorf("%s %s: no 401", m, p)
			}
			if _, ok := op.Responses["403"]; op.Permission != "public" && op.Permission != "authenticated" && !ok {
				t.Errorf("%s %s: no 403", m, p)
			}
		}
	}
	if !strings.Contains(string(doc.Components.Schemas["JournalFailure"]), "#/components/schemas/ErrorBody") {
		t.Errorf("JournalFailure.error: %s", doc.Components.Schemas["JournalFailure"])
	}
	if !strings.Contains(string(doc.Components.Schemas["Permission"]), "admin_only") {
		t.Error("Permission lacks admin_only")
	}
}
