package toolimpl_test

import (
	"context"
	"reflect"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/runtime/toolimpl"
)

// Generated packages contain this line; it must compile.
const _ = toolimpl.SupportPackageIsVersion9

// proposeRegistry returns a registry, built as generated code builds one,
// of one propose tool, notes_delete, that takes an integer id and counts
// its runs.
func proposeRegistry(t *testing.T, runs *atomic.Int32) tool.Registry {
	t.Helper()
	reg, err := toolimpl.NewRegistry([]*tool.Spec{{
		Name:        "notes_delete",
		Kind:        tool.KindPropose,
		InputSchema: []byte(`{"type":"object","properties":{"id":{"type":"integer"}},"required":["id"],"additionalProperties":false}`),
	}}, nil, func(_ context.Context, _ int, mode toolimpl.Mode, in *toolimpl.Decoder, out *toolimpl.Encoder) (toolimpl.Output, error) {
		seen := false
		if in.Object("object") {
			for key, ok := in.Key(); ok; key, ok = in.Key() {
				if string(key) == "id" {
					in.Int("integer", 64)
					seen = true
				} else {
					in.Unknown(key)
				}
			}
			if !seen {
				in.Missing("id")
			}
		}
		in.End()
		if err := toolimpl.InvalidArguments(in.Err()); err != nil || mode != toolimpl.ModeCall {
			return 0, err
		}
		runs.Add(1)
		out.String("deleted")
		return toolimpl.OutputText, nil
	}, nil)
	require.NoError(t, err)
	return reg
}

// TestHostCannotRunAProposeTool: a host holding the registry a generated
// package's New returns has no way to run a propose tool. Call and
// AppendCall validate its arguments and run nothing, and so do those of a
// tool.Handle on it; the registry has no method beyond tool.Registry's and
// NewHandle (tool.NewHandle's way in), and the handle none beyond
// tool.Handle's, so that no type assertion finds a door (RunProposed,
// LogArgs and SelfOffered are functions of an internal package, which
// only the call service imports); and through the service it runs once a
// person has confirmed it, and only then.
func TestHostCannotRunAProposeTool(t *testing.T) {
	t.Parallel()
	var runs atomic.Int32
	reg := proposeRegistry(t, &runs)
	ctx := t.Context()
	args := []byte(`{"id":7}`)

	h := tool.NewHandle(reg)
	for name, call := range map[string]func() (tool.Result, error){
		"Call":              func() (tool.Result, error) { return reg.Call(ctx, "notes_delete", args) },
		"AppendCall":        func() (tool.Result, error) { return reg.AppendCall(ctx, nil, "notes_delete", args) },
		"Caller":            func() (tool.Result, error) { return tool.Caller(reg).Call(ctx, "notes_delete", args) },
		"Handle.Call":       func() (tool.Result, error) { return h.Call(context.Background(), "notes_delete", args) },
		"Handle.AppendCall": func() (tool.Result, error) { return h.AppendCall(ctx, nil, "notes_delete", args) },
	} {
		res, err := call()
		assert.Equal(t, tool.CodeNeedsConfirmation, tool.CodeOf(err), name)
		assert.True(t, res.IsError, name)
	}
	_, err := reg.Call(ctx, "notes_delete", []byte(`{"id":"seven"}`))
	assert.Equal(t, tool.CodeInvalidArguments, tool.CodeOf(err), "the arguments are validated, so the model can correct them")
	require.NoError(t, reg.Check(ctx, "notes_delete", args))

	require.NoError(t, h.Check(ctx, "notes_delete", args))

	want, got := methods(reflect.TypeFor[tool.Registry]()), methods(reflect.TypeOf(reg))
	want = append(want, "NewHandle")
	slices.Sort(want)
	assert.Equal(t, want, got, "the registry's exported methods are tool.Registry's and NewHandle, and no more")
	assert.Equal(t, methods(reflect.TypeFor[tool.Handle]()), methods(reflect.TypeOf(h)), "the handle's are tool.Handle's")
	_, door := reg.(interface {
		RunProposed(context.Context, string, []byte) (tool.Result, error)
	})
	assert.False(t, door)
	assert.Zero(t, runs.Load(), "nothing a host can call ran the tool")

	svc, err := service.New(reg, nil)
	require.NoError(t, err)
	ana := tool.Principal{ID: "ana"}
	p, err := svc.Propose(tool.WithInvocation(ctx, &tool.Invocation{Principal: ana}), "notes_delete", args)
	require.NoError(t, err)
	assert.Zero(t, runs.Load(), "a proposal runs nothing")
	conf, err := svc.Confirm(ctx, p.ID, ana)
	require.NoError(t, err)
	assert.Equal(t, `"deleted"`, conf.Result.Text())
	assert.Equal(t, int32(1), runs.Load(), "a person's confirmation runs it, once")
}

// wrapped is a tool.Registry a host wrote around the generated one.
type wrapped struct{ tool.Registry }

// TestServiceServesOnlyAGeneratedRegistry: the service refuses a
// tool.Registry that is not one a generated package built, rather than
// serve one whose propose tools it could never run.
func TestServiceServesOnlyAGeneratedRegistry(t *testing.T) {
	t.Parallel()
	var runs atomic.Int32
	_, err := service.New(wrapped{proposeRegistry(t, &runs)}, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "not one a generated package's New returned")
	_, err = service.New(nil, nil)
	require.Error(t, err)
}

// methods returns the names of t's exported methods, sorted.
func methods(t reflect.Type) []string {
	var names []string
	for m := range t.Methods() {
		names = append(names, m.Name)
	}
	slices.Sort(names)
	return names
}
