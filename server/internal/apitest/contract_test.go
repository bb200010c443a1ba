package apitest

import (
	"net/http"
	"strings"
	"testing"
)

// The check finds each kind of drift, and passes what is documented.
func TestContractCheck(t *testing.T) {
	t.Parallel()
	c, err := loadContract()
	if err != nil {
		t.Fatal(err)
	}
	jsonCT := http.Header{"Content-Type": {"application/json; charset=utf-8"}}
	const errBody = `{"error":{"code":"unauthorized","message":"Silakan masuk."}}`
	for _, tc := range []struct {
		name, method, path string
		status             int
		header             http.Header
		body               string
		want               string // part of the complaint; "" when none
	}{
		{"Documented", "GET", "/api/v1/roles", 200, jsonCT, `{"data":[{"role":"bk","label":"BK","locked":false,"permissions":["users.view"]}]}`, ""},
		{"SharedRefusal", "GET", "/api/v1/roles", 401, jsonCT, errBody, ""},
		{"PathParameter", "PUT", "/api/v1/roles/bk/permissions", 404, jsonCT, `{"error":{"code":"not_found","message":"x"}}`, ""},
		{"OutsideTheAPI", "GET", "/healthz", 200, nil, "ok", ""},
		{"WrongType", "GET", "/api/v1/roles", 200, jsonCT, `{"data":[{"role":"bk","label":"BK","locked":"no","permissions":[]}]}`, "at '/data/0/locked'"},
		{"NullNotDocumented", "GET", "/api/v1/roles", 200, jsonCT, `{"data":[{"role":"bk","label":null,"locked":false,"permissions":[]}]}`, "at '/data/0/label'"},
		{"UndocumentedProperty", "GET", "/api/v1/roles", 200, jsonCT, `{"data":[{"role":"bk","label":"BK","locked":false,"permissions":[],"colour":"red"},{"role":"staff","label":"Staf","locked":false,"permissions":[],"colour":"red"}]}`, "/data/*/colour"},
		{"UndocumentedStatus", "GET", "/api/v1/roles", 418, jsonCT, errBody, "status 418 is not documented"},
		{"UndocumentedPath", "GET", "/api/v1/nope", 404, jsonCT, errBody, "not in the OpenAPI document"},
		{"UndocumentedMethod", "DELETE", "/api/v1/roles", 405, jsonCT, errBody, "method is not in the OpenAPI document"},
		{"ContentType", "GET", "/api/v1/roles", 200, http.Header{"Content-Type": {"text/csv"}}, "a,b", `content type "text/csv"`},
		{"NotJSON", "GET", "/api/v1/roles", 200, jsonCT, `{"data":`, "not JSON"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := c.check(tc.method, tc.path, tc.status, tc.header, []byte(tc.body))
			if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
	if got := c.match("/students/sync"); got != "/students/sync" {
		t.Errorf("literal segment: %q", got)
	}
}
