package codec

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/jsonlex"
)

// problems returns the problems of err as strings ("pointer: message").
func problems(t *testing.T, err error) []string {
	t.Helper()
	if err == nil {
		return nil
	}
	var ae *ArgumentsError
	require.ErrorAs(t, err, &ae)
	out := make([]string, len(ae.Problems))
	for i, p := range ae.Problems {
		out[i] = p.String()
	}
	return out
}

// readOne decodes input as a single top-level value with read and End.
func readOne(t *testing.T, input string, lim Limits, read func(d *Decoder) (any, bool)) (any, bool, []string) {
	t.Helper()
	d := NewDecoder()
	d.Reset([]byte(input), lim)
	v, ok := read(d)
	d.End()
	return v, ok, problems(t, d.Err())
}

func TestSyntax(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want string // the fatal problem; "" when the input is valid
	}{
		// Valid JSON.
		{in: `1`},
		{in: `-0`},
		{in: `0.5e-3`},
		{in: `1E+2`},
		{in: `-12.25E-2`},
		{in: `true`},
		{in: `false`},
		{in: `null`},
		{in: `""`},
		{in: `"\u00e9\ud83d\ude00"`},
		{in: `"\/\b\f\n\r\t\"\\"`},
		{in: `"\u0000"`},
		{in: "\"\u2028\u2029\x7f\""},
		{in: "\"é😀\""},
		{in: " [ ] "},
		{in: "\t\n\r 1 \t\n\r"},
		{in: `{}`},
		{in: `{"a":{"b":[{},[],{"c":null}]},"d":[1,"2",true]}`},
		{in: `{"a":1,"a":2}`}, // Skip does not refuse duplicates
		{in: `{ "a" : 1 , "b" : [ 1 , 2 ] }`},

		// Empty input.
		{in: ``, want: "(root): malformed JSON at byte 0: expected a JSON value, got end of input"},
		{in: "  \n", want: "(root): malformed JSON at byte 3: expected a JSON value, got end of input"},

		// Numbers.
		{in: `01`, want: "(root): malformed JSON at byte 1: leading zero in a number"},
		{in: `-01`, want: "(root): malformed JSON at byte 2: leading zero in a number"},
		{in: `+1`, want: "(root): malformed JSON at byte 0: expected a JSON value"},
		{in: `.5`, want: "(root): malformed JSON at byte 0: expected a JSON value"},
		{in: `1.`, want: "(root): malformed JSON at byte 2: expected a digit after the decimal point in a number"},
		{in: `1.e3`, want: "(root): malformed JSON at byte 2: expected a digit after the decimal point in a number"},
		{in: `1e`, want: "(root): malformed JSON at byte 2: expected a digit in the exponent of a number"},
		{in: `1e+`, want: "(root): malformed JSON at byte 3: expected a digit in the exponent of a number"},
		{in: `-`, want: "(root): malformed JSON at byte 1: expected a digit in a number, got end of input"},
		{in: `-a`, want: "(root): malformed JSON at byte 1: expected a digit in a number"},
		{in: `NaN`, want: "(root): malformed JSON at byte 0: expected a JSON value"},
		{in: `-Infinity`, want: "(root): malformed JSON at byte 1: expected a digit in a number"},
		{in: `0x10`, want: "(root): unexpected data after the top-level value"},

		// Literals.
		{in: `nul`, want: "(root): malformed JSON at byte 0: invalid literal (expected true, false or null)"},
		{in: `True`, want: "(root): malformed JSON at byte 0: expected a JSON value"},
		{in: `fals`, want: "(root): malformed JSON at byte 0: invalid literal (expected true, false or null)"},
		{in: `nullx`, want: "(root): unexpected data after the top-level value"},

		// Not JSON at all.
		{in: `'a'`, want: "(root): malformed JSON at byte 0: expected a JSON value"},
		{in: `/* c */ 1`, want: "(root): malformed JSON at byte 0: expected a JSON value"},
		{in: `[1 // c` + "\n]", want: "(root): malformed JSON at byte 3: expected ',' or ']'"},
		{in: "\xef\xbb\xbf1", want: "(root): malformed JSON at byte 0: expected a JSON value"},

		// Strings.
		{in: `"a`, want: "(root): malformed JSON at byte 2: unterminated string"},
		{in: `"a\`, want: "(root): malformed JSON at byte 3: unterminated string"},
		{in: `"é`, want: "(root): malformed JSON at byte 3: unterminated string"},
		{in: "\"\x01\"", want: "(root): malformed JSON at byte 1: control character in a string (it must be escaped)"},
		{in: "\"a\tb\"", want: "(root): malformed JSON at byte 2: control character in a string (it must be escaped)"},
		{in: `"\x"`, want: "(root): malformed JSON at byte 1: invalid escape in a string"},
		{in: `"\'"`, want: "(root): malformed JSON at byte 1: invalid escape in a string"},
		{in: `"\u12"`, want: `(root): malformed JSON at byte 1: invalid \u escape in a string`},
		{in: `"\u12g4"`, want: `(root): malformed JSON at byte 1: invalid \u escape in a string`},
		{in: `"\ud800"`, want: `(root): malformed JSON at byte 1: unpaired surrogate in a \u escape in a string`},
		{in: `"\ud800x"`, want: `(root): malformed JSON at byte 1: unpaired surrogate in a \u escape in a string`},
		{in: `"\ud800\u0041"`, want: `(root): malformed JSON at byte 1: unpaired surrogate in a \u escape in a string`},
		{in: `"\ud800\ud800"`, want: `(root): malformed JSON at byte 1: unpaired surrogate in a \u escape in a string`},
		{in: `"\udc00"`, want: `(root): malformed JSON at byte 1: unpaired surrogate in a \u escape in a string`},
		{in: `"ab\udfff\ud800"`, want: `(root): malformed JSON at byte 3: unpaired surrogate in a \u escape in a string`},

		// Invalid UTF-8 as raw bytes.
		{in: "\"\xff\"", want: "(root): malformed JSON at byte 1: invalid UTF-8 in a string"},
		{in: "\"ab\x80\"", want: "(root): malformed JSON at byte 3: invalid UTF-8 in a string"},
		{in: "\"\xc3\"", want: "(root): malformed JSON at byte 1: invalid UTF-8 in a string"},
		{in: "\"\xc0\xaf\"", want: "(root): malformed JSON at byte 1: invalid UTF-8 in a string"},           // overlong
		{in: "\"\xed\xa0\x80\"", want: "(root): malformed JSON at byte 1: invalid UTF-8 in a string"},       // surrogate
		{in: "\"\xf4\x90\x80\x80\"", want: "(root): malformed JSON at byte 1: invalid UTF-8 in a string"},   // beyond U+10FFFF
		{in: "{\"\xff\":1}", want: "(root): malformed JSON at byte 2: invalid UTF-8 in a string"},           // in a name
		{in: "[\"ok\",\"a\\n\xfe\"]", want: "(root): malformed JSON at byte 10: invalid UTF-8 in a string"}, // after an escape

		// Structure.
		{in: `{`, want: "(root): malformed JSON at byte 1: expected a member name or '}'"},
		{in: `[`, want: "(root): malformed JSON at byte 1: expected a JSON value, got end of input"},
		{in: `[1`, want: "(root): malformed JSON at byte 2: unexpected end of input"},
		{in: `{"a":1`, want: "(root): malformed JSON at byte 6: unexpected end of input"},
		{in: `{"a"`, want: "(root): malformed JSON at byte 4: expected ':' after a member name"},
		{in: `{"a":`, want: "(root): malformed JSON at byte 5: expected a JSON value, got end of input"},
		{in: `[1,]`, want: "(root): malformed JSON at byte 3: expected a JSON value"},
		{in: `[,1]`, want: "(root): malformed JSON at byte 1: expected a JSON value"},
		{in: `{"a":1,}`, want: "(root): malformed JSON at byte 7: expected a member name"},
		{in: `{,}`, want: "(root): malformed JSON at byte 1: expected a member name or '}'"},
		{in: `{"a" 1}`, want: "(root): malformed JSON at byte 5: expected ':' after a member name"},
		{in: `{"a":1 "b":2}`, want: "(root): malformed JSON at byte 7: expected ',' or '}'"},
		{in: `[1 2]`, want: "(root): malformed JSON at byte 3: expected ',' or ']'"},
		{in: `{1:2}`, want: "(root): malformed JSON at byte 1: expected a member name or '}'"},
		{in: `{'a':2}`, want: "(root): malformed JSON at byte 1: expected a member name or '}'"},
		{in: `[1}`, want: "(root): malformed JSON at byte 2: expected ',' or ']'"},
		{in: `{"a":1]`, want: "(root): malformed JSON at byte 6: expected ',' or '}'"},
		{in: `]`, want: "(root): malformed JSON at byte 0: expected a JSON value"},

		// Trailing data.
		{in: `1 2`, want: "(root): unexpected data after the top-level value"},
		{in: `{}}`, want: "(root): unexpected data after the top-level value"},
		{in: `[] x`, want: "(root): unexpected data after the top-level value"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			_, _, got := readOne(t, tt.in, Limits{}, func(d *Decoder) (any, bool) { d.Skip(); return nil, true })
			if tt.want == "" {
				assert.Empty(t, got)
				return
			}
			assert.Equal(t, []string{tt.want}, got)
		})
	}
}

