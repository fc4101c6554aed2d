package compare

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/mailru/easyjson/jlexer"
	"github.com/toolgen-go/toolgen/bench/easy"
	"github.com/toolgen-go/toolgen/bench/generated"
	"github.com/toolgen-go/toolgen/bench/generated/toolstools"
	"github.com/toolgen-go/toolgen/bench/tools"
)

// Sinks keep results alive so that the compiler cannot drop the work;
// they are typed, since storing a slice in an any would allocate.
var (
	sinkBytes []byte
	sinkInt   int
)

// BenchmarkCall measures one call (look up, decode, validate, run, encode)
// for the small and the medium input through every path. The sub-benchmark
// names are tool/path, so that benchstat lines them up.
func BenchmarkCall(b *testing.B) {
	ps := paths(b)
	ps["encoding_json"] = EncodingJSON()
	order := []string{"toolgen", "toolgen_handle", "service", "toolgen_call", "easyjson", "encoding_json", "jsonschema", "mcp"}
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		args []byte
	}{{"small", tools.SmallArgs}, {"medium", tools.MediumArgs}} {
		for _, name := range order {
			p := ps[name]
			b.Run(tc.name+"/"+name, func(b *testing.B) {
				b.SetBytes(int64(len(tc.args)))
				b.ReportAllocs()
				for b.Loop() {
					out, err := p(ctx, tc.name, tc.args)
					if err != nil {
						b.Fatal(err)
					}
					sinkBytes = out
				}
			})
		}
		b.Run(tc.name+"/direct", func(b *testing.B) {
			b.SetBytes(int64(len(tc.args)))
			b.ReportAllocs()
			switch tc.name {
			case "small":
				var in tools.SmallInput
				if err := json.Unmarshal(tc.args, &in); err != nil {
					b.Fatal(err)
				}
				var tool tools.SmallTool
				for b.Loop() {
					out, err := tool.Call(ctx, in)
					if err != nil {
						b.Fatal(err)
					}
					sinkInt = out.Limit
				}
			case "medium":
				var in tools.MediumInput
				if err := json.Unmarshal(tc.args, &in); err != nil {
					b.Fatal(err)
				}
				var tool tools.MediumTool
				for b.Loop() {
					out, err := tool.Call(ctx, in)
					if err != nil {
						b.Fatal(err)
					}
					sinkInt = out.Lines
				}
			}
		})
	}
}

// BenchmarkDecode isolates decoding and validation: toolgen's generated
// decoder (through Check, which runs the decoder and nothing else) against
// easyjson's decoder with the hand-written checks.
func BenchmarkDecode(b *testing.B) {
	reg, err := generated.New([]generated.Tools{toolstools.Tools{}})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		args []byte
	}{{"small", tools.SmallArgs}, {"medium", tools.MediumArgs}} {
		b.Run(tc.name+"/toolgen", func(b *testing.B) {
			b.SetBytes(int64(len(tc.args)))
			b.ReportAllocs()
			for b.Loop() {
				if err := reg.Check(ctx, tc.name, tc.args); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(tc.name+"/easyjson", func(b *testing.B) {
			b.SetBytes(int64(len(tc.args)))
			b.ReportAllocs()
			for b.Loop() {
				l := jlexer.Lexer{Data: tc.args}
				var err error
				if tc.name == "small" {
					var in easy.SmallInput
					in.UnmarshalEasyJSON(&l)
					if err = l.Error(); err == nil {
						err = in.Check()
					}
				} else {
					var in easy.MediumInput
					in.UnmarshalEasyJSON(&l)
					if err = l.Error(); err == nil {
						err = in.Check()
					}
				}
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
