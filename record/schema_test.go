package record_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// This file holds a validator for the part of JSON Schema that Abstract
// Play's game record schema (testdata/apgamerecord-1-0-0.schema.json)
// uses, so that the tests can check everything the writer makes against
// the real schema. A keyword it does not know fails the validation
// rather than passing unchecked, so a new schema cannot be half applied.

const apSchemaFile = "apgamerecord-1-0-0.schema.json"

var (
	apSchemaOnce sync.Once
	apSchema     any
	apSchemaErr  error
)

// apGameRecordSchema returns the decoded schema.
func apGameRecordSchema(t testing.TB) any {
	t.Helper()
	apSchemaOnce.Do(func() {
		data, err := os.ReadFile(filepath.Join("testdata", apSchemaFile))
		if err != nil {
			apSchemaErr = err
			return
		}
		apSchema, apSchemaErr = decodeJSON(data)
	})
	if apSchemaErr != nil {
		t.Fatal(apSchemaErr)
	}
	return apSchema
}

// decodeJSON decodes one JSON value, numbers kept as json.Number so that
// integers can be told from other numbers.
func decodeJSON(data []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if d.More() {
		return nil, fmt.Errorf("more than one JSON value")
	}
	return v, nil
}

// checkAPSchema fails the test unless data is one JSON value that the
// game record schema accepts.
func checkAPSchema(t testing.TB, data []byte) {
	t.Helper()
	if errs := apSchemaErrors(t, data); len(errs) > 0 {
		t.Fatalf("the record does not fit Abstract Play's schema:\n%s\n%s", strings.Join(errs, "\n"), data)
	}
}

// apSchemaErrors returns how data breaks the game record schema.
func apSchemaErrors(t testing.TB, data []byte) []string {
	t.Helper()
	v, err := decodeJSON(data)
	if err != nil {
		return []string{err.Error()}
	}
	return validate(apGameRecordSchema(t), v, "")
}

// validate returns the violations of schema by v, each with the JSON
// pointer of the value at fault.
func validate(schema, v any, at string) []string {
	s, ok := schema.(map[string]any)
	if !ok {
		return []string{fmt.Sprintf("%s: the schema is not an object", at)}
	}
	var errs []string
	bad := func(format string, args ...any) {
		errs = append(errs, fmt.Sprintf("%s: %s", or(at, "/"), fmt.Sprintf(format, args...)))
	}
	keys := make([]string, 0, len(s))
	for k := range s {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	obj, isObj := v.(map[string]any)
	arr, isArr := v.([]any)
	for _, k := range keys {
		kv := s[k]
		switch k {
		case "$schema", "$id", "title", "description", "default":
			// Annotations.
		case "type":
			var types []string
			switch tv := kv.(type) {
			case string:
				types = []string{tv}
			case []any:
				for _, x := range tv {
					types = append(types, x.(string))
				}
			}
			if !slices.ContainsFunc(types, func(ty string) bool { return hasType(v, ty) }) {
				bad("%s is not of type %s", describe(v), strings.Join(types, " or "))
			}
		case "properties":
			if isObj {
				for name, sub := range kv.(map[string]any) {
					if x, ok := obj[name]; ok {
						errs = append(errs, validate(sub, x, at+"/"+name)...)
					}
				}
			}
		case "additionalProperties":
			if !isObj {
				continue
			}
			props, _ := s["properties"].(map[string]any)
			for name, x := range obj {
				if _, ok := props[name]; ok {
					continue
				}
				switch ap := kv.(type) {
				case bool:
					if !ap {
						bad("property %q is not allowed", name)
					}
				default:
					errs = append(errs, validate(ap, x, at+"/"+name)...)
				}
			}
		case "required":
			if isObj {
				for _, name := range kv.([]any) {
					if _, ok := obj[name.(string)]; !ok {
						bad("property %q is required", name)
					}
				}
			}
		case "items":
			if _, tuple := kv.([]any); tuple {
				bad("items as an array is not supported by this validator")
			} else if isArr {
				for i, x := range arr {
					errs = append(errs, validate(kv, x, at+"/"+strconv.Itoa(i))...)
				}
			}
		case "minItems":
			n, err := strconv.Atoi(string(kv.(json.Number)))
			if err != nil {
				bad("minItems %v", kv)
			} else if isArr && len(arr) < n {
				bad("%d items, fewer than %d", len(arr), n)
			}
		case "uniqueItems":
			if kv == true && isArr {
				for i := range arr {
					for j := i + 1; j < len(arr); j++ {
						if jsonEqual(arr[i], arr[j]) {
							bad("items %d and %d are equal", i, j)
						}
					}
				}
			}
		case "oneOf", "anyOf":
			n := 0
			for _, sub := range kv.([]any) {
				if len(validate(sub, v, at)) == 0 {
					n++
				}
			}
			if n == 0 || k == "oneOf" && n > 1 {
				bad("%s matches %d of the %s schemas", describe(v), n, k)
			}
		case "format":
			if kv != "date-time" {
				bad("format %q is not supported by this validator", kv)
			} else if str, ok := v.(string); ok && !isRFC3339DateTime(str) {
				bad("%q is not an RFC 3339 date-time", str)
			}
		default:
			bad("keyword %q is not supported by this validator", k)
		}
	}
	return errs
}

func or(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}

func hasType(v any, ty string) bool {
	switch x := v.(type) {
	case nil:
		return ty == "null"
	case bool:
		return ty == "boolean"
	case string:
		return ty == "string"
	case []any:
		return ty == "array"
	case map[string]any:
		return ty == "object"
	case json.Number:
		if ty == "number" {
			return true
		}
		f, ok := new(big.Float).SetString(string(x))
		return ty == "integer" && ok && f.IsInt()
	}
	return false
}

func describe(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 40 {
		return string(b[:37]) + "..."
	}
	return string(b)
}

// jsonEqual is the equality of JSON Schema: numbers by value, objects
// regardless of the order of their keys.
func jsonEqual(a, b any) bool {
	switch x := a.(type) {
	case json.Number:
		y, ok := b.(json.Number)
		if !ok {
			return false
		}
		fx, okx := new(big.Float).SetString(string(x))
		fy, oky := new(big.Float).SetString(string(y))
		return okx && oky && fx.Cmp(fy) == 0
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !jsonEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !jsonEqual(xv, yv) {
				return false
			}
		}
		return true
	}
	return a == b
}