func TestLimits(t *testing.T) {
	t.Parallel()
	nest := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	skip := func(d *Decoder) (any, bool) { d.Skip(); return nil, true }
	anyv := func(d *Decoder) (any, bool) { return d.Any() }
	raw := func(d *Decoder) (any, bool) { return d.Raw() }
	// arrays reads n nested arrays with Array and Next.
	arrays := func(d *Decoder) (any, bool) {
		var walk func() bool
		walk = func() bool {
			if !d.Array("array") {
				return false
			}
			for d.Next() {
				if !walk() {
					return false
				}
			}
			return !d.Failed()
		}
		return nil, walk()
	}
	objects := func(d *Decoder) (any, bool) {
		var walk func() bool
		walk = func() bool {
			if !d.Object("object") {
				return false
			}
			for {
				if _, ok := d.Key(); !ok {
					break
				}
				if !walk() {
					return false
				}
			}
			return !d.Failed()
		}
		return nil, walk()
	}
	tests := []struct {
		name string
		in   string
		lim  Limits
		read func(d *Decoder) (any, bool)
		want []string
	}{
		{name: "size at the limit", in: `"12345678"`, lim: Limits{MaxBytes: 10}, read: skip},
		{name: "size over the limit", in: `"123456789"`, lim: Limits{MaxBytes: 10}, read: skip,
			want: []string{"(root): arguments are larger than 10 bytes"}},
		{name: "default size", in: `"` + strings.Repeat("a", DefaultMaxBytes-1) + `"`, read: skip,
			want: []string{"(root): arguments are larger than 1048576 bytes"}},
		{name: "depth at the limit", in: nest(3), lim: Limits{MaxDepth: 3}, read: skip},
		{name: "depth over the limit", in: nest(4), lim: Limits{MaxDepth: 3}, read: skip,
			want: []string{"(root): nesting deeper than 3 levels"}},
		{name: "default depth", in: nest(DefaultMaxDepth), read: skip},
		{name: "default depth exceeded", in: nest(DefaultMaxDepth + 1), read: skip,
			want: []string{"(root): nesting deeper than 64 levels"}},
		{name: "depth through Array", in: nest(3), lim: Limits{MaxDepth: 3}, read: arrays},
		{name: "depth exceeded through Array", in: nest(4), lim: Limits{MaxDepth: 3}, read: arrays,
			want: []string{"(root): nesting deeper than 3 levels"}},
		{name: "depth through Object", in: `{"a":{"b":{}}}`, lim: Limits{MaxDepth: 3}, read: objects},
		{name: "depth exceeded through Object", in: `{"a":{"b":{"c":{}}}}`, lim: Limits{MaxDepth: 3}, read: objects,
			want: []string{"(root): nesting deeper than 3 levels"}},
		{name: "depth exceeded through Any", in: `{"a":[[{}]]}`, lim: Limits{MaxDepth: 3}, read: anyv,
			want: []string{"/<key 0>/0/0: nesting deeper than 3 levels"}},
		{name: "depth exceeded through Raw", in: `{"a":[[{}]]}`, lim: Limits{MaxDepth: 3}, read: raw,
			want: []string{"(root): nesting deeper than 3 levels"}},
		{name: "depth mixes objects and arrays", in: `[{"a":[{}]}]`, lim: Limits{MaxDepth: 3}, read: skip,
			want: []string{"(root): nesting deeper than 3 levels"}},
		{name: "closing restores depth", in: `[[[]],[[]],[[]]]`, lim: Limits{MaxDepth: 3}, read: skip},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, _, got := readOne(t, tt.in, tt.lim, tt.read)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestScalars(t *testing.T) {
	t.Parallel()
	boolean := func(d *Decoder) (any, bool) { return d.Bool("boolean") }
	str := func(d *Decoder) (any, bool) { return d.String("string") }
	strBytes := func(d *Decoder) (any, bool) {
		b, ok := d.StringBytes("string")
		return string(b), ok
	}
	integer := func(bits int) func(d *Decoder) (any, bool) {
		return func(d *Decoder) (any, bool) { return d.Int("integer", bits) }
	}
	unsigned := func(bits int) func(d *Decoder) (any, bool) {
		return func(d *Decoder) (any, bool) { return d.Uint("integer (minimum 0)", bits) }
	}
	float := func(bits int) func(d *Decoder) (any, bool) {
		return func(d *Decoder) (any, bool) { return d.Float("number", bits) }
	}
	number := func(d *Decoder) (any, bool) {
		b, ok := d.Number("number")
		return string(b), ok
	}
	tm := func(d *Decoder) (any, bool) { return d.Time("string (date-time)") }
	b64 := func(d *Decoder) (any, bool) { return d.Base64("string (base64)") }
	null := func(d *Decoder) (any, bool) {
		if d.Null() {
			return nil, true
		}
		// Null consumed nothing: the value is still there.
		d.Skip()
		return "not null", false
	}
	kind := func(d *Decoder) (any, bool) {
		k := d.Kind()
		d.Skip()
		return k.String(), k != jsonlex.Invalid
	}
	tests := []struct {
		name   string
		in     string
		read   func(d *Decoder) (any, bool)
		want   any
		wantOK bool
		errs   []string
	}{
		{name: "null", in: `null`, read: null, want: nil, wantOK: true},
		{name: "null not", in: `0`, read: null, want: "not null"},
		{name: "null not string", in: `"null"`, read: null, want: "not null"},
		{name: "null malformed", in: `nil`, read: null, want: "not null",
			errs: []string{"(root): malformed JSON at byte 0: invalid literal (expected true, false or null)"}},

		{name: "kind null", in: `null`, read: kind, want: "null", wantOK: true},
		{name: "kind bool", in: ` false`, read: kind, want: "boolean", wantOK: true},
		{name: "kind number", in: `-1`, read: kind, want: "number", wantOK: true},
		{name: "kind string", in: `""`, read: kind, want: "string", wantOK: true},
		{name: "kind object", in: `{}`, read: kind, want: "object", wantOK: true},
		{name: "kind array", in: `[]`, read: kind, want: "array", wantOK: true},
		{name: "kind invalid", in: `x`, read: kind, want: "invalid",
			errs: []string{"(root): malformed JSON at byte 0: expected a JSON value"}},

		{name: "bool true", in: `true`, read: boolean, want: true, wantOK: true},
		{name: "bool false", in: ` false `, read: boolean, want: false, wantOK: true},
		{name: "bool number", in: `1`, read: boolean, want: false, errs: []string{"(root): expected boolean, got number"}},
		{name: "bool null", in: `null`, read: boolean, want: false, errs: []string{"(root): expected boolean, got null"}},
		{name: "bool string", in: `"true"`, read: boolean, want: false, errs: []string{"(root): expected boolean, got string"}},
		{name: "bool bad literal", in: `tru`, read: boolean, want: true,
			errs: []string{"(root): malformed JSON at byte 0: invalid literal (expected true, false or null)"}},

		{name: "string", in: `"abc"`, read: str, want: "abc", wantOK: true},
		{name: "string empty", in: `""`, read: str, want: "", wantOK: true},
		{name: "string escapes", in: `"a\n\"\u00e9\ud83d\ude00\/"`, read: str, want: "a\n\"é😀/", wantOK: true},
		{name: "string nul escape", in: `"\u0000"`, read: str, want: "\x00", wantOK: true},
		{name: "string utf8", in: `"日本語"`, read: str, want: "日本語", wantOK: true},
		{name: "string number", in: `12`, read: str, want: "", errs: []string{"(root): expected string, got number"}},
		{name: "string object skipped", in: `{"a":[1,{"b":"c"}]}`, read: str, want: "", errs: []string{"(root): expected string, got object"}},
		{name: "string array skipped", in: `[1,2]`, read: str, want: "", errs: []string{"(root): expected string, got array"}},
		{name: "string skipped value malformed", in: `[1,2`, read: str, want: "",
			errs: []string{"(root): malformed JSON at byte 4: unexpected end of input"}},
		{name: "string bytes", in: `"a\tb"`, read: strBytes, want: "a\tb", wantOK: true},
		{name: "string bytes wrong", in: `true`, read: strBytes, want: "", errs: []string{"(root): expected string, got boolean"}},

		{name: "int zero", in: `0`, read: integer(64), want: int64(0), wantOK: true},
		{name: "int minus zero", in: `-0`, read: integer(64), want: int64(0), wantOK: true},
		{name: "int", in: `42`, read: integer(64), want: int64(42), wantOK: true},
		{name: "int8 max", in: `127`, read: integer(8), want: int64(127), wantOK: true},
		{name: "int8 min", in: `-128`, read: integer(8), want: int64(-128), wantOK: true},
		{name: "int8 over", in: `128`, read: integer(8), want: int64(0), errs: []string{"(root): expected integer, got a number out of range for a 8-bit integer"}},
		{name: "int8 under", in: `-129`, read: integer(8), want: int64(0), errs: []string{"(root): expected integer, got a number out of range for a 8-bit integer"}},
		{name: "int16 max", in: `32767`, read: integer(16), want: int64(32767), wantOK: true},
		{name: "int16 over", in: `32768`, read: integer(16), want: int64(0), errs: []string{"(root): expected integer, got a number out of range for a 16-bit integer"}},
		{name: "int32 min", in: `-2147483648`, read: integer(32), want: int64(math.MinInt32), wantOK: true},
		{name: "int32 under", in: `-2147483649`, read: integer(32), want: int64(0), errs: []string{"(root): expected integer, got a number out of range for a 32-bit integer"}},
		{name: "int64 max", in: `9223372036854775807`, read: integer(64), want: int64(math.MaxInt64), wantOK: true},
		{name: "int64 min", in: `-9223372036854775808`, read: integer(64), want: int64(math.MinInt64), wantOK: true},
		{name: "int64 over", in: `9223372036854775808`, read: integer(64), want: int64(0), errs: []string{"(root): expected integer, got a number out of range for a 64-bit integer"}},
		{name: "int64 under", in: `-9223372036854775809`, read: integer(64), want: int64(0), errs: []string{"(root): expected integer, got a number out of range for a 64-bit integer"}},
		{name: "int huge", in: `123456789012345678901234567890`, read: integer(64), want: int64(0), errs: []string{"(root): expected integer, got a number out of range for a 64-bit integer"}},
		{name: "int bits 0 means 64", in: `9223372036854775807`, read: integer(0), want: int64(math.MaxInt64), wantOK: true},
		{name: "int fraction", in: `1.0`, read: integer(64), want: int64(0), errs: []string{"(root): expected integer, got a number with a fraction or exponent"}},
		{name: "int exponent", in: `1e2`, read: integer(64), want: int64(0), errs: []string{"(root): expected integer, got a number with a fraction or exponent"}},
		{name: "int huge exponent", in: `-1.5E+300`, read: integer(64), want: int64(0), errs: []string{"(root): expected integer, got a number with a fraction or exponent"}},
		{name: "int string", in: `"1"`, read: integer(64), want: int64(0), errs: []string{"(root): expected integer, got string"}},
		{name: "int null", in: `null`, read: integer(64), want: int64(0), errs: []string{"(root): expected integer, got null"}},

		{name: "uint zero", in: `0`, read: unsigned(64), want: uint64(0), wantOK: true},
		{name: "uint8 max", in: `255`, read: unsigned(8), want: uint64(255), wantOK: true},
		{name: "uint8 over", in: `256`, read: unsigned(8), want: uint64(0), errs: []string{"(root): expected integer (minimum 0), got a number out of range for a 8-bit integer"}},
		{name: "uint32 max", in: `4294967295`, read: unsigned(32), want: uint64(math.MaxUint32), wantOK: true},
		{name: "uint32 over", in: `4294967296`, read: unsigned(32), want: uint64(0), errs: []string{"(root): expected integer (minimum 0), got a number out of range for a 32-bit integer"}},
		{name: "uint64 max", in: `18446744073709551615`, read: unsigned(64), want: uint64(math.MaxUint64), wantOK: true},
		{name: "uint64 over", in: `18446744073709551616`, read: unsigned(64), want: uint64(0), errs: []string{"(root): expected integer (minimum 0), got a number out of range for a 64-bit integer"}},
		{name: "uint64 far over", in: `99999999999999999999`, read: unsigned(64), want: uint64(0), errs: []string{"(root): expected integer (minimum 0), got a number out of range for a 64-bit integer"}},
		{name: "uint negative", in: `-1`, read: unsigned(64), want: uint64(0), errs: []string{"(root): expected integer (minimum 0), got a negative number"}},
		{name: "uint minus zero", in: `-0`, read: unsigned(64), want: uint64(0), errs: []string{"(root): expected integer (minimum 0), got a negative number"}},
		{name: "uint fraction", in: `1.5`, read: unsigned(64), want: uint64(0), errs: []string{"(root): expected integer (minimum 0), got a number with a fraction or exponent"}},
		{name: "uint bool", in: `false`, read: unsigned(64), want: uint64(0), errs: []string{"(root): expected integer (minimum 0), got boolean"}},

		{name: "float", in: `1.5`, read: float(64), want: 1.5, wantOK: true},
		{name: "float int", in: `-42`, read: float(64), want: -42.0, wantOK: true},
		{name: "float exponent", in: `2.5E-3`, read: float(64), want: 2.5e-3, wantOK: true},
		{name: "float big int", in: `12345678901234567890`, read: float(64), want: 12345678901234567890.0, wantOK: true},
		{name: "float 16 digits", in: `9007199254740993`, read: float(64), want: 9007199254740992.0, wantOK: true},
		{name: "float32 rounds", in: `16777217`, read: float(32), want: 16777216.0, wantOK: true},
		{name: "float32 fraction", in: `0.1`, read: float(32), want: float64(float32(0.1)), wantOK: true},
		{name: "float32 max", in: `3.4028234663852886e38`, read: float(32), want: float64(math.MaxFloat32), wantOK: true},
		{name: "float32 over", in: `3.5e38`, read: float(32), want: 0.0, errs: []string{"(root): expected number, got a number out of range for a 32-bit float"}},
		{name: "float64 over", in: `1e400`, read: float(64), want: 0.0, errs: []string{"(root): expected number, got a number out of range for a 64-bit float"}},
		{name: "float64 underflow", in: `1e-400`, read: float(64), want: 0.0, wantOK: true},
		{name: "float string", in: `"1.5"`, read: float(64), want: 0.0, errs: []string{"(root): expected number, got string"}},

		{name: "number", in: `-1.5e+3`, read: number, want: "-1.5e+3", wantOK: true},
		{name: "number huge", in: `1e400`, read: number, want: "1e400", wantOK: true},
		{name: "number string", in: `"1"`, read: number, want: "", errs: []string{"(root): expected number, got string"}},

		{name: "time utc", in: `"2006-01-02T15:04:05Z"`, read: tm, want: time.Date(2006, 1, 2, 15, 4, 5, 0, time.UTC), wantOK: true},
		{name: "time escaped", in: `"2006-01-02T15:04:05\u005a"`, read: tm, want: time.Date(2006, 1, 2, 15, 4, 5, 0, time.UTC), wantOK: true},
		{name: "time date only", in: `"2006-01-02"`, read: tm, want: time.Time{}, errs: []string{"(root): expected string (date-time), got a string that is not an RFC 3339 date-time"}},
		{name: "time bad hour", in: `"2006-01-02T25:04:05Z"`, read: tm, want: time.Time{}, errs: []string{"(root): expected string (date-time), got a string that is not an RFC 3339 date-time"}},
		{name: "time number", in: `1136214245`, read: tm, want: time.Time{}, errs: []string{"(root): expected string (date-time), got number"}},

		{name: "base64", in: `"aGVsbG8="`, read: b64, want: []byte("hello"), wantOK: true},
		{name: "base64 empty", in: `""`, read: b64, want: []byte{}, wantOK: true},
		{name: "base64 newline ignored", in: `"aGVs\nbG8="`, read: b64, want: []byte("hello"), wantOK: true},
		{name: "base64 unpadded", in: `"aGVsbG8"`, read: b64, want: []byte(nil), errs: []string{"(root): expected string (base64), got a string that is not valid base64"}},
		{name: "base64 url alphabet", in: `"-_-_"`, read: b64, want: []byte(nil), errs: []string{"(root): expected string (base64), got a string that is not valid base64"}},
		{name: "base64 array", in: `[1]`, read: b64, want: []byte(nil), errs: []string{"(root): expected string (base64), got array"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, ok, errs := readOne(t, tt.in, Limits{}, tt.read)
			assert.Equal(t, tt.want, got)
			assert.Equal(t, tt.wantOK, ok)
			assert.Equal(t, tt.errs, errs)
		})
	}
}

func TestFloatNegativeZero(t *testing.T) {
	t.Parallel()
	for _, in := range []string{`-0`, `-0.0`, `-0e5`} {
		for _, bits := range []int{32, 64} {
			d := NewDecoder()
			d.Reset([]byte(in), Limits{})
			f, ok := d.Float("number", bits)
			require.True(t, ok, in)
			assert.True(t, math.Signbit(f), "%s as a %d-bit float keeps its sign", in, bits)
		}
	}
}

func TestTimeZone(t *testing.T) {
	t.Parallel()
	d := NewDecoder()
	d.Reset([]byte(`"2006-01-02T15:04:05.123456789+07:00"`), Limits{})
	got, ok := d.Time("string")
	require.True(t, ok)
	want := time.Date(2006, 1, 2, 15, 4, 5, 123456789, time.FixedZone("", 7*3600))
	assert.True(t, want.Equal(got))
	_, offset := got.Zone()
	assert.Equal(t, 7*3600, offset)
}

func TestRawAndAny(t *testing.T) {
	t.Parallel()
	raw := func(d *Decoder) (any, bool) {
		b, ok := d.Raw()
		if b == nil {
			return nil, ok
		}
		return string(b), ok
	}
	anyv := func(d *Decoder) (any, bool) { return d.Any() }
	// literal keeps a number as its text, copied: what a reader that must
	// not lose precision passes to AnyWith (a json.Number, say).
	type literal string
	exact := func(d *Decoder) (any, bool) {
		return d.AnyWith(func(lit []byte) any { return literal(lit) })
	}
	tests := []struct {
		name   string
		in     string
		read   func(d *Decoder) (any, bool)
		want   any
		wantOK bool
		errs   []string
	}{
		{name: "raw scalar", in: ` 12.5 `, read: raw, want: "12.5", wantOK: true},
		{name: "raw null", in: `null`, read: raw, want: "null", wantOK: true},
		{name: "raw keeps bytes", in: `{ "a" : [1, "\u00e9"] }`, read: raw, want: `{ "a" : [1, "\u00e9"] }`, wantOK: true},
		{name: "raw duplicate", in: `{"a":1,"b":2,"a":3}`, read: raw, errs: []string{"/<key 2>: duplicate property"}},
		{name: "raw duplicate by escape", in: `{"a":1,"\u0061":3}`, read: raw, errs: []string{"/<key 1>: duplicate property"}},
		{name: "raw same name in sibling objects", in: `[{"a":1},{"a":2}]`, read: raw, want: `[{"a":1},{"a":2}]`, wantOK: true},
		{name: "raw same name nested", in: `{"a":{"a":{"a":1}}}`, read: raw, want: `{"a":{"a":{"a":1}}}`, wantOK: true},
		{name: "raw nested duplicate path", in: `{"x":[0,{"y":{"k":1,"k":2}}],"z":1}`, read: raw, errs: []string{"/<key 0>/1/<key 0>/<key 1>: duplicate property"}},
		{name: "raw duplicate inside duplicate", in: `{"a":1,"a":{"b":1,"b":2}}`, read: raw, errs: []string{"/<key 1>: duplicate property", "/<key 1>/<key 1>: duplicate property"}},
		{name: "raw many duplicates", in: `{"a":1,"a":2,"a":3}`, read: raw, errs: []string{"/<key 1>: duplicate property", "/<key 2>: duplicate property"}},
		{name: "raw escaped names in pointer", in: `{"a/b":{"c~d":1,"c~d":2}}`, read: raw, errs: []string{"/<key 0>/<key 1>: duplicate property"}},
		{name: "raw malformed", in: `{"a":[1,}`, read: raw, errs: []string{"(root): malformed JSON at byte 8: expected a JSON value"}},
		{name: "raw invalid utf8", in: "[\"\xff\"]", read: raw, errs: []string{"(root): malformed JSON at byte 2: invalid UTF-8 in a string"}},

		{name: "any null", in: `null`, read: anyv, want: nil, wantOK: true},
		{name: "any scalars", in: `[true,false,1.5,"s",null]`, read: anyv, want: []any{true, false, 1.5, "s", nil}, wantOK: true},
		{name: "any empty", in: `[{},[]]`, read: anyv, want: []any{map[string]any{}, []any{}}, wantOK: true},
		{name: "any object", in: `{"a":{"b":[1,2]},"c":"d"}`, read: anyv,
			want: map[string]any{"a": map[string]any{"b": []any{1.0, 2.0}}, "c": "d"}, wantOK: true},
		{name: "any duplicate", in: `{"a":1,"a":2}`, read: anyv, errs: []string{"/<key 1>: duplicate property"}},
		{name: "any nested duplicate", in: `[0,{"b":{"c":1,"c":[2]}}]`, read: anyv, errs: []string{"/1/<key 0>/<key 1>: duplicate property"}},
		{name: "any number out of range", in: `{"n":[1e400]}`, read: anyv, errs: []string{"/<key 0>/0: expected number, got a number out of range for a 64-bit float"}},
		{name: "any malformed", in: `{"a":tru}`, read: anyv, errs: []string{"/<key 0>: malformed JSON at byte 5: invalid literal (expected true, false or null)"}},

		{name: "any with literal numbers", in: `{"n":[1e400,12345678901234567890,-0.5],"s":"1"}`, read: exact,
			want: map[string]any{"n": []any{literal("1e400"), literal("12345678901234567890"), literal("-0.5")}, "s": "1"}, wantOK: true},
		{name: "any with literal numbers, duplicate", in: `{"a":1,"a":2}`, read: exact, errs: []string{"/<key 1>: duplicate property"}},
		{name: "any with literal numbers, malformed", in: `[1,-]`, read: exact, errs: []string{"/1: malformed JSON at byte 4: expected a digit in a number"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, ok, errs := readOne(t, tt.in, Limits{}, tt.read)
			assert.Equal(t, tt.want, got)
			assert.Equal(t, tt.wantOK, ok)
			assert.Equal(t, tt.errs, errs)
		})
	}
}

func TestRawManyNames(t *testing.T) {
	t.Parallel()
	// Enough names to switch duplicate detection to a map, in two nested
	// objects, with the duplicate last.
	var b strings.Builder
	b.WriteString(`{"outer":{`)
	for i := range 40 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"k` + strings.Repeat("x", i) + `":1`)
	}
	b.WriteString(`},"k":{`)
	for i := range 40 {
		b.WriteString(`"n` + strings.Repeat("y", i) + `":1,`)
	}
	b.WriteString(`"nyyy":2}}`)
	_, ok, errs := readOne(t, b.String(), Limits{}, func(d *Decoder) (any, bool) { return d.Raw() })
	assert.False(t, ok)
	assert.Equal(t, []string{"/<key 1>/<key 40>: duplicate property"}, errs, "the 41st member of the second")

	// The same without the duplicate is fine and returned whole.
	in := strings.Replace(b.String(), `,"nyyy":2}`, `}`, 1)
	got, ok, errs := readOne(t, in, Limits{}, func(d *Decoder) (any, bool) { return d.Raw() })
	assert.True(t, ok)
	assert.Empty(t, errs)
	assert.Equal(t, in, string(got.([]byte)))
}

func TestRawIsACopy(t *testing.T) {
	t.Parallel()
	in := []byte(`{"a":1}`)
	d := NewDecoder()
	d.Reset(in, Limits{})
	got, ok := d.Raw()
	require.True(t, ok)
	in[1] = 'X'
	assert.Equal(t, `{"a":1}`, string(got))
}

// searchInput is what a generated decoder fills in TestGenerated.
type searchInput struct {
	Query string
	Limit int
	Tags  []string
	Range *struct{ From, To float64 }
	Extra any
}

// searchProps and rangeProps are the property names of searchInput and of
// its range, in their declared order, as toolgen writes them in a table.
var (
	searchProps = [...]string{"query", "limit", "tags", "range", "extra"}
	rangeProps  = [...]string{"from", "to"}
)

// memberNext reads the name of the next member of the object being read
// and returns its index in names, or -1 when the object ended. The two
// ways toolgen's decoders find a member are memberByKey and
// memberByProperty; decodeSearch, the body of a generated decoder, runs
// with either.
type memberNext func(d *Decoder, names []string, last int) int

// memberByKey finds a member as a generated decoder does for names JSON
// writes with escapes: Key, then a switch on the name, an unknown one
// refused.
func memberByKey(d *Decoder, names []string, _ int) int {
	for {
		key, ok := d.Key()
		if !ok {
			return -1
		}
		for i, name := range names {
			if string(key) == name {
				return i
			}
		}
		d.Unknown(key)
	}
}

// memberByProperty finds a member as generated decoders do since
// Property: the name declared after the last one first.
func memberByProperty(d *Decoder, names []string, last int) int {
	return d.Property(names, last+1, true)
}

// decodeSearchInput is written as toolgen generates decoders, with Key.
func decodeSearchInput(d *Decoder, v *searchInput) { decodeSearch(d, v, memberByKey) }

// decodeSearch decodes a searchInput as a generated decoder does, finding
// each member with next.
func decodeSearch(d *Decoder, v *searchInput, next memberNext) {
	if !d.Object("object") {
		return
	}
	var seen uint64
	for p := -1; ; {
		if p = next(d, searchProps[:], p); p < 0 {
			break
		}
		switch p {
		case 0:
			d.Push("query")
			if seen&1 != 0 {
				d.Duplicate()
			}
			seen |= 1
			if s, ok := d.String("string (minLength 1)"); ok {
				if s == "" {
					d.Problem("must have at least 1 character")
				}
				v.Query = s
			}
			d.Pop()
		case 1:
			d.Push("limit")
			if seen&2 != 0 {
				d.Duplicate()
			}
			seen |= 2
			if d.Null() {
				// Optional: null means absent.
			} else if n, ok := d.Int("integer (minimum 1, maximum 50)", 64); ok {
				if n < 1 || n > 50 {
					d.Problem("must be between 1 and 50")
				}
				v.Limit = int(n)
			}
			d.Pop()
		case 2:
			d.Push("tags")
			if d.Array("array of strings") {
				v.Tags = []string{}
				for i := 0; d.Next(); i++ {
					d.PushIndex(i)
					if s, ok := d.String("string"); ok {
						v.Tags = append(v.Tags, s)
					}
					d.Pop()
				}
			}
			d.Pop()
		case 3:
			d.Push("range")
			if d.Object("object") {
				v.Range = &struct{ From, To float64 }{}
				var seen uint64
				for q := -1; ; {
					if q = next(d, rangeProps[:], q); q < 0 {
						break
					}
					switch q {
					case 0:
						d.Push("from")
						seen |= 1
						if f, ok := d.Float("number", 64); ok {
							v.Range.From = f
						}
						d.Pop()
					case 1:
						d.Push("to")
						seen |= 2
						if f, ok := d.Float("number", 64); ok {
							v.Range.To = f
						}
						d.Pop()
					}
				}
				if seen&1 == 0 {
					d.Missing("from")
				}
			}
			d.Pop()
		case 4:
			d.Push("extra")
			if x, ok := d.Any(); ok {
				v.Extra = x
			}
			d.Pop()
		}
	}
	if seen&1 == 0 {
		d.Missing("query")
	}
}

func TestGenerated(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want searchInput
		errs []string
	}{
		{
			name: "all fields",
			in:   `{"query":"go","limit":5,"tags":["a","b"],"range":{"from":1,"to":2.5},"extra":{"k":[1]}}`,
			want: searchInput{Query: "go", Limit: 5, Tags: []string{"a", "b"}, Range: &struct{ From, To float64 }{1, 2.5}, Extra: map[string]any{"k": []any{1.0}}},
		},
		{
			name: "whitespace everywhere",
			in:   " \n{ \"query\" : \"go\" ,\t\"tags\" : [ ] , \"limit\" : null }\r\n",
			want: searchInput{Query: "go", Tags: []string{}},
		},
		{name: "missing", in: `{}`, errs: []string{"/query: required property is missing"}},
		{name: "not an object", in: `["go"]`, errs: []string{"(root): expected object, got array"}},
		{name: "null instead of an object", in: `null`, errs: []string{"(root): expected object, got null"}},
		{
			name: "every problem reported in order",
			in:   `{"query":"","limit":0,"tags":["a",2,"c",{}],"range":{"to":"x","zap":1},"bogus":[1,2],"query":"b"}`,
			want: searchInput{Query: "b", Tags: []string{"a", "c"}, Range: &struct{ From, To float64 }{}},
			errs: []string{
				"/query: must have at least 1 character",
				"/limit: must be between 1 and 50",
				"/tags/1: expected string, got number",
				"/tags/3: expected string, got object",
				"/range/to: expected number, got string",
				"/range/zap: unknown property (additional properties are not allowed)",
				"/range/from: required property is missing",
				"/bogus: unknown property (additional properties are not allowed)",
				"/query: duplicate property",
			},
		},
		{
			name: "wrong kinds",
			in:   `{"query":1,"limit":"5","tags":{"a":1},"range":[],"extra":{"a":1,"a":2}}`,
			errs: []string{
				"/query: expected string (minLength 1), got number",
				"/limit: expected integer (minimum 1, maximum 50), got string",
				"/tags: expected array of strings, got object",
				"/range: expected object, got array",
				"/extra/<key 1>: duplicate property",
			},
		},
		{
			name: "malformed after a problem stops everything",
			in:   `{"query":1,"limit":2 "tags":[]}`,
			want: searchInput{Limit: 2},
			errs: []string{
				"/query: expected string (minLength 1), got number",
				"(root): malformed JSON at byte 21: expected ',' or '}'",
			},
		},
		{
			name: "malformed inside a nested value",
			in:   `{"query":"q","tags":["a" "b"]}`,
			want: searchInput{Query: "q", Tags: []string{"a"}},
			errs: []string{"/tags: malformed JSON at byte 25: expected ',' or ']'"},
		},
		{
			name: "trailing data",
			in:   `{"query":"q"} {}`,
			want: searchInput{Query: "q"},
			errs: []string{"(root): unexpected data after the top-level value"},
		},
		{
			name: "escaped member names",
			in:   `{"\u0071uery":"q","a\/b~":1}`,
			want: searchInput{Query: "q"},
			errs: []string{"/<key>: unknown property (additional properties are not allowed)"},
		},
		{name: "no colon", in: `{"query" "q"}`, errs: []string{"(root): malformed JSON at byte 9: expected ':' after a member name"}},
		{name: "no name", in: `{"query":"q",1}`, want: searchInput{Query: "q"}, errs: []string{"(root): malformed JSON at byte 13: expected a member name"}},
		{name: "first not a name", in: `{1}`, errs: []string{"(root): malformed JSON at byte 1: expected a member name or '}'"}},
		{name: "name unterminated", in: `{"que`, errs: []string{"(root): malformed JSON at byte 5: unterminated string"}},
		{name: "name invalid UTF-8", in: "{\"q\xffuery\":1}", errs: []string{"(root): malformed JSON at byte 3: invalid UTF-8 in a string"}},
		{name: "end after a value", in: `{"query":"q"`, want: searchInput{Query: "q"}, errs: []string{"(root): malformed JSON at byte 12: unexpected end of input"}},
		{name: "end in an array", in: `{"tags":["a"`, want: searchInput{Tags: []string{"a"}}, errs: []string{"/tags: malformed JSON at byte 12: unexpected end of input"}},
		{
			name: "truncated",
			in:   `{"query":"q",`,
			want: searchInput{Query: "q"},
			errs: []string{"(root): malformed JSON at byte 13: expected a member name"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			d := NewDecoder()
			d.Reset([]byte(tt.in), Limits{})
			var got searchInput
			decodeSearchInput(d, &got)
			d.End()
			assert.Equal(t, tt.want, got)
			assert.Equal(t, tt.errs, problems(t, d.Err()))
			joined := strings.Join(tt.errs, "\n")
			assert.Equal(t, strings.Contains(joined, "malformed JSON") || strings.Contains(joined, "unexpected data"), d.Failed())
		})
	}
}

