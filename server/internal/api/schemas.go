package api

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/invopop/jsonschema"

	wire "github.com/tatib/tatib/shared/api"
)

// wireTypes names the Go type behind each schema the document generates
// from Go (issue 24: the contract typed once). For a name listed here the
// builder uses the generated schema instead of the fragment's; a test
// fails while the fragment's copy says otherwise, and a fragment's copy
// that agrees can be deleted. Add a type when its fragment agrees
// (TATIB_SCHEMA_REPORT=1 go test -run TestSchemaCandidates -v lists where
// the others disagree).
var wireTypes = map[string]any{
	"EarlyWarningCounts":        wire.EarlyWarningCounts{},
	"KioskInput":                wire.KioskInput{},
	"MessagingPreviewRequest":   wire.MessagingPreviewRequest{},
	"MessagingTestResult":       wire.MessagingTestResult{},
	"PortalAchievement":         wire.PortalAchievement{},
	"PortalCodeRequest":         wire.PortalCodeRequest{},
	"PortalStudentSignIn":       wire.PortalStudentSignIn{},
	"PortalVerifyRequest":       wire.PortalVerifyRequest{},
	"ViolationSourcePreference": wire.ViolationSourcePreference{},
}

// schemaFormats are the Go types whose JSON is a string of a known format.
// A school-day date type (YYYY-MM-DD) belongs here as {string, date}.
var schemaFormats = map[reflect.Type]*jsonschema.Schema{
	reflect.TypeFor[time.Time](): {Type: "string", Format: "date-time"},
}

// generatedSchemas returns components.schemas for every name in wireTypes.
func generatedSchemas() (map[string]map[string]any, error) {
	names := map[reflect.Type]string{}
	for name, v := range wireTypes {
		names[reflect.TypeOf(v)] = name
	}
	out := map[string]map[string]any{}
	for name, v := range wireTypes {
		s, err := schemaOf(reflect.TypeOf(v), names)
		if err != nil {
			return nil, fmt.Errorf("openapi: schema %s: %w", name, err)
		}
		out[name] = s
	}
	return out, nil
}

// schemaOf reflects one Go type: its fields by their json names; a field
// tagged omitempty is not required, every other one is; a pointer, slice or
// map may be null (what encoding/json sends for nil); a registered type is
// a $ref to its own schema, any other struct is inlined.
func schemaOf(t reflect.Type, names map[reflect.Type]string) (map[string]any, error) {
	r := &jsonschema.Reflector{
		Anonymous:                 true,
		AllowAdditionalProperties: true,
		DoNotReference:            true,
		ExpandedStruct:            true,
		Mapper: func(ft reflect.Type) *jsonschema.Schema {
			if s, ok := schemaFormats[ft]; ok {
				c := *s
				return &c
			}
			if name, ok := names[ft]; ok && ft != t {
				return &jsonschema.Schema{Ref: "#/components/schemas/" + name}
			}
			return nil
		},
	}
	b, err := json.Marshal(r.ReflectFromType(t))
	if err != nil {
		return nil, err
	}
	var s map[string]any
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, err
	}
	delete(s, "$schema")
	markNullable(t, s, names)
	return s, nil
}

// markNullable walks the Go type beside its schema and lets every pointer,
// slice and map field be null.
func markNullable(t reflect.Type, s map[string]any, names map[reflect.Type]string) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		if items, ok := s["items"].(map[string]any); ok {
			markNullable(t.Elem(), items, names)
		}
		return
	case reflect.Map:
		if ap, ok := s["additionalProperties"].(map[string]any); ok {
			markNullable(t.Elem(), ap, names)
		}
		return
	case reflect.Struct:
	default:
		return
	}
	if _, ok := schemaFormats[t]; ok {
		return
	}
	props, _ := s["properties"].(map[string]any)
	for _, f := range fieldsOf(t) {
		p, ok := props[f.name].(map[string]any)
		if !ok {
			continue
		}
		if _, isRef := names[deref(f.typ)]; !isRef {
			markNullable(f.typ, p, names)
		}
		switch f.typ.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Map:
			if f.typ.Kind() == reflect.Slice && f.typ.Elem().Kind() == reflect.Uint8 {
				continue // []byte is a base64 string; nil sends null too, but no wire type has one
			}
			props[f.name] = nullable(p)
		}
	}
}

func deref(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

// nullable lets a property schema be null: ["T", "null"] for a type, a
// oneOf with null for a reference.
func nullable(p map[string]any) map[string]any {
	switch ty := p["type"].(type) {
	case string:
		p["type"] = []any{ty, "null"}
		return p
	case []any:
		for _, x := range ty {
			if x == "null" {
				return p
			}
		}
		p["type"] = append(ty, "null")
		return p
	}
	return map[string]any{"oneOf": []any{p, map[string]any{"type": "null"}}}
}

type jsonField struct {
	name string
	typ  reflect.Type
}

// fieldsOf lists a struct's JSON fields as encoding/json sends them,
// embedded structs' fields included.
func fieldsOf(t reflect.Type) []jsonField {
	var out []jsonField
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			if et := deref(f.Type); et.Kind() == reflect.Struct {
				out = append(out, fieldsOf(et)...)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out = append(out, jsonField{name, f.Type})
	}
	return out
}

// shapeKeywords are what the generated schema decides; every other keyword
// of the fragment (description, examples, enum, format, pattern, limits,
// default, readOnly ...) is kept until Go says it too.
var shapeKeywords = map[string]bool{
	"type": true, "properties": true, "required": true, "items": true, "additionalProperties": true,
	"$ref": true, "oneOf": true, "anyOf": true, "allOf": true,
}

// keepAnnotations copies onto the generated schema, its own and its
// properties', the fragment's keywords that do not decide the shape, so the
// served document keeps its text, enums and limits while the shape (what
// TestGeneratedSchemasMatchFragments compares) comes from Go.
func keepAnnotations(gen, hand map[string]any) map[string]any {
	if hand == nil {
		return gen
	}
	for k, v := range hand {
		if _, set := gen[k]; !set && !shapeKeywords[k] {
			gen[k] = v
		}
	}
	gp, _ := gen["properties"].(map[string]any)
	hp, _ := hand["properties"].(map[string]any)
	for name, h := range hp {
		g, ok := gp[name].(map[string]any)
		h, _ := h.(map[string]any)
		if !ok || h == nil {
			continue
		}
		keepAnnotations(g, h)
		if gi, ok := g["items"].(map[string]any); ok {
			if hi, ok := h["items"].(map[string]any); ok {
				keepAnnotations(gi, hi)
			}
		}
	}
	return gen
}
