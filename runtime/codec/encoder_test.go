package codec

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// stdJSON encodes v with encoding/json without HTML escaping, as the
// Encoder is meant to.
func stdJSON(t *testing.T, v any) string {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	require.NoError(t, enc.Encode(v))
	return strings.TrimSuffix(b.String(), "\n")
}

func TestEncodeStringLikeEncodingJSON(t *testing.T) {
	t.Parallel()
	var all strings.Builder
	inputs := []string{"", "plain", `"quoted" \back\slash/`, "<html> & 'apos'", "é日本😀", "\u2028\u2029", "a\u2028b\u2029c",
		"\x7f", "\u0085", "\ufeff", "\uffff", "\U0010ffff",
		"\xff", "a\xffb", "\xc3", "\xc3(", "\xe2\x82", "\xe2\x82(", "\xf0\x9f\x98", "\xed\xa0\x80", "\xc0\xaf", "\xf4\x90\x80\x80",
		"\x80\x80\x80",
		// Around a word (jsonlex.Plain tests eight bytes at a time).
		strings.Repeat("a", 32), strings.Repeat("a", 33),
		strings.Repeat("a", 31) + `"`, strings.Repeat("a", 32) + "\n",
		strings.Repeat("é", 16), strings.Repeat("a", 31) + "\u2028"}
	for c := range 0x80 {
		inputs = append(inputs, string(rune(c)), "x"+string(rune(c))+"y")
		all.WriteByte(byte(c))
	}
	for c := 0x80; c < 0x100; c++ {
		inputs = append(inputs, string([]byte{byte(c)}))
	}
	inputs = append(inputs, all.String())
	e := NewEncoder()
	for _, s := range inputs {
		want := stdJSON(t, s)
		e.Reset()
		e.String(s)
		assert.Equal(t, want, string(e.Bytes()), "String(%q)", s)
		e.Reset()
		e.StringBytes([]byte(s))
		assert.Equal(t, want, string(e.Bytes()), "StringBytes(%q)", s)
		e.Reset()
		e.Text([]byte(s), nil)
		assert.Equal(t, want, string(e.Bytes()), "Text(%q)", s)
		e.Reset()
		e.ObjectStart()
		e.Key(s)
		e.Int(1)
		e.ObjectEnd()
		assert.Equal(t, stdJSON(t, map[string]int{s: 1}), string(e.Bytes()), "Key(%q)", s)
	}
	assert.NoError(t, e.Err())
}

func TestEncodeFloatLikeEncodingJSON(t *testing.T) {
	t.Parallel()
	f64 := []float64{0, math.Copysign(0, -1), 1, -1, 0.1, 0.2, 0.3, 1.5, -2.25, 100, 1e6, 1e20, 1e21, 1e-6, 1e-7, 9.999999e-7,
		123456789, 1234567890123456789, 12345678901234567890123.0, 999999999999999999999.0, 1e22, 5e-324, math.SmallestNonzeroFloat64,
		math.MaxFloat64, -math.MaxFloat64, math.MaxFloat32, math.Pi, math.E, 1.0 / 3, 2.0 / 3, 1e100, 1e-100, 0.000001, 0.0000001,
		float64(math.MaxInt64), float64(1 << 53), float64(1<<53 + 1), 33.333333333333336, 1.7976931348623157e308, 4.9406564584124654e-324}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		f := math.Float64frombits(r.Uint64())
		if !math.IsNaN(f) && !math.IsInf(f, 0) {
			f64 = append(f64, f)
		}
		f64 = append(f64, r.NormFloat64()*math.Pow(10, float64(r.IntN(60)-30)))
	}
	e := NewEncoder()
	for _, f := range f64 {
		e.Reset()
		e.Float(f, 64)
		assert.Equal(t, stdJSON(t, f), string(e.Bytes()), "Float(%v, 64)", f)
		e.Reset()
		e.Any(f)
		assert.Equal(t, stdJSON(t, f), string(e.Bytes()), "Any(%v)", f)
	}
	f32 := []float32{0, float32(math.Copysign(0, -1)), 1, 0.1, 0.2, 0.3, 1e20, 1e21, 1e-6, 1e-7, 9.999999e-7, 3.4028235e38,
		math.SmallestNonzeroFloat32, 16777216, 16777217, 1.0 / 3, 123456.79}
	for range 2000 {
		f := math.Float32frombits(r.Uint32())
		if !math.IsNaN(float64(f)) && !math.IsInf(float64(f), 0) {
			f32 = append(f32, f)
		}
	}
	for _, f := range f32 {
		e.Reset()
		e.Float(float64(f), 32)
		assert.Equal(t, stdJSON(t, f), string(e.Bytes()), "Float(%v, 32)", f)
		e.Reset()
		e.Any(f)
		assert.Equal(t, stdJSON(t, f), string(e.Bytes()), "Any(float32(%v))", f)
	}
	assert.NoError(t, e.Err())
}