func TestProblemCap(t *testing.T) {
	t.Parallel()
	in := `[` + strings.Repeat(`"x",`, 30) + `"x"]`
	d := NewDecoder()
	d.Reset([]byte(in), Limits{})
	require.True(t, d.Array("array"))
	for i := 0; d.Next(); i++ {
		d.PushIndex(i)
		d.Int("integer", 64)
		d.Pop()
	}
	d.End()
	err := d.Err()
	var ae *ArgumentsError
	require.ErrorAs(t, err, &ae)
	assert.Len(t, ae.Problems, MaxProblems)
	assert.Equal(t, 31-MaxProblems, ae.Omitted)
	assert.Equal(t, "/19: expected integer, got string", ae.Problems[MaxProblems-1].String())
	assert.True(t, strings.HasSuffix(err.Error(), "; /19: expected integer, got string; ... and 11 more"), err.Error())
	assert.True(t, strings.HasPrefix(err.Error(), "invalid arguments: /0: expected integer, got string; /1: "), err.Error())

	// A fatal problem is kept even after the cap.
	d.Reset([]byte(strings.TrimSuffix(in, `]`)), Limits{})
	require.True(t, d.Array("array"))
	for d.Next() {
		d.Int("integer", 64)
	}
	require.ErrorAs(t, d.Err(), &ae)
	assert.Len(t, ae.Problems, MaxProblems+1)
	assert.Equal(t, "(root): malformed JSON at byte 124: unexpected end of input", ae.Problems[MaxProblems].String())
}

