// want package:`\) tools shapes}$`

// Package shapes holds input and output types toolgen cannot handle.
package shapes

import (
	"context"
	"encoding/json"
)

// Stringer has a method.
type Stringer interface{ String() string }

type hidden struct{ X int }

// Generic is generic.
type Generic[T any] struct{ X T }

// In has one field of each unsupported kind.
type In struct {
	Ch      chan int            `json:"ch"`       // want `^shapes.In.Ch: channels have no JSON form$`
	Fn      func()              `json:"fn"`       // want `^shapes.In.Fn: funcs have no JSON form$`
	C       complex128          `json:"c"`        // want `^shapes.In.C: complex numbers have no JSON form$`
	ByInt   map[int]string      `json:"by_int"`   // want `^shapes.In.ByInt: map keys must be strings \(JSON object names\), not int$`
	S       Stringer            `json:"s"`        // want `^shapes.In.S: interface types with methods cannot be decoded without reflection; use a concrete type or any$`
	Quoted  int                 `json:"q,string"` // want `^shapes.In.Quoted: the json ",string" option is not supported; use a string field$`
	Num     json.Number         `json:"num"`      // want `^shapes.In.Num: json.Number is not supported; use float64, int64 or string$`
	PP      **int               `json:"pp"`       // want `^shapes.In.PP: pointers to pointers are not supported$`
	U       uintptr             `json:"u"`        // want `^shapes.In.U: uintptr has no JSON form$`
	H       hidden              `json:"h"`        // want `^shapes.In.H: type shapes.hidden is unexported; the generated code must name it: export it$`
	G       Generic[int]        `json:"g"`        // want `^shapes.In.G: generic type Generic is not supported; use a non-generic type$`
	A       string              `json:"dup"`
	B       string              `json:"dup"` // want `^shapes.In: JSON name "dup" is used by two fields \(other declaration at shapes.go:\d+:2\)$`
	Skip    chan int            `json:"-"`
	Hidden  chan int            `jsonschema:"-"`
	*hidden                     // want `^shapes.In: embedded pointer \*shapes.hidden: the generated code allocates it when a promoted field is decoded, but type hidden is unexported; export it or embed it by value$`
	Nested  map[string][]func() `json:"nested"` // want `^shapes.In.Nested\[key\]\[\]: funcs have no JSON form$`
}

// Out is an output with a channel.
type Out struct {
	Ch chan int `json:"ch"` // want `^shapes.Out.Ch: channels have no JSON form$`
}

// Tool takes In and returns Out.
//
//tool:name shapes
type Tool struct{}

// Call runs it.
func (Tool) Call(ctx context.Context, in In) (Out, error) { return Out{}, nil }
