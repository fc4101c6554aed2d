package codec_test

import (
	"errors"
	"fmt"

	"github.com/toolgen-go/toolgen/runtime/codec"
)

// searchInput stands for a tool's input type.
type searchInput struct {
	Query string
	Limit int64
}

// searchProps are searchInput's property names, in their declared order.
var searchProps = [...]string{"query", "limit"}

// decodeSearchInput is written as toolgen writes a decoder: straight-line
// calls on the Decoder, one per value, each recording its problems and
// going on. Property reads each member name and gives its index in
// searchProps; it refuses unknown members itself.
func decodeSearchInput(d *codec.Decoder, v *searchInput) {
	if !d.Object("object") {
		return
	}
	var seenQuery, seenLimit bool
	for p := -1; ; {
		if p = d.Property(searchProps[:], p+1, true); p < 0 {
			break
		}
		switch p {
		case 0:
			if d.Member("query", seenQuery) {
				seenQuery = true
				if s, ok := d.String("string"); ok {
					v.Query = s
				}
			}
			d.Pop()
		case 1:
			if d.Member("limit", seenLimit) {
				seenLimit = true
				if n, ok := d.Int("integer (maximum 50)", 64); ok {
					if n > 50 {
						d.Problem("must be at most 50")
					}
					v.Limit = n
				}
			}
			d.Pop()
		}
	}
	if !seenQuery {
		d.Missing("query")
	}
}

// Generated decoders drive a Decoder value by value; every problem of one
// text comes back at once, as JSON Pointers and what was declared, never
// the values sent. An Encoder writes the output as encoding/json would.
func Example() {
	d := codec.NewDecoder()
	for _, args := range []string{
		`{"query":"go","limit":5}`,
		`{"limit":"five","limit":500,"colour":"red"}`,
		`{"query":"go",`,
	} {
		var in searchInput
		d.Reset([]byte(args), codec.Limits{})
		decodeSearchInput(d, &in)
		d.End()
		var ae *codec.ArgumentsError
		if err := d.Err(); errors.As(err, &ae) {
			fmt.Printf("%d problem(s): %v\n", len(ae.Problems), err)
			continue
		}
		fmt.Printf("%+v\n", in)
	}

	e := codec.NewEncoder()
	e.ObjectStart()
	e.Key("query")
	e.String("<go> & \"generics\"")
	e.Key("limit")
	e.Int(5)
	e.ObjectEnd()
	fmt.Println(string(e.Bytes()), e.Err())
	// Output:
	// {Query:go Limit:5}
	// 4 problem(s): invalid arguments: /limit: expected integer (maximum 50), got string; /limit: duplicate property; /colour: unknown property (additional properties are not allowed); /query: required property is missing
	// 1 problem(s): invalid arguments: (root): malformed JSON at byte 14: expected a member name
	// {"query":"<go> & \"generics\"","limit":5} <nil>
}
