package palette_test

import (
	"context"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/internal/toolerr"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/runtime/toolimpl"
)

// dynCall is one CallDynamic the fake caller received.
type dynCall struct {
	d        tool.Dynamic
	args     string
	readOnly bool
}

// fakeDC is a tool.Recorder over a registry, standing in for the call
// service: it offers the registry's tools and, as a toolkit
// would, the extra specs; it notes every call and runs a Dynamic as the
// service does (refusing a mutating one under the read-only mark), and
// does not otherwise filter: the palette must. It records no refusal and
// no offer (record_test.go has the call service record them).
type fakeDC struct {
	reg   tool.Registry
	extra []*tool.Spec    // sorted by name
	hide  map[string]bool // tools not offered (as a policy would withhold them)
	// before, when set, runs in CallDynamic before the Dynamic does.
	before func()

	offers atomic.Int64 // calls of Offer

	mu      sync.Mutex
	calls   []string // name and args of each Call
	dynamic []dynCall
}

func (f *fakeDC) Offer(context.Context) []*tool.Spec {
	f.offers.Add(1)
	out := slices.Clone(f.reg.Tools())
	out = append(out, f.extra...)
	slices.SortFunc(out, func(a, b *tool.Spec) int { return strings.Compare(a.Name, b.Name) })
	return slices.DeleteFunc(out, func(s *tool.Spec) bool { return f.hide[s.Name] })
}

func (f *fakeDC) Call(ctx context.Context, name string, args []byte) (tool.Result, error) {
	f.mu.Lock()
	f.calls = append(f.calls, name+" "+string(args))
	f.mu.Unlock()
	for _, s := range f.extra {
		if s.Name == name {
			return tool.Result{Content: []byte("dynamic ran")}, nil
		}
	}
	return f.reg.Call(ctx, name, args)
}

func (f *fakeDC) CallDynamic(ctx context.Context, d tool.Dynamic, args []byte) (tool.Result, error) {
	f.mu.Lock()
	f.dynamic = append(f.dynamic, dynCall{d: d, args: string(args), readOnly: tool.IsReadOnly(ctx)})
	f.mu.Unlock()
	if f.before != nil {
		f.before()
	}
	if tool.IsReadOnly(ctx) && !d.Spec().ReadOnly {
		e := toolerr.UnknownTool(nil, d.Spec().Name)
		return tool.Result{Content: []byte(e.Message), IsError: true}, e
	}
	return d.Call(ctx, args)
}

func (f *fakeDC) RecordRefusal(context.Context, string, *tool.Error) {}

func (f *fakeDC) RecordOffer(context.Context, []*tool.Spec) {}

var _ tool.Recorder = (*fakeDC)(nil)

// searchSchema is the input schema of the search tool of bindRegistry.
const searchSchema = `{"type":"object","properties":{"notebook":{"type":"string","description":"The notebook."},"query":{"type":"string"},"limit":{"type":"integer"}},"required":["notebook","query"],"additionalProperties":false}`

// bindRegistry returns a registry whose "search" tool decodes its
// arguments as generated code does (required notebook and query, an
// optional limit, nothing else) and answers with what it decoded, and
// whose "clock" tool takes no arguments.
func bindRegistry(t testing.TB) tool.Registry {
	t.Helper()
	reg, err := toolimpl.NewRegistry([]*tool.Spec{
		{Name: "clock", Kind: tool.KindRead, ReadOnly: true, Description: "Tells the time.", InputSchema: []byte(tool.NoInputSchema)},
		{Name: "search", Kind: tool.KindRead, ReadOnly: true, Description: "Searches notes.", InputSchema: []byte(searchSchema)},
	}, nil, func(_ context.Context, i int, mode toolimpl.Mode, in *codec.Decoder, out *codec.Encoder) (toolimpl.Output, error) {
		if i == 0 {
			in.Skip()
			out.RawText("noon")
			return toolimpl.OutputText, nil
		}
		var notebook, query string
		var seenN, seenQ, seenL bool
		if in.Object("object") {
			for {
				k, ok := in.Key()
				if !ok {
					break
				}
				switch string(k) {
				case "notebook":
					if in.Member("notebook", seenN) {
						notebook, _ = in.String("string")
					}
					seenN = true
					in.Pop()
				case "query":
					if in.Member("query", seenQ) {
						query, _ = in.String("string")
					}
					seenQ = true
					in.Pop()
				case "limit":
					if in.Member("limit", seenL) {
						in.Int("integer", 64)
					}
					seenL = true
					in.Pop()
				default:
					in.Unknown(k)
				}
			}
			if !seenN {
				in.Missing("notebook")
			}
			if !seenQ {
				in.Missing("query")
			}
		}
		in.End()
		if err := toolimpl.InvalidArguments(in.Err()); err != nil {
			return 0, err
		}
		if mode != toolimpl.ModeCall {
			return 0, nil
		}
		out.RawText(notebook + ":" + query)
		return toolimpl.OutputText, nil
	}, nil)
	require.NoError(t, err)
	return reg
}
