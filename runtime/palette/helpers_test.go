package palette_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/runtime/toolimpl"
)

// Tool indexes of the fixture, in name order.
const (
	tARead = iota
	tBWrite
	tCShow
	tDPropose
	tEClock
	tFAct
	nTools
)

// fixtureSpecs is the fixture's table, sorted by name.
func fixtureSpecs() []*tool.Spec {
	in := []byte(`{"type":"object","properties":{"x":{"type":"string"}}}`)
	return []*tool.Spec{
		tARead:    {Name: "a_read", Kind: tool.KindRead, ReadOnly: true, Group: "notes", Package: "ex/notes", Description: "Reads a note.", InputSchema: in},
		tBWrite:   {Name: "b_write", Kind: tool.KindAction, Group: "notes", Package: "ex/notes", Description: "Writes a note.", InputSchema: in},
		tCShow:    {Name: "c_show", Kind: tool.KindDisplay, ReadOnly: true, Group: "ui", Package: "ex/ui", Description: "Shows a note.", InputSchema: in},
		tDPropose: {Name: "d_propose", Kind: tool.KindPropose, Group: "notes", Package: "ex/notes", Description: "Deletes a note.", InputSchema: in},
		tEClock:   {Name: "e_clock", Kind: tool.KindRead, ReadOnly: true, Package: "ex/clock", Description: "Tells the time.", InputSchema: []byte(tool.NoInputSchema)},
		tFAct:     {Name: "f_act", Kind: tool.KindAction, Package: "ex/clock", Description: "Sets the clock.", InputSchema: []byte(tool.NoInputSchema)},
	}
}

// fixture counts what each tool ran; nested, when set, is what a_read
// runs: a call of its own with the context it was given.
type fixture struct {
	runs   [nTools]atomic.Int64
	nested func(ctx context.Context) error
}

func (f *fixture) dispatch(ctx context.Context, i int, mode toolimpl.Mode, in *codec.Decoder, out *codec.Encoder) (toolimpl.Output, error) {
	in.Skip()
	if err := toolimpl.InvalidArguments(in.Err()); err != nil {
		return 0, err
	}
	if mode != toolimpl.ModeCall {
		return 0, nil
	}
	f.runs[i].Add(1)
	if i == tARead && f.nested != nil {
		if err := f.nested(ctx); err != nil {
			out.RawText("nested: " + tool.CodeOf(err).String())
			return toolimpl.OutputText, nil
		}
	}
	out.RawText("ran")
	return toolimpl.OutputText, nil
}

// newFixture returns a fixture, its registry and a call service over it.
func newFixture(t testing.TB) (*fixture, tool.Registry, *service.Service, *service.MemoryStore) {
	t.Helper()
	f := &fixture{}
	reg, err := toolimpl.NewRegistry(fixtureSpecs(), nil, f.dispatch, nil)
	require.NoError(t, err)
	st := service.NewMemoryStore()
	svc, err := service.New(reg, &service.Options{Store: st})
	require.NoError(t, err)
	return f, reg, svc, st
}

var ana = tool.Principal{ID: "ana"}

// asAna returns a context carrying an Invocation for ana.
func asAna() context.Context {
	return tool.WithInvocation(context.Background(), &tool.Invocation{Principal: ana, Conversation: "c1"})
}

// names returns the names of specs.
func names(specs []*tool.Spec) []string {
	out := []string{}
	for _, s := range specs {
		out = append(out, s.Name)
	}
	return out
}
