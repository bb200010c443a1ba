package api

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
)

// Every registered wire type's schema, generated from Go, says what its
// fragment says in properties, required and types: while a fragment
// disagrees one of the two is wrong; once it agrees, the fragment's copy can
// be deleted (the builder serves the generated one).
func TestGeneratedSchemasMatchFragments(t *testing.T) {
	_, _, comps, err := mergeFragments()
	if err != nil {
		t.Fatal(err)
	}
	gen, err := generatedSchemas()
	if err != nil {
		t.Fatal(err)
	}
	hand := comps["schemas"]
	for _, name := range sortedKeys(gen) {
		h, ok := hand[name].(map[string]any)
		if !ok {
			continue // described by Go alone
		}
		for _, d := range shapeDiff(name, shapeOf(gen[name], hand), shapeOf(h, hand)) {
			t.Errorf("%s (generated from Go | fragment)", d)
		}
	}
}

// The rules the generation follows, on a type made for the test.
func TestSchemaOfRules(t *testing.T) {
	type inner struct {
		N int `json:"n"`
	}
	type registered struct {
		ID int64 `json:"id"`
	}
	type base struct {
		Embedded string `json:"embedded"`
	}
	type sample struct {
		base
		Name     string            `json:"name"`
		Note     string            `json:"note,omitempty"`
		Count    *int              `json:"count"`
		At       time.Time         `json:"at"`
		Until    *time.Time        `json:"until"`
		Since    *time.Time        `json:"since,omitempty"`
		Secret   *string           `json:"secret,omitempty" jsonschema:"nullable"` // also a request body's
		Tags     []string          `json:"tags"`
		Maybe    []string          `json:"maybe" jsonschema:"nullable"`
		Extra    map[string]int    `json:"extra"`
		Inner    inner             `json:"inner"`
		Ref      registered        `json:"ref"`
		RefPtr   *registered       `json:"ref_ptr" jsonschema_description:"null: none"`
		Refs     []registered      `json:"refs"`
		ByName   map[string]string `json:"by_name,omitempty"`
		Level    string            `json:"level" openapi:"Level"`
		Levels   []string          `json:"levels" openapi:"Level" jsonschema_description:"each a Level"`
		Day      string            `json:"day" jsonschema:"format=date,maxLength=10" jsonschema_description:"a, day"`
		Stored   bool              `json:"stored" jsonschema_extras:"readOnly=true"` // sent, but a body leaves it out
		internal string
		Skipped  string `json:"-"`
	}
	names := map[reflect.Type]string{reflect.TypeFor[registered](): "Registered"}
	s, err := schemaOf(reflect.TypeFor[sample](), names, false)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(s)
	want := `{"properties":{` +
		`"at":{"format":"date-time","type":"string"},` +
		`"by_name":{"additionalProperties":{"type":"string"},"type":"object"},` +
		`"count":{"type":["integer","null"]},` +
		`"day":{"description":"a, day","format":"date","maxLength":10,"type":"string"},` +
		`"embedded":{"type":"string"},` +
		`"extra":{"additionalProperties":{"type":"integer"},"type":"object"},` +
		`"inner":{"properties":{"n":{"type":"integer"}},"required":["n"],"type":"object"},` +
		`"level":{"$ref":"#/components/schemas/Level"},` +
		`"levels":{"description":"each a Level","items":{"$ref":"#/components/schemas/Level"},"type":"array"},` +
		`"maybe":{"items":{"type":"string"},"type":["array","null"]},` +
		`"name":{"type":"string"},` +
		`"note":{"type":"string"},` +
		`"ref":{"$ref":"#/components/schemas/Registered"},` +
		`"ref_ptr":{"description":"null: none","oneOf":[{"$ref":"#/components/schemas/Registered"},{"type":"null"}]},` +
		`"refs":{"items":{"$ref":"#/components/schemas/Registered"},"type":"array"},` +
		`"secret":{"type":["string","null"]},` +
		`"since":{"format":"date-time","type":"string"},` +
		`"stored":{"readOnly":true,"type":"boolean"},` +
		`"tags":{"items":{"type":"string"},"type":"array"},` +
		`"until":{"format":"date-time","type":["string","null"]}},` +
		`"required":["embedded","name","count","at","until","tags","maybe","extra","inner","ref","ref_ptr","refs","level","levels","day"],"type":"object"}`
	if string(got) != want {
		t.Errorf("response schema\n got %s\nwant %s", got, want)
	}

	// A request body: required only where tagged so; pointers may be null
	// (an enum's too), another field where tagged nullable; a map's enum is
	// its values'.
	type input struct {
		Name   *string           `json:"name"`
		Note   string            `json:"note" jsonschema:"nullable,maxLength=5"` // null decodes as absent
		IDs    []int64           `json:"ids" jsonschema:"required,minItems=1"`
		Level  string            `json:"level" jsonschema:"required" openapi:"Level"`
		Source *string           `json:"source" jsonschema:"enum=a,enum=b"`
		Modes  map[string]string `json:"modes" jsonschema:"enum=on,enum=off"`
	}
	s, err = schemaOf(reflect.TypeFor[input](), names, true)
	if err != nil {
		t.Fatal(err)
	}
	got, _ = json.Marshal(s)
	want = `{"properties":{` +
		`"ids":{"items":{"type":"integer"},"minItems":1,"type":"array"},` +
		`"level":{"$ref":"#/components/schemas/Level"},` +
		`"modes":{"additionalProperties":{"enum":["on","off"],"type":"string"},"type":"object"},` +
		`"name":{"type":["string","null"]},` +
		`"note":{"maxLength":5,"type":["string","null"]},` +
		`"source":{"enum":["a","b",null],"type":["string","null"]}},` +
		`"required":["ids","level"],"type":"object"}`
	if string(got) != want {
		t.Errorf("request schema\n got %s\nwant %s", got, want)
	}
	_ = sample{}.internal
}

