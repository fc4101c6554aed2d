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
	*embed
	*Loop
	*Stamp
	Name string `json:"name"`
	*Named
	*Req
	Opt string `json:"opt,omitempty"`
	*Twice1
	*Twice2
	ID int `json:"id"`
	inner
}

// embed is embedded by pointer, but unexported: it cannot be allocated.
type embed struct{ X int }

// Loop embeds itself.
type Loop struct {
	*Loop
	L int
}

// Stamp marshals itself (an UnmarshalJSON would make In decode itself).
type Stamp struct{ S int }

// MarshalJSON encodes it.
func (Stamp) MarshalJSON() ([]byte, error) { return nil, nil }

// Named's name is shadowed by In.Name, declared before it: invopop
// publishes this one.
type Named struct {
	Name int `json:"name"`
}

// Req's opt is required, the In.Opt shadowing it is not.
type Req struct {
	Opt string `json:"opt"`
}

// Twice1 and Twice2 both embed Common, at the same depth.
type Twice1 struct{ *Common }

// Twice2 embeds Common too.
type Twice2 struct{ *Common }

// Common is embedded twice.
type Common struct{ C int }

// inner is an unexported embedded struct whose ID In.ID shadows in Go.
type inner struct {
	ID int `json:"inner_id"`
}

// Bad has an input toolgen refuses.
//
//tool:name bad_shapes
type Bad struct{}

// Call runs it.
func (Bad) Call(ctx context.Context, in In) (string, error) { return "", nil }
