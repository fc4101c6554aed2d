package codec

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

const benchSmall = `{"query":"golang generics","limit":20,"tags":["go","types"],"range":{"from":1.5,"to":100}}`

func BenchmarkDecodeSmallObject(b *testing.B) {
	data := []byte(benchSmall)
	d := NewDecoder()
	var v searchInput
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		d.Reset(data, Limits{})
		v = searchInput{Tags: v.Tags[:0]}
		decodeSearchInput(d, &v)
		d.End()
		if err := d.Err(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeSmallObjectEncodingJSON is the same work with
// encoding/json, for comparison.
func BenchmarkDecodeSmallObjectEncodingJSON(b *testing.B) {
	data := []byte(benchSmall)
	type rng struct{ From, To float64 }
	type input struct {
		Query string   `json:"query"`
		Limit int      `json:"limit"`
		Tags  []string `json:"tags"`
		Range *rng     `json:"range"`
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		var v input
		if err := json.Unmarshal(data, &v); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeKeysAndNumbers(b *testing.B) {
	data := []byte(`{"a":1,"b":-22,"c":333,"d":0.5,"e":true,"f":null,"g":1e3}`)
	d := NewDecoder()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		d.Reset(data, Limits{})
		d.Object("object")
		for {
			key, ok := d.Key()
			if !ok {
				break
			}
			switch string(key) {
			case "a", "b", "c":
				d.Int("integer", 64)
			case "e":
				d.Bool("boolean")
			case "f":
				d.Null()
			default:
				d.Float("number", 64)
			}
		}
		d.End()
	}
}

func BenchmarkDecodeEscapedString(b *testing.B) {
	data := []byte(`"line one\nline \"two\"\tcaf\u00e9 \ud83d\ude00 and some more plain text after the escapes"`)
	d := NewDecoder()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		d.Reset(data, Limits{})
		d.StringBytes("string")
		d.End()
	}
}

func BenchmarkSkip(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`[`)
	for i := range 200 {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(`{"id":12345,"name":"caf\u00e9 \"x\"","score":-1.25e-3,"ok":true,"tags":["a","b",null],"nested":{"k":[1,2,3]}}`)
	}
	sb.WriteString(`]`)
	data := []byte(sb.String())
	d := NewDecoder()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		d.Reset(data, Limits{})
		d.Skip()
		d.End()
	}
}

func BenchmarkRaw(b *testing.B) {
	data := []byte(`{"id":12345,"name":"x","tags":["a","b"],"nested":{"k":[1,2,3],"m":{"a":1,"b":2}}}`)
	d := NewDecoder()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		d.Reset(data, Limits{})
		d.Raw()
		d.End()
	}
}

func BenchmarkEncoder(b *testing.B) {
	e := NewEncoder()
	tm := time.Date(2006, 1, 2, 15, 4, 5, 0, time.UTC)
	tags := []string{"go", "types"}
	b.ReportAllocs()
	for b.Loop() {
		e.Reset()
		e.ObjectStart()
		e.Key("id")
		e.Int(12345)
		e.Key("title")
		e.String("Generics in \"Go\"\n")
		e.Key("score")
		e.Float(0.875, 64)
		e.Key("created")
		e.Time(tm)
		e.Key("tags")
		e.ArrayStart()
		for _, t := range tags {
			e.String(t)
		}
		e.ArrayEnd()
		e.Key("done")
		e.Bool(false)
		e.ObjectEnd()
	}
	b.SetBytes(int64(e.Len()))
}

// BenchmarkEncoderMembers writes BenchmarkEncoder's object as the
// generated encoders write it: the first member's text with RawKey, each
// scalar member with one call of its Member method.
func BenchmarkEncoderMembers(b *testing.B) {
	e := NewEncoder()
	tm := time.Date(2006, 1, 2, 15, 4, 5, 0, time.UTC)
	tags := []string{"go", "types"}
	b.ReportAllocs()
	for b.Loop() {
		e.Reset()
		e.RawKey(`{"id":`)
		e.Int(12345)
		e.StringMember(`,"title":`, "Generics in \"Go\"\n")
		e.FloatMember(`,"score":`, 0.875, 64)
		e.TimeMember(`,"created":`, tm)
		e.RawMember(`,"tags":[`)
		for _, t := range tags {
			e.String(t)
		}
		e.ArrayEnd()
		e.BoolMember(`,"done":`, false)
		e.ObjectEnd()
	}
	b.SetBytes(int64(e.Len()))
}

// BenchmarkLongString reads and writes a 4 KiB string of plain text, such
// as a note's body: eight bytes are tested at a time.
func BenchmarkLongString(b *testing.B) {
	text := strings.Repeat("The quick brown fox jumps over the lazy dog. ", 91)
	in := []byte(`"` + text + `"`)
	b.Run("decode", func(b *testing.B) {
		d := NewDecoder()
		b.SetBytes(int64(len(in)))
		for b.Loop() {
			d.Reset(in, Limits{})
			if _, ok := d.StringBytes("string"); !ok {
				b.Fatal(d.Err())
			}
		}
	})
	b.Run("encode", func(b *testing.B) {
		e := NewEncoder()
		b.SetBytes(int64(len(in)))
		for b.Loop() {
			e.Reset()
			e.String(text)
		}
	})
}