// TestDuplicateMember: a map's repeated member name is reported at its
// pointer and its value skipped, whatever the value.
func TestDuplicateMember(t *testing.T) {
	t.Parallel()
	d := NewDecoder()
	d.Reset([]byte(`{"m":{"a/b":1,"a/b":{"x":[1,2]},"c":2}}`), Limits{})
	require.True(t, d.Object("object"))
	key, ok := d.Key()
	require.True(t, ok)
	d.Push(string(key))
	require.True(t, d.Object("object"))
	seen := map[string]bool{}
	for {
		k, ok := d.Key()
		if !ok {
			break
		}
		if seen[string(k)] {
			d.DuplicateMember(k)
			continue
		}
		seen[string(k)] = true
		d.Push(string(k))
		d.Int("integer", 64)
		d.Pop()
	}
	d.Pop()
	_, ok = d.Key()
	require.False(t, ok)
	d.End()
	assert.Equal(t, []string{"/m/<key 1>: duplicate property"}, problems(t, d.Err()))

}

func TestFatalStopsEverything(t *testing.T) {
	t.Parallel()
	d := NewDecoder()
	d.Reset([]byte(`{"a":[1,2,x]}`), Limits{})
	require.True(t, d.Object("object"))
	_, ok := d.Key()
	require.True(t, ok)
	require.True(t, d.Array("array"))
	require.True(t, d.Next())
	d.Skip()
	require.True(t, d.Next())
	d.Skip()
	require.True(t, d.Next())
	d.Skip()
	require.True(t, d.Failed())
	want := []string{"(root): malformed JSON at byte 10: expected a JSON value"}
	require.Equal(t, want, problems(t, d.Err()))

	reads := map[string]func() bool{
		"Next":        d.Next,
		"Key":         func() bool { _, ok := d.Key(); return ok },
		"Object":      func() bool { return d.Object("object") },
		"Array":       func() bool { return d.Array("array") },
		"Null":        d.Null,
		"Bool":        func() bool { _, ok := d.Bool("boolean"); return ok },
		"String":      func() bool { _, ok := d.String("string"); return ok },
		"StringBytes": func() bool { _, ok := d.StringBytes("string"); return ok },
		"Int":         func() bool { _, ok := d.Int("integer", 64); return ok },
		"Uint":        func() bool { _, ok := d.Uint("integer", 64); return ok },
		"Float":       func() bool { _, ok := d.Float("number", 64); return ok },
		"Number":      func() bool { _, ok := d.Number("number"); return ok },
		"Time":        func() bool { _, ok := d.Time("string"); return ok },
		"Base64":      func() bool { _, ok := d.Base64("string"); return ok },
		"Raw":         func() bool { _, ok := d.Raw(); return ok },
		"Any":         func() bool { _, ok := d.Any(); return ok },
		"Kind":        func() bool { return d.Kind() != jsonlex.Invalid },
	}
	for name, read := range reads {
		assert.False(t, read(), name)
	}
	d.Skip()
	d.Problem("a check")
	d.Missing("b")
	d.Duplicate()
	d.Unknown([]byte("c"))
	d.DuplicateMember([]byte("d"))
	d.End()
	assert.Equal(t, want, problems(t, d.Err()), "nothing is recorded after a fatal problem")
}

