package codec

import (
	"bytes"
	"io"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

// The issue behind this package preferred a well-kept tokenizer
// (go-json-experiment's jsontext, what becomes the standard library's)
// over a hand-written scanner, unless measurements showed it could not
// reach the call-path target. These benchmarks measure the tokenizer
// alone on the same document, side by side with this package's scanner
// doing the same work (every token read and checked, nothing built).

// BenchmarkTokensJSONText reads every token with a reused jsontext.Decoder,
// as a wrapper around it would.
func BenchmarkTokensJSONText(b *testing.B) {
	data := []byte(benchSmall)
	r := bytes.NewReader(data)
	dec := jsontext.NewDecoder(r)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		r.Reset(data)
		dec.Reset(r)
		for {
			tok, err := dec.ReadToken()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			if tok.Kind() == '"' {
				_ = tok.String()
			}
		}
	}
}

// BenchmarkTokensCodec is the same work with this package's scanner.
func BenchmarkTokensCodec(b *testing.B) {
	data := []byte(benchSmall)
	d := NewDecoder()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		d.Reset(data, Limits{})
		d.Skip()
		d.End()
		if err := d.Err(); err != nil {
			b.Fatal(err)
		}
	}
}
