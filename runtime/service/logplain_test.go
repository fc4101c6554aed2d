package service

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestPlainForm checks that appendPlainForm writes what the logWriter
// writes, and leaves to it what it cannot: invalid JSON, strings to cut,
// deep nesting.
func TestPlainForm(t *testing.T) {
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	cases := []struct {
		in   string
		max  int
		want bool // appendPlainForm writes it
	}{
		{` { "a" : 1 , "b" : [ true , false , null ] } `, 0, true},
		{`{"a":{},"b":[],"c":[{}, []],"d":"\u00e9\n","e":-1.5e3}`, 0, true},
		{`"x"`, 0, true},
		{`[1,{"a":[2,{"b":null}]},3]`, 0, true},
		{`{"long":"` + strings.Repeat("x", 20) + `"}`, 8, false},
		{`{"` + strings.Repeat("k", 20) + `":1}`, 8, false},
		{`{"long":"` + strings.Repeat("x", 8) + `"}`, 8, true},
		{deep(plainDepth), 0, true},
		{deep(plainDepth + 1), 0, false},
		{`{"a":1`, 0, false},
		{`{"a":1,}`, 0, false},
		{`[1,]`, 0, false},
		{`{"a":1]`, 0, false},
		{`[1}`, 0, false},
		{`{"a" 1}`, 0, false},
		{`{1:1}`, 0, false},
		{`{"a":1} x`, 0, false},
		{`{"a":tru}`, 0, false},
		{`"\x"`, 0, false},
		{``, 0, false},
		{`   `, 0, false},
	}
	for _, c := range cases {
		dst := []byte("kept:")
		got, ok := appendPlainForm(dst, []byte(c.in), c.max)
		assert.Equal(t, c.want, ok, "input %s", c.in)
		if ok {
			assert.Equal(t, "kept:"+string(writeLogForm(nil, []byte(c.in), nil, c.max)), string(got), "input %s", c.in)
		}
	}
}

// FuzzPlainForm checks that the form appendPlainForm writes is the
// logWriter's, and that it writes one only of JSON.
func FuzzPlainForm(f *testing.F) {
	for _, s := range []string{`{"a":[1,{"b":"c"}],"d":null}`, ` [ true , false ] `, `"x"`, `{"a":"` + strings.Repeat("y", 20) + `"}`, `{"a":1,}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, args []byte) {
		for _, max := range []int{0, 16} {
			got, ok := appendPlainForm(nil, args, max)
			if !ok {
				continue
			}
			if !json.Valid(args) {
				t.Fatalf("plain form of %q, which is not JSON: %q", args, got)
			}
			if want := writeLogForm(nil, args, nil, max); !bytes.Equal(got, want) {
				t.Fatalf("plain form of %q (cut at %d) is %q, the logWriter's %q", args, max, got, want)
			}
		}
	})
}