func TestEncodeFloatUnsupported(t *testing.T) {
	t.Parallel()
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		for _, bits := range []int{32, 64} {
			e := NewEncoder()
			e.ArrayStart()
			e.Float(f, bits)
			e.Int(1)
			e.ArrayEnd()
			require.Error(t, e.Err())
			assert.Contains(t, e.Err().Error(), "unsupported value")
			assert.Equal(t, `[null,1]`, string(e.Bytes()))
		}
	}
}

func TestEncodeIntegersLikeEncodingJSON(t *testing.T) {
	t.Parallel()
	e := NewEncoder()
	for _, v := range []int64{0, 1, 9, 10, -1, -9, -10, 42, 99, 100, -99, -100, math.MaxInt8, math.MinInt8, math.MaxInt32, math.MinInt32, math.MaxInt64, math.MinInt64} {
		e.Reset()
		e.Int(v)
		assert.Equal(t, stdJSON(t, v), string(e.Bytes()))
	}
	for _, v := range []uint64{0, 1, 9, 10, 42, 99, 100, math.MaxUint32, math.MaxUint64} {
		e.Reset()
		e.Uint(v)
		assert.Equal(t, stdJSON(t, v), string(e.Bytes()))
	}
	for _, v := range []bool{true, false} {
		e.Reset()
		e.Bool(v)
		assert.Equal(t, stdJSON(t, v), string(e.Bytes()))
	}
	e.Reset()
	e.Null()
	assert.Equal(t, "null", string(e.Bytes()))
}

func TestEncodeTimeLikeEncodingJSON(t *testing.T) {
	t.Parallel()
	times := []time.Time{
		{},
		time.Date(2006, 1, 2, 15, 4, 5, 0, time.UTC),
		time.Date(2006, 1, 2, 15, 4, 5, 123456789, time.UTC),
		time.Date(2006, 1, 2, 15, 4, 5, 120000000, time.FixedZone("X", -7*3600-30*60)),
		time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.FixedZone("", 14*3600)),
		time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Unix(1700000000, 1).In(time.FixedZone("", 3600)),
	}
	e := NewEncoder()
	for _, tm := range times {
		e.Reset()
		e.Time(tm)
		assert.Equal(t, stdJSON(t, tm), string(e.Bytes()), "%v", tm)
		assert.NoError(t, e.Err())
	}
	bad := []time.Time{
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(2000, 1, 1, 0, 0, 0, 0, time.FixedZone("", 24*3600)),
	}
	for _, tm := range bad {
		_, stdErr := json.Marshal(tm)
		require.Error(t, stdErr, "encoding/json refuses %v", tm)
		e.Reset()
		e.ArrayStart()
		e.Time(tm)
		e.ArrayEnd()
		require.Error(t, e.Err(), "%v", tm)
		assert.Contains(t, e.Err().Error(), "encoding a time")
		assert.Equal(t, `[null]`, string(e.Bytes()))
	}
}

func TestEncodeBase64LikeEncodingJSON(t *testing.T) {
	t.Parallel()
	e := NewEncoder()
	for n := range 20 {
		b := bytes.Repeat([]byte{0xfb, 0xff, 0x01}, n)[:n]
		e.Reset()
		e.Base64(b)
		assert.Equal(t, stdJSON(t, b), string(e.Bytes()))
	}
	e.Reset()
	e.Base64(nil)
	assert.Equal(t, `""`, string(e.Bytes()))
}

func TestEncodeStructure(t *testing.T) {
	t.Parallel()
	e := NewEncoder()
	e.ObjectStart()
	e.Key("a")
	e.ArrayStart()
	e.Int(1)
	e.ArrayStart()
	e.ArrayEnd()
	e.ObjectStart()
	e.ObjectEnd()
	e.String("s")
	e.ArrayEnd()
	e.Key("b")
	e.ObjectStart()
	e.Key("c")
	e.Null()
	e.Key("d")
	e.Bool(false)
	e.ObjectEnd()
	e.Key("e")
	e.Float(0.5, 64)
	e.ObjectEnd()
	want := `{"a":[1,[],{},"s"],"b":{"c":null,"d":false},"e":0.5}`
	assert.Equal(t, want, string(e.Bytes()))
	assert.Equal(t, len(want), e.Len())
	assert.True(t, json.Valid(e.Bytes()))
	require.NoError(t, e.Err())

	e.Reset()
	assert.Zero(t, e.Len())
	e.Int(1)
	e.RawText(" plain\ntext")
	assert.Equal(t, "1 plain\ntext", string(e.Bytes()))
}

