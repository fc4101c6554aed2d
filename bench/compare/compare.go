// Package compare holds the call paths the benchmarks of the bench module
// set side by side: every path takes a tool name and JSON arguments,
// decodes and validates them, runs the tool's logic from ../tools and
// returns the encoded output. Only the toolgen path lives in the library;
// the others exist here so that none of their modules becomes a
// dependency of github.com/toolgen-go/toolgen.
package compare

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mailru/easyjson/jlexer"
	"github.com/mailru/easyjson/jwriter"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/toolgen-go/toolgen/bench/easy"
	"github.com/toolgen-go/toolgen/bench/generated"
	"github.com/toolgen-go/toolgen/bench/generated/toolstools"
	"github.com/toolgen-go/toolgen/bench/tools"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// Path runs one tool call: name and JSON arguments in, encoded output out.
// The returned bytes may alias a buffer the Path reuses: they are valid
// until the next call.
type Path func(ctx context.Context, name string, args []byte) ([]byte, error)

// ErrUnknownTool is returned by the paths that look tools up themselves.
var ErrUnknownTool = errors.New("unknown tool")

// Toolgen returns the generated registry's AppendCall as a Path, with the
// output encoded into one buffer reused from call to call (as the easyjson
// path reuses its writer's).
func Toolgen() (Path, error) {
	reg, err := generated.New([]generated.Tools{toolstools.Tools{}})
	if err != nil {
		return nil, fmt.Errorf("toolgen path: %w", err)
	}
	var buf []byte
	return func(ctx context.Context, name string, args []byte) ([]byte, error) {
		res, err := reg.AppendCall(ctx, buf[:0], name, args)
		buf = res.Content
		return res.Content, err
	}, nil
}

// ToolgenHandle is Toolgen through a tool.Handle on the generated
// registry: AppendCall on codecs the handle owns (one goroutine at a
// time, as the easyjson path's writer is), without the registry's pool.
func ToolgenHandle() (Path, error) {
	reg, err := generated.New([]generated.Tools{toolstools.Tools{}})
	if err != nil {
		return nil, fmt.Errorf("toolgen handle path: %w", err)
	}
	h := tool.NewHandle(reg)
	var buf []byte
	return func(ctx context.Context, name string, args []byte) ([]byte, error) {
		res, err := h.AppendCall(ctx, buf[:0], name, args)
		buf = res.Content
		return res.Content, err
	}, nil
}

// Service returns the call service's AppendCall over the generated
// registry as a Path: the memory store, a principal in the context, every
// call recorded (started, then finished, with its logged arguments).
func Service() (Path, error) {
	reg, err := generated.New([]generated.Tools{toolstools.Tools{}})
	if err != nil {
		return nil, fmt.Errorf("service path: %w", err)
	}
	svc, err := service.New(reg, nil)
	if err != nil {
		return nil, fmt.Errorf("service path: %w", err)
	}
	inv := &tool.Invocation{Principal: tool.Principal{ID: "bench"}, Conversation: "c"}
	var buf []byte
	return func(ctx context.Context, name string, args []byte) ([]byte, error) {
		res, err := svc.AppendCall(tool.WithInvocation(ctx, inv), buf[:0], name, args)
		buf = res.Content
		return res.Content, err
	}, nil
}

// ToolgenCall returns the generated registry's Call as a Path: the output
// is copied into a new slice the caller owns, so the path is safe for
// concurrent use as it is.
func ToolgenCall() (Path, error) {
	reg, err := generated.New([]generated.Tools{toolstools.Tools{}})
	if err != nil {
		return nil, fmt.Errorf("toolgen call path: %w", err)
	}
	return func(ctx context.Context, name string, args []byte) ([]byte, error) {
		res, err := reg.Call(ctx, name, args)
		return res.Content, err
	}, nil
}