func TestResetForgets(t *testing.T) {
	t.Parallel()
	d := NewDecoder()
	d.Reset([]byte(`[`), Limits{})
	d.Push("x")
	d.Skip()
	first := d.Err()
	require.Error(t, first)
	require.True(t, d.Failed())

	d.Reset([]byte(`"ok"`), Limits{})
	assert.False(t, d.Failed())
	s, ok := d.String("string")
	assert.True(t, ok)
	assert.Equal(t, "ok", s)
	d.Problem("at the root again")
	d.End()
	assert.Equal(t, []string{"(root): at the root again"}, problems(t, d.Err()))
	assert.Equal(t, []string{"/x: malformed JSON at byte 1: expected a JSON value, got end of input"}, problems(t, first),
		"an error returned earlier is not changed by reuse")
}

func TestPointers(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", 40) // 80 bytes
	problem := func(d *Decoder) { d.Problem("m") }
	tests := []struct {
		name   string
		path   []any // string names and int indices
		record func(d *Decoder)
		want   string
	}{
		{name: "root", record: problem, want: "(root): m"},
		{name: "name and index", path: []any{"a", 3, "b"}, record: problem, want: "/a/3/b: m"},
		{name: "identifier characters", path: []any{"A-z_0.9"}, record: problem, want: "/A-z_0.9: m"},
		{name: "64 bytes shown", path: []any{strings.Repeat("n", 64)}, record: problem, want: "/" + strings.Repeat("n", 64) + ": m"},
		{name: "65 bytes hidden", path: []any{strings.Repeat("n", 65)}, record: problem, want: "/<key>: m"},
		{name: "would need escapes", path: []any{"a/b", "~1"}, record: problem, want: "/<key>/<key>: m"},
		{name: "empty name", path: []any{""}, record: problem, want: "/<key>: m"},
		{name: "long name", path: []any{long}, record: problem, want: "/<key>: m"},
		{name: "control characters", path: []any{"a\nb\x00c\u2028d\u0085"}, record: problem, want: "/<key>: m"},
		{name: "invalid utf8", path: []any{"a\xffb"}, record: problem, want: "/<key>: m"},
		{name: "markup and quotes", path: []any{`<script>"x"</script>`}, record: problem, want: "/<key>: m"},
		{name: "duplicate", path: []any{"o", "k"}, record: (*Decoder).Duplicate, want: "/o/k: duplicate property"},
		{name: "unknown name", path: []any{"o"}, record: func(d *Decoder) { d.Unknown([]byte("x/y")) },
			want: "/o/<key>: unknown property (additional properties are not allowed)"},
		{name: "unknown identifier", path: []any{"o"}, record: func(d *Decoder) { d.Unknown([]byte("colour")) },
			want: "/o/colour: unknown property (additional properties are not allowed)"},
		{name: "unknown long name", path: []any{"o"}, record: func(d *Decoder) { d.Unknown([]byte(long + "\n")) },
			want: "/o/<key>: unknown property (additional properties are not allowed)"},
		{name: "missing name", path: []any{"o"}, record: func(d *Decoder) { d.Missing("~") }, want: "/o/<key>: required property is missing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			d := NewDecoder()
			d.Reset([]byte(`1`), Limits{})
			for _, p := range tt.path {
				switch p := p.(type) {
				case string:
					d.Push(p)
				case int:
					d.PushIndex(p)
				}
			}
			tt.record(d)
			require.Equal(t, []string{tt.want}, problems(t, d.Err()))
			for range tt.path {
				d.Pop()
			}
			d.Pop() // popping an empty path is harmless
			d.Problem("root")
			assert.Equal(t, "(root): root", problems(t, d.Err())[1])
		})
	}
}