// TestEncodeRawKey: RawKey writes the commas Key writes.
func TestEncodeRawKey(t *testing.T) {
	t.Parallel()
	e := NewEncoder()
	e.ObjectStart()
	e.RawKey(`"a":`)
	e.Int(1)
	e.RawKey(`"b\"c":`)
	e.ObjectStart()
	e.RawKey(`"d":`)
	e.ArrayStart()
	e.ArrayEnd()
	e.ObjectEnd()
	e.ObjectEnd()
	assert.Equal(t, `{"a":1,"b\"c":{"d":[]}}`, string(e.Bytes()))
}

// TestEncodeRawMember: RawMember writes its text, comma included, and no
// comma of its own; the value after it gets none either.
func TestEncodeRawMember(t *testing.T) {
	t.Parallel()
	e := NewEncoder()
	e.RawKey(`{"a":`)
	e.Int(1)
	e.RawMember(`,"b":`)
	e.ArrayStart()
	e.String("x")
	e.ArrayEnd()
	e.RawMember(`,"c\"d":`)
	e.Bool(true)
	e.ObjectEnd()
	assert.Equal(t, `{"a":1,"b":["x"],"c\"d":true}`, string(e.Bytes()))
}

// TestEncodeMembers: each Member method writes what RawMember and the
// value's method write, whatever came before.
func TestEncodeMembers(t *testing.T) {
	t.Parallel()
	tm := time.Date(2025, 1, 2, 3, 4, 5, 6, time.FixedZone("", 3600))
	for _, c := range []struct {
		name          string
		fused, parted func(e *Encoder, text string)
	}{
		{"String", func(e *Encoder, k string) { e.StringMember(k, "plain") }, func(e *Encoder, k string) { e.RawMember(k); e.String("plain") }},
		{"String escaped", func(e *Encoder, k string) { e.StringMember(k, "a\"b\n\u2028\xff") }, func(e *Encoder, k string) { e.RawMember(k); e.String("a\"b\n\u2028\xff") }},
		{"String empty", func(e *Encoder, k string) { e.StringMember(k, "") }, func(e *Encoder, k string) { e.RawMember(k); e.String("") }},
		{"Int", func(e *Encoder, k string) { e.IntMember(k, -7) }, func(e *Encoder, k string) { e.RawMember(k); e.Int(-7) }},
		{"Int small", func(e *Encoder, k string) { e.IntMember(k, 42) }, func(e *Encoder, k string) { e.RawMember(k); e.Int(42) }},
		{"Int 0", func(e *Encoder, k string) { e.IntMember(k, 0) }, func(e *Encoder, k string) { e.RawMember(k); e.Int(0) }},
		{"Int 10", func(e *Encoder, k string) { e.IntMember(k, 10) }, func(e *Encoder, k string) { e.RawMember(k); e.Int(10) }},
		{"Int 99", func(e *Encoder, k string) { e.IntMember(k, 99) }, func(e *Encoder, k string) { e.RawMember(k); e.Int(99) }},
		{"Int 100", func(e *Encoder, k string) { e.IntMember(k, 100) }, func(e *Encoder, k string) { e.RawMember(k); e.Int(100) }},
		{"Int large", func(e *Encoder, k string) { e.IntMember(k, math.MinInt64) }, func(e *Encoder, k string) { e.RawMember(k); e.Int(math.MinInt64) }},
		{"Uint", func(e *Encoder, k string) { e.UintMember(k, math.MaxUint64) }, func(e *Encoder, k string) { e.RawMember(k); e.Uint(math.MaxUint64) }},
		{"Uint small", func(e *Encoder, k string) { e.UintMember(k, 9) }, func(e *Encoder, k string) { e.RawMember(k); e.Uint(9) }},
		{"Uint 99", func(e *Encoder, k string) { e.UintMember(k, 99) }, func(e *Encoder, k string) { e.RawMember(k); e.Uint(99) }},
		{"Bool", func(e *Encoder, k string) { e.BoolMember(k, true) }, func(e *Encoder, k string) { e.RawMember(k); e.Bool(true) }},
		{"Bool false", func(e *Encoder, k string) { e.BoolMember(k, false) }, func(e *Encoder, k string) { e.RawMember(k); e.Bool(false) }},
		{"Float", func(e *Encoder, k string) { e.FloatMember(k, 1e-7, 64) }, func(e *Encoder, k string) { e.RawMember(k); e.Float(1e-7, 64) }},
		{"Float32", func(e *Encoder, k string) { e.FloatMember(k, float64(float32(0.1)), 32) }, func(e *Encoder, k string) { e.RawMember(k); e.Float(float64(float32(0.1)), 32) }},
		{"Float NaN", func(e *Encoder, k string) { e.FloatMember(k, math.NaN(), 64) }, func(e *Encoder, k string) { e.RawMember(k); e.Float(math.NaN(), 64) }},
		{"Time", func(e *Encoder, k string) { e.TimeMember(k, tm) }, func(e *Encoder, k string) { e.RawMember(k); e.Time(tm) }},
		{"Time unrepresentable", func(e *Encoder, k string) { e.TimeMember(k, tm.AddDate(10000, 0, 0)) }, func(e *Encoder, k string) { e.RawMember(k); e.Time(tm.AddDate(10000, 0, 0)) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			// Texts of 5 to 18 bytes (those of 8 to 16 are copied as
			// words), in buffers of every spare capacity up to 48 bytes,
			// after a ResetAppend's bytes, with no limit or any limit
			// up to 48 bytes.
			for _, text := range []string{`,"k":`, `,"abc":`, `,"abcd":`, `,"abcdefghi":`, `,"abcdefghijkl":`, `,"abcdefghijklm":`, `,"abcdefghijklmn":`} {
				for _, start := range [][]byte{nil, []byte("kept:")} {
					for spare := range 49 {
						for limit := range 49 {
							fused, parted := NewEncoder(), NewEncoder()
							for _, e := range []*Encoder{fused, parted} {
								buf := make([]byte, len(start), len(start)+spare)
								copy(buf, start)
								e.ResetAppend(buf)
								e.SetLimit(limit)
								e.RawKey(`{"a":`)
								e.Int(1)
							}
							c.fused(fused, text)
							c.parted(parted, text)
							for _, e := range []*Encoder{fused, parted} {
								e.String("next")
								e.ObjectEnd()
							}
							require.Equal(t, string(parted.Bytes()), string(fused.Bytes()), "text %s, spare %d, limit %d", text, spare, limit)
							require.Equal(t, parted.TooLarge(), fused.TooLarge(), "text %s, spare %d, limit %d", text, spare, limit)
							require.Equal(t, parted.Err(), fused.Err())
						}
					}
				}
			}
		})
	}
}

