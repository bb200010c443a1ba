package apitest

import (
	"bytes"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/tatib/tatib/server/internal/api"
)

// Every answer a test receives through the test server's client is checked
// against the OpenAPI document as the server serves it: the route and the
// method must be documented, the status must be one of the operation's
// responses (or its default), the content type one the response declares,
// and a JSON body must match the response's schema (JSON Schema 2020-12,
// the dialect of OpenAPI 3.1, formats asserted). Paths outside the API
// (/healthz, the front end) are not checked.

// docURL names the document for the validator; nothing is fetched from it.
const docURL = "https://tatib.invalid/openapi.json"

type contract struct {
	doc   map[string]any
	paths []docPath

	mu       sync.Mutex // the compiler is not safe for concurrent use
	compiler *jsonschema.Compiler
	schemas  map[string]*jsonschema.Schema
}

type docPath struct {
	template string
	segs     []string
}

var loadContract = sync.OnceValues(func() (*contract, error) {
	b, err := api.OpenAPI()
	if err != nil {
		return nil, err
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	doc, _ := v.(map[string]any)
	c := &contract{doc: doc, compiler: jsonschema.NewCompiler(), schemas: map[string]*jsonschema.Schema{}}
	c.compiler.DefaultDraft(jsonschema.Draft2020)
	c.compiler.AssertFormat()
	if err := c.compiler.AddResource(docURL, v); err != nil {
		return nil, err
	}
	paths, _ := doc["paths"].(map[string]any)
	for p := range paths {
		c.paths = append(c.paths, docPath{template: p, segs: strings.Split(strings.Trim(p, "/"), "/")})
	}
	// The most specific template first: literal segments win over
	// parameters, the earlier segment deciding (/students/import before
	// /students/{id}).
	sort.Slice(c.paths, func(i, j int) bool {
		a, b := c.paths[i].segs, c.paths[j].segs
		for k := 0; k < len(a) && k < len(b); k++ {
			pa, pb := isParam(a[k]), isParam(b[k])
			if pa != pb {
				return !pa
			}
		}
		return c.paths[i].template < c.paths[j].template
	})
	return c, nil
})

func isParam(seg string) bool { return strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}") }

// match returns the documented template of an API path (without the
// prefix), or "".
func (c *contract) match(path string) string {
	segs := strings.Split(strings.Trim(path, "/"), "/")
	for _, p := range c.paths {
		if len(p.segs) != len(segs) {
			continue
		}
		ok := true
		for i, s := range p.segs {
			if !(isParam(s) && segs[i] != "") && s != segs[i] {
				ok = false
				break
			}
		}
		if ok {
			return p.template
		}
	}
	return ""
}

// check returns what is wrong with an answer, or "" when it is as
// documented.
func (c *contract) check(method, path string, status int, header http.Header, body []byte) string {
	rel, ok := strings.CutPrefix(path, api.Prefix)
	if !ok || (rel != "" && rel[0] != '/') {
		return ""
	}
	tmpl := c.match(rel)
	if tmpl == "" {
		return fmt.Sprintf("%s %s: the path is not in the OpenAPI document (answered %d)", method, path, status)
	}
	route := method + " " + api.Prefix + tmpl
	ops, _ := c.doc["paths"].(map[string]any)[tmpl].(map[string]any)
	m := strings.ToLower(method)
	op, _ := ops[m].(map[string]any)
	if op == nil {
		return fmt.Sprintf("%s: the method is not in the OpenAPI document (answered %d)", route, status)
	}
	ptr := "/paths/" + esc(tmpl) + "/" + m + "/responses"
	responses, _ := op["responses"].(map[string]any)
	code := strconv.Itoa(status)
	res, ok := responses[code]
	if !ok {
		code = code[:1] + "XX"
		res, ok = responses[code]
	}
	if !ok {
		code = "default"
		res, ok = responses[code]
	}
	if !ok {
		return fmt.Sprintf("%s: status %d is not documented; body: %.300s", route, status, body)
	}
	ptr += "/" + code
	resp, _ := res.(map[string]any)
	if ref, _ := resp["$ref"].(string); ref != "" {
		ptr = strings.TrimPrefix(ref, "#")
		resp = c.lookup(ptr)
	}
	content, _ := resp["content"].(map[string]any)
	if len(content) == 0 {
		if len(body) > 0 {
			return fmt.Sprintf("%s → %d: the document declares no content, the answer has %d bytes of %s", route, status, len(body), header.Get("Content-Type"))
		}
		return ""
	}
	ct := header.Get("Content-Type")
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return fmt.Sprintf("%s → %d: content type %q: %v", route, status, ct, err)
	}
	key := ""
	for _, k := range []string{mt, mt[:strings.IndexByte(mt, '/')+1] + "*", "*/*"} {
		if _, ok := content[k]; ok {
			key = k
			break
		}
	}
	if key == "" {
		declared := make([]string, 0, len(content))
		for k := range content {
			declared = append(declared, k)
		}
		sort.Strings(declared)
		return fmt.Sprintf("%s → %d: content type %q, the document declares %v", route, status, ct, declared)
	}
	if mt != "application/json" && !strings.HasSuffix(mt, "+json") {
		return ""
	}
	media, _ := content[key].(map[string]any)
	if _, ok := media["schema"]; !ok {
		return ""
	}
	sch, err := c.schema(ptr + "/content/" + esc(key) + "/schema")
	if err != nil {
		return fmt.Sprintf("%s → %d: the document's schema does not compile: %v", route, status, err)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
	if err != nil {
		return fmt.Sprintf("%s → %d: the body is not JSON: %v; body: %.300s", route, status, err, body)
	}
	if err := sch.Validate(v); err != nil {
		return fmt.Sprintf("%s → %d: the body does not match the document:\n%v\nbody: %.2000s", route, status, err, body)
	}
	var extra []string
	c.undocumented([]map[string]any{c.lookup(ptr + "/content/" + esc(key) + "/schema")}, v, "", map[string]bool{}, &extra)
	if len(extra) > 0 {
		sort.Strings(extra)
		return fmt.Sprintf("%s → %d: the body has properties the document does not name (schema %s):\n  %s\nbody: %.1000s",
			route, status, ptr+"/content/"+esc(key)+"/schema", strings.Join(extra, "\n  "), body)
	}
	return ""
}

// shape is what a set of schemas (a schema, the ones it refers to and its
// allOf/anyOf/oneOf branches) says about an object's properties and an
// array's items.
type shape struct {
	open  bool // some schema allows any property
	props map[string][]map[string]any
	addl  []map[string]any // additionalProperties schemas
	items []map[string]any
}

func (c *contract) shapeOf(schemas []map[string]any) shape {
	sh := shape{props: map[string][]map[string]any{}}
	var add func(s map[string]any, depth int)
	add = func(s map[string]any, depth int) {
		if s == nil {
			sh.open = true // true, or a schema this check cannot read
			return
		}
		if depth > 32 {
			return
		}
		wrapper := false
		if ref, _ := s["$ref"].(string); strings.HasPrefix(ref, "#/") {
			add(c.lookup(ref[1:]), depth+1)
			wrapper = true
		}
		for _, k := range []string{"allOf", "anyOf", "oneOf"} {
			if l, ok := s[k].([]any); ok {
				wrapper = true
				for _, b := range l {
					m, _ := b.(map[string]any)
					add(m, depth+1)
				}
			}
		}
		if it, ok := s["items"].(map[string]any); ok {
			sh.items = append(sh.items, it)
		}
		props, hasProps := s["properties"].(map[string]any)
		for k, v := range props {
			m, _ := v.(map[string]any)
			sh.props[k] = append(sh.props[k], m)
		}
		addl, hasAddl := s["additionalProperties"]
		switch a := addl.(type) {
		case map[string]any:
			sh.addl = append(sh.addl, a)
		case bool:
			sh.open = sh.open || a
		}
		if _, ok := s["patternProperties"]; ok {
			sh.open = true
		}
		if !hasProps && !hasAddl && !wrapper && allowsObject(s) {
			sh.open = true // {"type": "object"}: a free-form object
		}
	}
	for _, s := range schemas {
		add(s, 0)
	}
	return sh
}

func allowsObject(s map[string]any) bool {
	switch t := s["type"].(type) {
	case nil:
		_, enum := s["enum"]
		_, cnst := s["const"]
		return !enum && !cnst
	case string:
		return t == "object"
	case []any:
		for _, x := range t {
			if x == "object" {
				return true
			}
		}
	}
	return false
}

// undocumented adds to out the pointer (array indices as *) of every
// property of v that none of the schemas names: a schema without
// additionalProperties is not closed to other properties, but a property
// the server sends and the document does not name is drift all the same
// (a client generated from the document does not see it).
func (c *contract) undocumented(schemas []map[string]any, v any, at string, seen map[string]bool, out *[]string) {
	sh := c.shapeOf(schemas)
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			p := at + "/" + esc(k)
			switch {
			case sh.props[k] != nil:
				c.undocumented(sh.props[k], x, p, seen, out)
			case len(sh.addl) > 0:
				c.undocumented(sh.addl, x, at+"/*", seen, out)
			case !sh.open && !seen[p]:
				seen[p] = true
				*out = append(*out, p)
			}
		}
	case []any:
		if len(sh.items) > 0 {
			for _, x := range v {
				c.undocumented(sh.items, x, at+"/*", seen, out)
			}
		}
	}
}