// EncodingJSON decodes with encoding/json.Unmarshal, validates nothing and
// encodes with json.Marshal: the floor of what plain encoding/json costs.
func EncodingJSON() Path {
	return func(ctx context.Context, name string, args []byte) ([]byte, error) {
		switch name {
		case "small":
			var in tools.SmallInput
			if err := json.Unmarshal(args, &in); err != nil {
				return nil, err
			}
			return json.Marshal(tools.Small(in))
		case "medium":
			var in tools.MediumInput
			if err := json.Unmarshal(args, &in); err != nil {
				return nil, err
			}
			return json.Marshal(tools.Medium(&in))
		}
		return nil, ErrUnknownTool
	}
}

// JSONSchema validates the arguments against the published input schema
// with santhosh-tekuri/jsonschema (compiled once), then decodes them with
// encoding/json and encodes the output with json.Marshal: runtime schema
// validation as a reflection-based server does it.
func JSONSchema() (Path, error) {
	c := jsonschema.NewCompiler()
	reg, err := generated.New([]generated.Tools{toolstools.Tools{}})
	if err != nil {
		return nil, fmt.Errorf("jsonschema path: %w", err)
	}
	schemas := map[string]*jsonschema.Schema{}
	for _, sp := range reg.Tools() {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(sp.InputSchema))
		if err != nil {
			return nil, fmt.Errorf("jsonschema path: schema of %s: %w", sp.Name, err)
		}
		url := "mem:///" + sp.Name + ".json"
		if err := c.AddResource(url, doc); err != nil {
			return nil, fmt.Errorf("jsonschema path: schema of %s: %w", sp.Name, err)
		}
		if schemas[sp.Name], err = c.Compile(url); err != nil {
			return nil, fmt.Errorf("jsonschema path: compile schema of %s: %w", sp.Name, err)
		}
	}
	c.AssertFormat()
	return func(ctx context.Context, name string, args []byte) ([]byte, error) {
		sch, ok := schemas[name]
		if !ok {
			return nil, ErrUnknownTool
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(args))
		if err != nil {
			return nil, err
		}
		if err := sch.Validate(doc); err != nil {
			return nil, err
		}
		switch name {
		case "small":
			var in tools.SmallInput
			if err := json.Unmarshal(args, &in); err != nil {
				return nil, err
			}
			return json.Marshal(tools.Small(in))
		default: // "medium"
			var in tools.MediumInput
			if err := json.Unmarshal(args, &in); err != nil {
				return nil, err
			}
			return json.Marshal(tools.Medium(&in))
		}
	}, nil
}

// EasyJSON decodes with the easyjson-generated decoders of package easy
// (unknown fields and missing required fields refused), applies the
// hand-written checks and encodes the output with easyjson, reusing one
// writer buffer.
func EasyJSON() Path {
	var w jwriter.Writer
	return func(ctx context.Context, name string, args []byte) ([]byte, error) {
		w.Buffer.Buf = w.Buffer.Buf[:0]
		w.Error = nil
		l := jlexer.Lexer{Data: args}
		switch name {
		case "small":
			var in easy.SmallInput
			in.UnmarshalEasyJSON(&l)
			if err := l.Error(); err != nil {
				return nil, err
			}
			if err := in.Check(); err != nil {
				return nil, err
			}
			out := easy.Small(&in)
			out.MarshalEasyJSON(&w)
		case "medium":
			var in easy.MediumInput
			in.UnmarshalEasyJSON(&l)
			if err := l.Error(); err != nil {
				return nil, err
			}
			if err := in.Check(); err != nil {
				return nil, err
			}
			out := easy.Medium(&in)
			out.MarshalEasyJSON(&w)
		default:
			return nil, ErrUnknownTool
		}
		if w.Error != nil {
			return nil, w.Error
		}
		if w.Buffer.Size() == len(w.Buffer.Buf) {
			return w.Buffer.Buf, nil // one chunk: keep it for the next call
		}
		return w.Buffer.BuildBytes(), nil
	}
}