// TestEncodeResetAppend: after ResetAppend the encoder appends to the
// given buffer, in its memory, with no comma first; it keeps using that
// memory until given other memory.
func TestEncodeResetAppend(t *testing.T) {
	t.Parallel()
	e := NewEncoder()
	e.Int(1) // a comma would be due next
	e.Fail(errors.New("old failure"))

	buf := make([]byte, 0, 64)
	buf = append(buf, "xs="...)
	e.ResetAppend(buf)
	require.NoError(t, e.Err(), "ResetAppend forgets the failure")
	e.ArrayStart()
	e.Int(2)
	e.ArrayEnd()
	assert.Equal(t, "xs=[2]", string(e.Bytes()))
	assert.Equal(t, 6, e.Len(), "Len counts the buffer's bytes")
	assert.Same(t, &buf[:1][0], &e.Bytes()[0], "written in buf's memory")
	assert.Equal(t, "xs=", string(buf), "the caller's bytes are left alone")

	e.Reset()
	e.Int(3)
	assert.Same(t, &buf[:1][0], &e.Bytes()[0], "Reset keeps the memory")

	e.ResetAppend(nil)
	e.Int(4)
	assert.Equal(t, "4", string(e.Bytes()))
	assert.Equal(t, byte('3'), buf[:1][0], "other memory: buf is no longer written")
}

func TestEncodeAny(t *testing.T) {
	t.Parallel()
	values := []any{
		nil, true, "s", 1.5, float32(0.1), int(-1), int8(-8), int16(-16), int32(-32), int64(math.MinInt64),
		uint(1), uint8(8), uint16(16), uint32(32), uint64(math.MaxUint64), uintptr(7),
		[]any{}, []any(nil), []string{}, []string(nil), []string{"a", "<b>"},
		map[string]any{}, map[string]any(nil), map[string]string(nil), map[string]string{"z": "1", "a": "2", "é": "3", "B": "4"},
		map[string]any{"z": []any{1, "x", map[string]any{"y": nil, "b": []string{"c"}}}, "a": false, "m": map[string]string{"k": "v"}},
	}
	e := NewEncoder()
	for _, v := range values {
		e.Reset()
		e.Any(v)
		require.NoError(t, e.Err(), "%#v", v)
		assert.Equal(t, stdJSON(t, v), string(e.Bytes()), "%#v", v)
	}
}

