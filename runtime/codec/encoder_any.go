package codec

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
)

// maxAnyDepth bounds the nesting Encoder.Any follows, so that a map or
// slice that contains itself fails instead of recursing forever.
const maxAnyDepth = 1000

// Any writes a JSON-shaped value: nil, bool, string, float64, float32,
// the integer types, map[string]any, []any, []string and map[string]string
// (maps with their keys sorted, nil maps and slices as null), as
// encoding/json writes them. Any other type fails (and writes null): the
// encoder cannot look inside it without reflection.
func (e *Encoder) Any(v any) {
	e.anyValue(v, 0)
}

// anyValue writes v, found depth containers below the value Any was given,
// as Any does; containers go to anyArray and its siblings.
func (e *Encoder) anyValue(v any, depth int) {
	if depth > maxAnyDepth {
		e.Fail(errors.New("codec: value nested more than " + strconv.Itoa(maxAnyDepth) + " levels deep (does it contain itself?)"))
		e.Null()
		return
	}
	switch v := v.(type) {
	case nil:
		e.Null()
	case bool:
		e.Bool(v)
	case string:
		e.String(v)
	case float64:
		e.Float(v, 64)
	case float32:
		e.Float(float64(v), 32)
	case int:
		e.Int(int64(v))
	case int8:
		e.Int(int64(v))
	case int16:
		e.Int(int64(v))
	case int32:
		e.Int(int64(v))
	case int64:
		e.Int(v)
	case uint:
		e.Uint(uint64(v))
	case uint8:
		e.Uint(uint64(v))
	case uint16:
		e.Uint(uint64(v))
	case uint32:
		e.Uint(uint64(v))
	case uint64:
		e.Uint(v)
	case uintptr:
		e.Uint(uint64(v))
	case []any:
		e.anyArray(v, depth)
	case []string:
		e.stringArray(v)
	case map[string]any:
		e.anyObject(v, depth)
	case map[string]string:
		e.stringObject(v)
	default:
		e.Fail(fmt.Errorf("codec: cannot encode a value of type %T without reflection; use a JSON-shaped value", v))
		e.Null()
	}
}

// anyArray writes v, met by anyValue at depth, as an array, or null when
// v is nil.
func (e *Encoder) anyArray(v []any, depth int) {
	if v == nil {
		e.Null()
		return
	}
	e.ArrayStart()
	for _, x := range v {
		e.anyValue(x, depth+1)
	}
	e.ArrayEnd()
}

// stringArray writes v as an array of strings, or null when v is nil.
func (e *Encoder) stringArray(v []string) {
	if v == nil {
		e.Null()
		return
	}
	e.ArrayStart()
	for _, x := range v {
		e.String(x)
	}
	e.ArrayEnd()
}

// anyObject writes v, met by anyValue at depth, as an object whose members
// are in key order, or null when v is nil.
func (e *Encoder) anyObject(v map[string]any, depth int) {
	if v == nil {
		e.Null()
		return
	}
	e.ObjectStart()
	for _, k := range sortedKeys(v) {
		e.Key(k)
		e.anyValue(v[k], depth+1)
	}
	e.ObjectEnd()
}

// stringObject writes v as an object of strings whose members are in key
// order, or null when v is nil.
func (e *Encoder) stringObject(v map[string]string) {
	if v == nil {
		e.Null()
		return
	}
	e.ObjectStart()
	for _, k := range sortedKeys(v) {
		e.Key(k)
		e.String(v[k])
	}
	e.ObjectEnd()
}

// sortedKeys returns the keys of m in byte order, as encoding/json sorts
// them.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