// A type registered as an answer and as a body is referred to by the
// answer's name; registered twice the same way, it is an error.
func TestTypeNames(t *testing.T) {
	type profile struct {
		Name string `json:"name"`
	}
	names, err := typeNames(map[string]any{"Profile": profile{}, "AProfileInput": request(profile{})})
	if err != nil {
		t.Fatal(err)
	}
	if got := names[reflect.TypeFor[profile]()]; got != "Profile" {
		t.Errorf("a reference names %q, want the answer's Profile", got)
	}
	if _, err := typeNames(map[string]any{"Profile": profile{}, "Other": profile{}}); err == nil {
		t.Error("a type registered twice as an answer: no error")
	}
}

// The served document holds the generated schema of each registered type,
// with the fragment's text.
func TestServedSchemasAreGenerated(t *testing.T) {
	b, err := OpenAPI()
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Components struct {
			Schemas map[string]any `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	gen, err := generatedSchemas()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range sortedKeys(gen) {
		served, _ := doc.Components.Schemas[name].(map[string]any)
		if d := shapeDiff(name, shapeOf(gen[name], nil), shapeOf(served, nil)); len(d) > 0 {
			t.Errorf("served %s is not the generated one: %v", name, d)
		}
	}
	total := asMap(asMap(asMap(doc.Components.Schemas["EarlyWarningCounts"])["properties"])["total"])
	if total["description"] != "distinct students with at least one warning" {
		t.Errorf("EarlyWarningCounts.total lost its fragment's description: %v", total)
	}
}

// shape is what TestGeneratedSchemasMatchFragments compares of a schema.
type shape struct {
	Types    []string
	Props    map[string]*shape
	Required []string
	Items    *shape
	Values   *shape // additionalProperties
}

// shapeOf reduces a schema to its types (a $ref counts as the type
// "$ref:Name"; oneOf/anyOf members add theirs), its properties, required
// names, items and map values. allOf members are merged, resolving a $ref
// member through schemas.
func shapeOf(s map[string]any, schemas map[string]any) *shape {
	if s == nil {
		return nil
	}
	sh := &shape{}
	types := map[string]bool{}
	switch ty := s["type"].(type) {
	case string:
		types[ty] = true
	case []any:
		for _, x := range ty {
			types[fmt.Sprint(x)] = true
		}
	}
	if ref, ok := s["$ref"].(string); ok {
		types["$ref:"+strings.TrimPrefix(ref, "#/components/schemas/")] = true
	}
	for _, k := range []string{"oneOf", "anyOf"} {
		members, _ := s[k].([]any)
		for _, m := range members {
			if ms := shapeOf(asMap(m), schemas); ms != nil {
				for _, x := range ms.Types {
					types[x] = true
				}
				if ms.Props != nil {
					sh.Props, sh.Required = ms.Props, ms.Required
				}
				if ms.Items != nil {
					sh.Items = ms.Items
				}
			}
		}
	}
	props := map[string]any{}
	var required []string
	collect := func(m map[string]any) {
		if p, ok := m["properties"].(map[string]any); ok {
			for k, v := range p {
				props[k] = v
			}
		}
		for _, r := range asSlice(m["required"]) {
			required = append(required, fmt.Sprint(r))
		}
	}
	collect(s)
	if all, ok := s["allOf"].([]any); ok {
		types["object"] = true
		for _, m := range all {
			mm := asMap(m)
			if ref, ok := mm["$ref"].(string); ok && schemas != nil {
				mm = asMap(schemas[strings.TrimPrefix(ref, "#/components/schemas/")])
			}
			collect(mm)
		}
	}
	if len(props) > 0 {
		sh.Props = map[string]*shape{}
		for k, v := range props {
			sh.Props[k] = shapeOf(asMap(v), schemas)
		}
		sort.Strings(required)
		sh.Required = slices.Compact(required)
	}
	sh.Items = firstNonNil(shapeOf(asMap(s["items"]), schemas), sh.Items)
	sh.Values = shapeOf(asMap(s["additionalProperties"]), schemas)
	for x := range types {
		sh.Types = append(sh.Types, x)
	}
	sort.Strings(sh.Types)
	return sh
}

// shapeDiff lists where two shapes differ, by path.
func shapeDiff(path string, a, b *shape) []string {
	if a == nil || b == nil {
		if (a == nil) != (b == nil) {
			return []string{fmt.Sprintf("%s: %v | %v", path, describe(a), describe(b))}
		}
		return nil
	}
	var out []string
	if !slices.Equal(a.Types, b.Types) {
		out = append(out, fmt.Sprintf("%s: type %v | %v", path, a.Types, b.Types))
	}
	if !slices.Equal(a.Required, b.Required) && (a.Props != nil || b.Props != nil) {
		out = append(out, fmt.Sprintf("%s: required %v | %v", path, a.Required, b.Required))
	}
	names := map[string]bool{}
	for k := range a.Props {
		names[k] = true
	}
	for k := range b.Props {
		names[k] = true
	}
	for _, k := range sortedKeys(names) {
		out = append(out, shapeDiff(path+"."+k, a.Props[k], b.Props[k])...)
	}
	out = append(out, shapeDiff(path+"[]", a.Items, b.Items)...)
	out = append(out, shapeDiff(path+"{}", a.Values, b.Values)...)
	return out
}

func describe(s *shape) string {
	if s == nil {
		return "absent"
	}
	return fmt.Sprint(s.Types)
}

func asMap(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

func asSlice(v any) []any {
	s, _ := v.([]any)
	return s
}

func firstNonNil(a, b *shape) *shape {
	if a != nil {
		return a
	}
	return b
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
