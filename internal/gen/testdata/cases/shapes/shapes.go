// Package shapes holds every unsupported Go shape.
package shapes

import (
	"context"
	"encoding/json"
)

// Stringer is an interface with methods.
type Stringer interface{ String() string }

// In has fields toolgen refuses.
type In struct {
	Ch     chan int       `json:"ch"`
	Fn     func()         `json:"fn"`
	C      complex128     `json:"c"`
	ByInt  map[int]string `json:"by_int"`
	S      Stringer       `json:"s"`
	Quoted int            `json:"quoted,string"`
	Num    json.Number    `json:"num"`
	PP     **int          `json:"pp"`
	Dup    string         `json:"dup"`
	Dup2   string         `json:"dup"`
	*Embed
}

// Embed is embedded by pointer.
type Embed struct{ X int }

// Bad has an input toolgen refuses.
//
//tool:name bad_shapes
type Bad struct{}

// Call runs it.
func (Bad) Call(ctx context.Context, in In) (string, error) { return "", nil }
