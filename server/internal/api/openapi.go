package api

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"sort"
	"strings"
	"sync"
)

// The OpenAPI document is assembled from one fragment per feature in
// openapi/: _base.json holds info and shared components, every other file
// adds "paths" and "components.schemas". A test checks it against the
// registered routes both ways.
//
//go:embed openapi/*.json
var openapiFS embed.FS

var (
	docOnce sync.Once
	docJSON []byte
	docErr  error
)

// OpenAPI returns the merged document.
func OpenAPI() ([]byte, error) {
	docOnce.Do(func() { docJSON, docErr = buildOpenAPI() })
	return docJSON, docErr
}

func buildOpenAPI() ([]byte, error) {
	names, err := fs.Glob(openapiFS, "openapi/*.json")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	doc := map[string]any{}
	paths := map[string]any{}
	comps := map[string]map[string]any{}
	for _, n := range names {
		b, err := openapiFS.ReadFile(n)
		if err != nil {
			return nil, err
		}
		var frag map[string]any
		if err := json.Unmarshal(b, &frag); err != nil {
			return nil, fmt.Errorf("openapi: %s: %w", n, err)
		}
		if strings.HasSuffix(n, "/_base.json") {
			for k, v := range frag {
				if k != "components" && k != "paths" {
					doc[k] = v
				}
			}
		}
		if p, ok := frag["paths"].(map[string]any); ok {
			for path, ops := range p {
				existing, _ := paths[path].(map[string]any)
				if existing == nil {
					existing = map[string]any{}
				}
				for m, op := range ops.(map[string]any) {
					if _, dup := existing[m]; dup {
						return nil, fmt.Errorf("openapi: %s %s documented twice (%s)", m, path, n)
					}
					existing[m] = op
				}
				paths[path] = existing
			}
		}
		if c, ok := frag["components"].(map[string]any); ok {
			for kind, entries := range c {
				if comps[kind] == nil {
					comps[kind] = map[string]any{}
				}
				for k, v := range entries.(map[string]any) {
					if _, dup := comps[kind][k]; dup {
						return nil, fmt.Errorf("openapi: components.%s.%s defined twice (%s)", kind, k, n)
					}
					comps[kind][k] = v
				}
			}
		}
	}
	for _, ops := range paths {
		for _, raw := range ops.(map[string]any) {
			op, ok := raw.(map[string]any)
			if !ok {
				continue
			}
			describeRefusals(op)
		}
	}
	doc["paths"] = paths
	doc["components"] = comps
	return json.MarshalIndent(doc, "", "  ")
}

// describeRefusals lists, on an operation that needs a sign-in, the 401
// every such route answers without one, and the 403 of a route that needs
// a permission, unless its fragment describes them itself: they are
// answered by the router's guard, the same for every route.
func describeRefusals(op map[string]any) {
	perm, _ := op["x-permission"].(string)
	if perm == "" || perm == "public" {
		return
	}
	res, _ := op["responses"].(map[string]any)
	if res == nil {
		res = map[string]any{}
		op["responses"] = res
	}
	if _, ok := res["401"]; !ok {
		res["401"] = map[string]any{"$ref": "#/components/responses/Unauthorized"}
	}
	if _, ok := res["403"]; !ok && perm != "authenticated" {
		res["403"] = map[string]any{"$ref": "#/components/responses/Forbidden"}
	}
}

func serveOpenAPI(w http.ResponseWriter, r *http.Request) error {
	b, err := OpenAPI()
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	_, err = w.Write(b)
	return err
}
