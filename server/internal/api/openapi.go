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
	doc, paths, comps, err := mergeFragments()
	if err != nil {
		return nil, err
	}
	gen, err := generatedSchemas()
	if err != nil {
		return nil, err
	}
	for name, s := range gen {
		hand, _ := comps["schemas"][name].(map[string]any)
		comps["schemas"][name] = keepAnnotations(s, hand)
	}
	for path, ops := range paths {
		for _, raw := range ops.(map[string]any) {
			op, ok := raw.(map[string]any)
			if !ok {
				continue
			}
			describeRefusals(op)
			describeRequestErrors(path, op)
		}
	}
	doc["paths"] = paths
	doc["components"] = comps
	return json.MarshalIndent(doc, "", "  ")
}

// mergeFragments reads every fragment: the document's top level from
// _base.json, and every fragment's paths and components merged.
func mergeFragments() (doc, paths map[string]any, comps map[string]map[string]any, err error) {
	names, err := fs.Glob(openapiFS, "openapi/*.json")
	if err != nil {
		return nil, nil, nil, err
	}
	sort.Strings(names)
	doc = map[string]any{}
	paths = map[string]any{}
	comps = map[string]map[string]any{"schemas": {}}
	for _, n := range names {
		b, err := openapiFS.ReadFile(n)
		if err != nil {
			return nil, nil, nil, err
		}
		var frag map[string]any
		if err := json.Unmarshal(b, &frag); err != nil {
			return nil, nil, nil, fmt.Errorf("openapi: %s: %w", n, err)
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
						return nil, nil, nil, fmt.Errorf("openapi: %s %s documented twice (%s)", m, path, n)
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
						return nil, nil, nil, fmt.Errorf("openapi: components.%s.%s defined twice (%s)", kind, k, n)
					}
					comps[kind][k] = v
				}
			}
		}
	}
	return doc, paths, comps, nil
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

// generalErrors are the shared error responses; an operation whose own
// fragment refuses with another (the journal's shape) gets that one for the
// answers describeRequestErrors adds.
var generalErrors = map[string]bool{"#/components/responses/Error": true, "#/components/responses/Unauthorized": true,
	"#/components/responses/Forbidden": true, "#/components/responses/Invalid": true, "#/components/responses/NotFound": true,
	"#/components/responses/BadRequest": true, "#/components/responses/TooLarge": true, "#/components/responses/UnsupportedMediaType": true}

// describeRequestErrors lists, unless the fragment describes them itself,
// the answers every route gives the same way from the middleware and the
// decoders: 422 for a path or query that is not clean text (or a query
// parameter out of range); with a request body, 400 (unreadable), 413 (too
// large) and 415 (another content type); with a path parameter, 404 (no
// such record).
func describeRequestErrors(path string, op map[string]any) {
	res, _ := op["responses"].(map[string]any)
	if res == nil {
		return
	}
	own := ""
	for code, r := range res {
		ref, _ := r.(map[string]any)["$ref"].(string)
		if code >= "400" && ref != "" && !generalErrors[ref] {
			own = ref
		}
	}
	add := func(code, component string) {
		if _, ok := res[code]; ok {
			return
		}
		ref := "#/components/responses/" + component
		if own != "" {
			ref = own
		}
		res[code] = map[string]any{"$ref": ref}
	}
	add("422", "Invalid")
	if _, ok := op["requestBody"]; ok {
		add("400", "BadRequest")
		add("413", "TooLarge")
		add("415", "UnsupportedMediaType")
	}
	if strings.Contains(path, "{") {
		add("404", "NotFound")
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
