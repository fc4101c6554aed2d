package service

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCompactForm checks compactForm's verdict on each way arguments can
// be, or fail to be, their own logged form, and that appendLogForm writes
// what the logWriter alone writes on every one of them.
func TestCompactForm(t *testing.T) {
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	cases := []struct {
		in   string
		max  int
		want bool
	}{
		{string(mediumArgs), DefaultMaxLoggedString, true},
		{`{}`, 0, true},
		{`[]`, 0, true},
		{`[{},[],{"a":[]}]`, 0, true},
		{`[[[]]]`, 0, true},
		{`{"a":{},"b":[[],{}]}`, 0, true},
		{`""`, 0, true},
		{`"x"`, 0, true},
		{`0`, 0, true},
		{`-1.5e+3`, 0, true},
		{`true`, 0, true},
		{`false`, 0, true},
		{`null`, 0, true},
		{`[true,false,null,1,"s",{"k":"v"}]`, 0, true},
		{`{"a":{"b":{"c":[1,2,{"d":null}]}},"e":"f"}`, 0, true},
		{`{"s":"a\nb\"c\\d\/e\u00e9\ud83d\ude00"}`, 0, true},
		{`{"s":"é and 😀, in UTF-8"}`, 0, true},
		{`"12345678"`, 8, true},
		{`"1234567"`, 8, true},
		{`"123456789"`, 8, false},
		{`{"123456789":1}`, 8, false},
		{`{"12345678":"12345678"}`, 8, true},
		{`"` + strings.Repeat("x", 300) + `"`, 0, true},
		{`"` + strings.Repeat("x", 300) + `"`, -1, true},
		{`"` + strings.Repeat("x", 300) + `"`, DefaultMaxLoggedString, false},
		{`"\n\n\n\n\n"`, 8, false}, // the raw form is over the cut, the content is not
		{`"é"`, 2, true},
		{`"éé"`, 3, false},
		{deep(maxCompactDepth), 0, true},
		{deep(maxCompactDepth + 1), 0, false},
		{deep(100), 0, false},
		{``, 0, false},
		{` {}`, 0, false},
		{`{} `, 0, false},
		{`{"a": 1}`, 0, false},
		{`{"a":1 }`, 0, false},
		{`[1, 2]`, 0, false},
		{"[1,\n2]", 0, false},
		{`{"a":1,}`, 0, false},
		{`[1,]`, 0, false},
		{`{,}`, 0, false},
		{`{"a"}`, 0, false},
		{`{"a":}`, 0, false},
		{`{1:2}`, 0, false},
		{`{"a":1]`, 0, false},
		{`[1}`, 0, false},
		{`[1`, 0, false},
		{`{"a":1`, 0, false},
		{`{"a"`, 0, false},
		{`{`, 0, false},
		{`"abc`, 0, false},
		{`"abcdefghijklmnop`, 0, false},
		{`"abc\`, 0, false},
		{`"a\qb"`, 0, false},
		{`"a\u12"`, 0, false},
		{`"\ud800"`, 0, false},
		{"\"a\x01b\"", 0, false},
		{"\"abcdefgh\x1fijk\"", 0, false},
		{"\"\xff\"", 0, false},
		{"\"abcdefghij\xc3\"", 0, false},
		{`tru`, 0, false},
		{`trux`, 0, false},
		{`nul`, 0, false},
		{`fals`, 0, false},
		{`01`, 0, false},
		{`-`, 0, false},
		{`1.`, 0, false},
		{`1e`, 0, false},
		{`+1`, 0, false},
		{`{} x`, 0, false},
		{`{}{}`, 0, false},
		{`1 2`, 0, false},
		{`x`, 0, false},
	}
	for _, c := range cases {
		args := []byte(c.in)
		assert.Equal(t, c.want, compactForm(args, c.max), "compactForm(%q, %d)", c.in, c.max)
		want := writeLogForm(nil, args, nil, c.max)
		if c.want {
			assert.Equal(t, c.in, string(want), "the logWriter's form of %q, cut at %d", c.in, c.max)
		}
		assert.Equal(t, string(want), string(appendLogForm(nil, args, nil, c.max)), "form of %q, cut at %d", c.in, c.max)
	}
}

// FuzzPlainForm checks compactForm against the logWriter: arguments it
// takes as their own form are the logWriter's form of them, and, without
// a cut, arguments whose form the logWriter writes unchanged are taken
// (unless nested deeper than compactForm follows).
func FuzzPlainForm(f *testing.F) {
	for _, s := range []string{string(mediumArgs), `{"a":[1,2,{"b":"c"}],"d":true}`, `[]`, `"x\u00e9\n"`, `{"a": 1}`, `"é"`, `-0.5e10`, `[[[]]]`, `{"k":"` + strings.Repeat("v", 40) + `"}`} {
		f.Add([]byte(s), int8(0))
		f.Add([]byte(s), int8(16))
	}
	f.Fuzz(func(t *testing.T, args []byte, cut int8) {
		maxString := int(cut)
		slow := writeLogForm(nil, args, nil, maxString)
		compact := compactForm(args, maxString)
		if compact && !bytes.Equal(slow, args) {
			t.Fatalf("compactForm takes %q (cut at %d), whose form is %q", args, maxString, slow)
		}
		if got := appendLogForm(nil, args, nil, maxString); !bytes.Equal(got, slow) {
			t.Fatalf("form of %q (cut at %d) is %q, the logWriter's %q", args, maxString, got, slow)
		}
		shallow := bytes.Count(args, []byte("["))+bytes.Count(args, []byte("{")) <= maxCompactDepth
		if maxString <= 0 && shallow && len(args) > 0 && bytes.Equal(slow, args) && !compact {
			t.Fatalf("compactForm refuses %q, its own form", args)
		}
	})
}