// lookup follows a JSON pointer (unescaped tokens joined by /, ~ escapes
// as in RFC 6901) from the document's root to an object.
func (c *contract) lookup(ptr string) map[string]any {
	var v any = c.doc
	for _, tok := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
		m, _ := v.(map[string]any)
		v = m[tok]
	}
	m, _ := v.(map[string]any)
	return m
}

func (c *contract) schema(ptr string) (*jsonschema.Schema, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s, ok := c.schemas[ptr]; ok {
		return s, nil
	}
	frag := make([]string, 0, 8)
	for _, tok := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		frag = append(frag, url.PathEscape(tok))
	}
	s, err := c.compiler.Compile(docURL + "#/" + strings.Join(frag, "/"))
	if err != nil {
		return nil, err
	}
	c.schemas[ptr] = s
	return s, nil
}

// esc escapes one JSON pointer token.
func esc(tok string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(tok)
}

// checkedTransport checks every answer of the test server's client against
// the document and fails the test on a mismatch (t.Errorf: requests may
// come from a test's goroutines).
type checkedTransport struct {
	base http.RoundTripper
	t    interface{ Errorf(string, ...any) }
	seen *sync.Map // each mismatch once per test: walks repeat requests
}

func (ct checkedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	res, err := ct.base.RoundTrip(req)
	if err != nil {
		return res, err
	}
	if !strings.HasPrefix(req.URL.Path, api.Prefix+"/") || Unchecked(req) {
		return res, nil
	}
	c, err := loadContract()
	if err != nil {
		ct.t.Errorf("contract: %v", err)
		return res, nil
	}
	b, err := io.ReadAll(res.Body)
	res.Body.Close()
	res.Body = io.NopCloser(bytes.NewReader(b))
	if err != nil {
		return res, nil // the caller sees the short body
	}
	if msg := c.check(req.Method, req.URL.Path, res.StatusCode, res.Header, b); msg != "" {
		key, _, _ := strings.Cut(msg, "body:") // the same mismatch in another body
		if _, dup := ct.seen.LoadOrStore(key, true); !dup {
			ct.t.Errorf("contract: %s", msg)
		}
	}
	return res, nil
}

func (ct checkedTransport) CloseIdleConnections() {
	if c, ok := ct.base.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}

// uncheckedHeader marks a request whose answer is not checked against the
// document: a test that sends what no client would (a path that is not an
// API route, to see the router's 404).
const uncheckedHeader = "X-Apitest-Unchecked"

// Unchecked reports whether req opted out of the contract check.
func Unchecked(req *http.Request) bool { return req.Header.Get(uncheckedHeader) != "" }

// Undocumented returns headers for Client.Do that leave the answer unchecked
// against the OpenAPI document; only for requests to paths that are not
// API routes on purpose.
func Undocumented() []string { return []string{uncheckedHeader, "1"} }