func TestEncodeAnyUnsupported(t *testing.T) {
	t.Parallel()
	cyclic := map[string]any{}
	cyclic["self"] = cyclic
	tests := []struct {
		v    any
		want string
	}{
		{struct{}{}, "codec: cannot encode a value of type struct {} without reflection; use a JSON-shaped value"},
		{[]int{1}, "codec: cannot encode a value of type []int without reflection; use a JSON-shaped value"},
		{map[string]any{"a": []any{time.Second}}, "codec: cannot encode a value of type time.Duration without reflection; use a JSON-shaped value"},
		{math.NaN(), "codec: unsupported value: NaN"},
		{[]any{float32(math.Inf(-1))}, "codec: unsupported value: -Inf"},
		{cyclic, "codec: value nested more than 1000 levels deep (does it contain itself?)"},
	}
	for _, tt := range tests {
		e := NewEncoder()
		e.Any(tt.v)
		require.Error(t, e.Err())
		assert.Equal(t, tt.want, e.Err().Error())
	}
}

func TestEncodeJSON(t *testing.T) {
	t.Parallel()
	valid := []string{`1`, ` { "a" : [ 1 , 2 ] , "b" : " x  y " } `, "\t\"\\\" \"\n", `[]`, `{"a":{"b":[{},[],"\u00e9 "]}}`, `"<&>"`}
	e := NewEncoder()
	for _, in := range valid {
		var want bytes.Buffer
		require.NoError(t, json.Compact(&want, []byte(in)))
		e.Reset()
		e.ArrayStart()
		e.JSON([]byte(in), nil)
		e.JSON([]byte(in), nil)
		e.ArrayEnd()
		require.NoError(t, e.Err(), in)
		assert.Equal(t, "["+want.String()+","+want.String()+"]", string(e.Bytes()))
	}
	invalid := []string{``, ` `, `{`, `[1,]`, `1 2`, `{"a":1}}`, "\"\xff\"", `'a'`, `nul`}
	for _, in := range invalid {
		e.Reset()
		e.ArrayStart()
		e.JSON([]byte(in), nil)
		e.ArrayEnd()
		require.Error(t, e.Err(), in)
		assert.True(t, strings.HasPrefix(e.Err().Error(), "codec: invalid JSON from MarshalJSON: "), e.Err().Error())
		assert.Equal(t, `[null]`, string(e.Bytes()))
	}
	boom := errors.New("boom")
	for _, write := range []func(){func() { e.JSON([]byte(`1`), boom) }, func() { e.Text([]byte(`x`), boom) }} {
		e.Reset()
		write()
		require.ErrorIs(t, e.Err(), boom)
		assert.Equal(t, `null`, string(e.Bytes()))
	}
}

func TestEncodeFailFirstWins(t *testing.T) {
	t.Parallel()
	e := NewEncoder()
	first, second := errors.New("first"), errors.New("second")
	e.Fail(nil)
	require.NoError(t, e.Err())
	e.Fail(first)
	e.Fail(second)
	e.Float(math.NaN(), 64)
	assert.Equal(t, first, e.Err())
	e.Reset()
	assert.NoError(t, e.Err())
}

func TestEncodeZeroAllocations(t *testing.T) {
	e := NewEncoder()
	tm := time.Date(2006, 1, 2, 15, 4, 5, 123, time.UTC)
	write := func() {
		e.Reset()
		e.ObjectStart()
		e.Key("name")
		e.String("caf\u00e9 \"quoted\"\n")
		e.Key("n")
		e.Int(-42)
		e.Key("f")
		e.Float(0.1, 64)
		e.Key("g")
		e.Float(1e-7, 32)
		e.Key("t")
		e.Time(tm)
		e.Key("b")
		e.Base64([]byte("hello"))
		e.Key("list")
		e.ArrayStart()
		e.Bool(true)
		e.Null()
		e.Uint(7)
		e.ArrayEnd()
		e.ObjectEnd()
	}
	write()
	assert.Zero(t, testing.AllocsPerRun(100, write))
}
