// Package shape is toolgen's shapes phase: it maps the Go input and
// output types of the tools to the JSON shapes their decoders and encoders
// follow, by encoding/json's rules (exported fields, json tags, embedded
// structs flattened, one field per name), or reports why a type cannot
// travel as JSON. On the way it checks the jsonschema tags of the fields
// against invopop's tag grammar (tags.go, tagbounds.go) and the toolgen
// tag that marks a secret (secrets.go).
//
// A Deriver (derive.go) derives shapes, once per type and direction: it
// is the state of the phase. Package gen runs the phase over every tool
// (deriveShapes); package codecplan and gen's render phase read the
// shapes.
package shape

import (
	"go/token"
	"go/types"
)

// Kind is how a Go type travels as JSON.
type Kind uint8

const (
	Bool       Kind = iota + 1
	String          // string kinds
	Int             // signed integers (time.Duration too: nanoseconds, as encoding/json)
	Uint            // unsigned integers
	Float           // float32, float64
	Time            // time.Time as an RFC 3339 string
	Bytes           // []byte as a base64 string
	Any             // interface{}: any JSON value
	Struct          // a JSON object with fixed properties
	Ptr             // a pointer: optional, null-able
	Slice           // a JSON array
	Array           // a JSON array of fixed length
	Map             // a JSON object with string keys
	JSONMethod      // decoded/encoded by UnmarshalJSON/MarshalJSON
	TextMethod      // decoded/encoded as a string by UnmarshalText/MarshalText
)

// Direction says which way a shape is used: inputs are decoded, outputs
// encoded. A type may marshal itself only one way.
type Direction uint8

const (
	In  Direction = iota // decoded: a tool's input
	Out                  // encoded: a tool's output
)

// Shape is a Go type as toolgen sees it for JSON. Named struct shapes are
// shared, so recursive types are cyclic graphs.
type Shape struct {
	Kind   Kind
	Type   types.Type
	Bits   int // Int, Uint, Float: 8..64; 0 for int and uint (platform size)
	Elem   *Shape
	Len    int64 // Array
	Fields []*Field
}

// Field is one JSON property of a struct shape.
type Field struct {
	GoName    string     // selector on the struct value: Note, or Audit.Note where Go's promotion does not reach it
	Via       []EmbedPtr // the embedded pointers it is promoted through, outermost first
	JSONName  string
	OmitEmpty bool
	OmitZero  bool
	Secret    bool // tagged toolgen:"secret" (secrets.go)
	Shape     *Shape
	Pos       token.Position
}

// EmbedPtr is an embedded pointer to a struct that a promoted field is
// reached through: nil until a promoted field is decoded.
type EmbedPtr struct {
	Sel  string     // its selector on the outer struct value: Audit, Audit.Inner
	Elem types.Type // the struct type it points to
}

// Deref is the shape behind a pointer.
func (s *Shape) Deref() *Shape {
	if s.Kind == Ptr {
		return s.Elem
	}
	return s
}
