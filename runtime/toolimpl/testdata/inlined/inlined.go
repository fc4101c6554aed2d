// Package inlined calls the methods of toolimpl.Encoder and
// toolimpl.Decoder that runtime/toolimpl's inline.go makes inlinable, as
// generated code calls them: through runtime/toolimpl alone.
// TestGeneratedCallsInlined compiles it and checks that each call is
// inlined.
package inlined

import "github.com/toolgen-go/toolgen/runtime/toolimpl"

// Encode calls the Encoder's methods.
func Encode(e *toolimpl.Encoder, err error) {
	e.RawKey(`{"a":`)
	e.RawMember(`,"b":`)
	e.ObjectStart()
	e.ObjectEnd()
	e.ArrayStart()
	e.ArrayEnd()
	e.RawText("text")
	e.Fail(err)
}

// Decode calls the Decoder's methods.
func Decode(d *toolimpl.Decoder, key []byte) (string, error) {
	d.PushIndex(0)
	if d.Member("a", false) {
		d.Pop()
	}
	d.PushKey()
	d.Unknown(key)
	return d.KeyString(key), d.Err()
}