func TestSecretsNeverEchoed(t *testing.T) {
	t.Parallel()
	const secret = "SECRET-7f3a"
	type reader func(d *Decoder)
	str := func(d *Decoder) { d.String("string") }
	tests := []struct {
		in   string
		read reader
	}{
		{`"` + secret + `"`, func(d *Decoder) { d.Int("integer", 64) }},
		{`"` + secret + `"`, func(d *Decoder) { d.Bool("boolean") }},
		{`"` + secret + `"`, func(d *Decoder) { d.Time("date-time") }},
		{`"` + secret + `"`, func(d *Decoder) { d.Base64("bytes") }},
		{`"` + secret + `"`, func(d *Decoder) { d.Object("object") }},
		{`"` + secret + `"`, func(d *Decoder) { d.Array("array") }},
		{`"` + secret + `"`, func(d *Decoder) { d.Float("number", 64) }},
		{`["` + secret + `"]`, str},
		{`{"k":"` + secret + `"}`, str},
		{`"` + secret, str},
		{`"` + secret + "\x01\"", str},
		{`"` + secret + "\xff\"", str},
		{`"` + secret + `\q"`, str},
		{`"` + secret + `\ud800"`, str},
		{`"` + secret + `" "` + secret + `"`, str},
		{`["` + secret + `" "` + secret + `"]`, func(d *Decoder) { d.Skip() }},
		{`{"a":"` + secret + `","a":"` + secret + `"}`, func(d *Decoder) { d.Raw() }},
		{`{"a":"` + secret + `","a":"` + secret + `"}`, func(d *Decoder) { d.Any() }},
		{`{"a":` + secret + `}`, func(d *Decoder) { d.Any() }},
		{`[` + strings.Repeat(`[`, 70) + `"` + secret + `"`, func(d *Decoder) { d.Skip() }},
		{`"` + strings.Repeat(secret, 200) + `"`, str},
		{`123` + secret, func(d *Decoder) { d.Int("integer", 8) }},
		{`1e999` + secret, func(d *Decoder) { d.Float("number", 64) }},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			d := NewDecoder()
			d.Reset([]byte(tt.in), Limits{MaxBytes: 1000})
			tt.read(d)
			d.End()
			err := d.Err()
			require.Error(t, err)
			assert.NotContains(t, err.Error(), secret)
			assert.NotContains(t, err.Error(), secret[:6])
		})
	}
}