// rfc3339 is the date-time production of RFC 3339, section 5.6.
var rfc3339 = regexp.MustCompile(`^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|([+-])(\d{2}):(\d{2}))$`)

// isRFC3339DateTime checks the syntax and the ranges of the fields (no
// leap seconds, which the writer never makes).
func isRFC3339DateTime(s string) bool {
	m := rfc3339.FindStringSubmatch(s)
	if m == nil {
		return false
	}
	n := func(i int) int { v, _ := strconv.Atoi(m[i]); return v }
	year, month, day := n(1), n(2), n(3)
	days := []int{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}
	if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
		days[1] = 29
	}
	if month < 1 || month > 12 || day < 1 || day > days[month-1] || n(4) > 23 || n(5) > 59 || n(6) > 59 {
		return false
	}
	return m[9] == "" || n(10) <= 23 && n(11) <= 59
}

// TestSchemaValidator checks the validator itself: records in the
// server's shape pass, and each way of breaking the schema is caught.
func TestSchemaValidator(t *testing.T) {
	for _, name := range []string{"s1.apjson", "repetition.apjson"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		if errs := apSchemaErrors(t, data); len(errs) > 0 {
			t.Errorf("%s: %s", name, strings.Join(errs, "; "))
		}
	}
	data, err := os.ReadFile(filepath.Join("testdata", "ap-array.json"))
	if err != nil {
		t.Fatal(err)
	}
	var arr []json.RawMessage
	if err := json.Unmarshal(data, &arr); err != nil {
		t.Fatal(err)
	}
	for i, raw := range arr {
		if errs := apSchemaErrors(t, raw); len(errs) > 0 {
			t.Errorf("ap-array.json record %d: %s", i+1, strings.Join(errs, "; "))
		}
	}

	const good = `{"header": {"game": {"name": "Emergo", "variants": []}, "site": {"name": "x", "gameid": 7},
		"date-start": "2026-01-02T10:00:00Z", "date-end": "2026-01-02T10:00:00.5+01:00", "date-generated": "2026-01-02T10:00:00Z",
		"players": [{"name": "a", "result": 1}, {"name": "b", "result": 0, "rating": 1500}]},
		"moves": [["d6", {"move": "c1", "result": [{"type": "place"}]}], [null]]}`
	if errs := apSchemaErrors(t, []byte(good)); len(errs) > 0 {
		t.Fatalf("a valid record fails: %s", strings.Join(errs, "; "))
	}
	for _, c := range []struct {
		name, old, new, want string
	}{
		{"no date-end", `"date-end": "2026-01-02T10:00:00.5+01:00", `, ``, `/header: property "date-end" is required`},
		{"equal players", `{"name": "b", "result": 0, "rating": 1500}`, `{"result": 1, "name": "a"}`, `/header/players: items 0 and 1 are equal`},
		{"no result", `{"name": "a", "result": 1}`, `{"name": "a"}`, `/header/players/0: property "result" is required`},
		{"fractional result", `"result": 1}`, `"result": 0.5}`, `/header/players/0/result: 0.5 is not of type integer`},
		{"bad date", `"date-start": "2026-01-02T10:00:00Z"`, `"date-start": "2026-02-30T10:00:00Z"`, `/header/date-start: "2026-02-30T10:00:00Z" is not an RFC 3339 date-time`},
		{"offset of 24 hours", `"date-start": "2026-01-02T10:00:00Z"`, `"date-start": "2026-01-02T10:00:00+24:00"`, `/header/date-start: "2026-01-02T10:00:00+24:00" is not an RFC 3339 date-time`},
		{"top-level field", `"moves":`, `"comments": [], "moves":`, `/: property "comments" is not allowed`},
		{"site field", `"gameid": 7`, `"gameid": 7, "url": "x"`, `/header/site: property "url" is not allowed`},
		{"gameid type", `"gameid": 7`, `"gameid": true`, `/header/site/gameid: true is not of type string or number`},
		{"duplicate variants", `"variants": []`, `"variants": ["7x7", "7x7"]`, `/header/game/variants: items 0 and 1 are equal`},
		{"no players", `"players": [{"name": "a", "result": 1}, {"name": "b", "result": 0, "rating": 1500}]`, `"players": []`, `/header/players: 0 items, fewer than 1`},
		{"number entry", `[null]`, `[7]`, `/moves/1/0: 7 matches 0 of the oneOf schemas`},
		{"object entry without move", `{"move": "c1", `, `{`, `/moves/0/1: {"result":[{"type":"place"}]} matches 0 of the oneOf schemas`},
		{"move result of a number", `"result": [{"type": "place"}]`, `"result": 3`, `/moves/0/1: {"move":"c1","result":3} matches 0 of the oneOf schemas`},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := strings.Replace(good, c.old, c.new, 1)
			if in == good {
				t.Fatalf("%q is not in the record", c.old)
			}
			errs := apSchemaErrors(t, []byte(in))
			if !slices.Contains(errs, c.want) {
				t.Errorf("errors %q, want %q among them", errs, c.want)
			}
		})
	}
}