func TestArgumentsErrorFormat(t *testing.T) {
	t.Parallel()
	tests := []struct {
		err  ArgumentsError
		want string
	}{
		{ArgumentsError{Problems: []Problem{{Pointer: "", Message: "m"}}}, "invalid arguments: (root): m"},
		{ArgumentsError{Problems: []Problem{{Pointer: "/a", Message: "m"}, {Pointer: "/b/0", Message: "n"}}}, "invalid arguments: /a: m; /b/0: n"},
		{ArgumentsError{Problems: []Problem{{Pointer: "/a", Message: "m"}}, Omitted: 3}, "invalid arguments: /a: m; ... and 3 more"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, tt.err.Error())
	}
}

func TestEmptyContainersThroughAPI(t *testing.T) {
	t.Parallel()
	d := NewDecoder()
	d.Reset([]byte(`{"a":{},"b":[],"c":[[],{}]}`), Limits{MaxDepth: 3})
	require.True(t, d.Object("object"))
	var keys []string
	for {
		k, ok := d.Key()
		if !ok {
			break
		}
		keys = append(keys, string(k))
		d.Skip()
	}
	d.End()
	assert.Equal(t, []string{"a", "b", "c"}, keys)
	assert.NoError(t, d.Err())
}

func TestZeroAllocations(t *testing.T) {
	in := []byte(`{"query":"","limit":20,"exact":true,"score":0.25,"n":-12,"big":123456789012345678901,"name\u00e9":"\u00e9"}`)
	d := NewDecoder()
	allocs := testing.AllocsPerRun(100, func() {
		d.Reset(in, Limits{})
		if !d.Object("object") {
			return
		}
		for {
			key, ok := d.Key()
			if !ok {
				break
			}
			d.Push("k")
			switch string(key) {
			case "query":
				d.String("string")
			case "limit", "n":
				d.Int("integer", 64)
			case "exact":
				d.Bool("boolean")
			case "score", "big":
				d.Float("number", 64)
			default:
				d.StringBytes("string")
			}
			d.Pop()
		}
		d.End()
		if d.Err() != nil {
			panic(d.Err())
		}
	})
	assert.Zero(t, allocs)
}

// TestMapKeysByPosition: a map's key (PushKey, DuplicateMember) and a
// member name inside a free-form value (Any, Raw) stand in a pointer as
// their position, whatever they are: a name, an API key, an address.
func TestMapKeysByPosition(t *testing.T) {
	t.Parallel()
	const key = "sk-live-4f9a8b7c6d5e"
	require.True(t, IsIdentifier(key), "a key that would pass for a name")
	d := NewDecoder()
	d.Reset([]byte(`{"m":{"a":1,"`+key+`":"x","`+key+`":2,"b":{"`+key+`":[1,{"q":1,"q":2}]}},"n":{"`+key+`":1,"`+key+`":2}}`), Limits{})
	require.True(t, d.Object("object"))
	for {
		k, ok := d.Key()
		if !ok {
			break
		}
		d.Push(string(k)) // a property
		switch string(k) {
		case "m":
			require.True(t, d.Object("object"))
			seen := map[string]bool{}
			for {
				mk, ok := d.Key()
				if !ok {
					break
				}
				if seen[string(mk)] {
					d.DuplicateMember(mk)
					continue
				}
				seen[string(mk)] = true
				d.PushKey()
				if string(mk) == "b" {
					d.Any()
				} else {
					d.Int("integer", 64)
				}
				d.Pop()
			}
		case "n":
			d.Raw()
		}
		d.Pop()
	}
	d.End()
	assert.Equal(t, []string{
		"/m/<key 1>: expected integer, got string",
		"/m/<key 2>: duplicate property",
		"/m/<key 3>/<key 0>/1/<key 1>: duplicate property",
		"/n/<key 1>: duplicate property",
	}, problems(t, d.Err()))
	assert.NotContains(t, d.Err().Error(), key)
	assert.Equal(t, "<key 12>", KeyToken(12))
	assert.False(t, IsIdentifier(KeyToken(0)), "no identifier is spelled so")
}

func TestForgetDropsTheInput(t *testing.T) {
	d := NewDecoder()
	d.Reset([]byte(`{"a":"short string"}`), Limits{})
	require.True(t, d.Object("object"))
	_, ok := d.Key()
	require.True(t, ok)
	s, ok := d.String("string")
	require.True(t, ok)
	d.Forget()
	assert.Nil(t, d.data, "no reference to the caller's input")
	assert.Zero(t, d.block.Len(), "nor to the block its strings live in")
	assert.Equal(t, "short string", s, "strings already made stay intact")
	d.Reset([]byte(`{}`), Limits{})
	require.True(t, d.Object("object"))
	_, ok = d.Key()
	assert.False(t, ok)
	d.End()
	assert.NoError(t, d.Err())
}

// TestSkipPaths: without paths the same problems are found, at the
// top-level pointer; Reset keeps paths again, and Pop stays balanced.
func TestSkipPaths(t *testing.T) {
	t.Parallel()
	input := []byte(`{"a":[1,"x"],"m":{"k":true}}`)
	decode := func(d *Decoder) []string {
		require.True(t, d.Object("object"))
		for {
			key, ok := d.Key()
			if !ok {
				break
			}
			d.Member(string(key), false)
			switch string(key) {
			case "a":
				require.True(t, d.Array("array"))
				for i := 0; d.Next(); i++ {
					d.PushIndex(i)
					d.Int("integer", 64)
					d.Pop()
				}
			case "m":
				require.True(t, d.Object("object"))
				for {
					if _, ok := d.Key(); !ok {
						break
					}
					d.PushKey()
					d.String("string")
					d.Pop()
				}
			}
			d.Pop()
		}
		d.End()
		assert.Empty(t, d.path, "every push popped")
		return problems(t, d.Err())
	}
	d := NewDecoder()
	d.Reset(input, Limits{})
	d.SkipPaths()
	assert.Equal(t, []string{"(root): expected integer, got string", "(root): expected string, got boolean"}, decode(d))
	d.Reset(input, Limits{})
	assert.Equal(t, []string{"/a/1: expected integer, got string", "/m/<key 0>: expected string, got boolean"}, decode(d))
}
