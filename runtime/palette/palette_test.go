package palette_test

import (
	"context"
	"reflect"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/palette"
	"github.com/toolgen-go/toolgen/runtime/provider"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

func TestSelectors(t *testing.T) {
	_, reg, svc, _ := newFixture(t)
	cases := []struct {
		name string
		sel  palette.Selector
		want []string
	}{
		{"all", palette.All(), []string{"a_read", "b_write", "c_show", "d_propose", "e_clock", "f_act"}},
		{"names", palette.Names("f_act", "a_read", "nope"), []string{"a_read", "f_act"}},
		{"groups", palette.Groups("notes"), []string{"a_read", "b_write", "d_propose"}},
		{"no group is in none", palette.Groups(""), []string{}},
		{"packages", palette.Packages("ex/clock", "ex/ui"), []string{"c_show", "e_clock", "f_act"}},
		{"kinds", palette.Kinds(tool.KindRead, tool.KindPropose), []string{"a_read", "d_propose", "e_clock"}},
		{"readonly", palette.ReadOnly(), []string{"a_read", "c_show", "e_clock"}},
		{"union", palette.Union(palette.Groups("ui"), palette.Names("f_act")), []string{"c_show", "f_act"}},
		{"empty union", palette.Union(), []string{}},
		{"minus", palette.Minus(palette.Groups("notes"), palette.Kinds(tool.KindPropose)), []string{"a_read", "b_write"}},
		{"minus readonly", palette.Minus(palette.All(), palette.ReadOnly()), []string{"b_write", "d_propose", "f_act"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := palette.New(svc, reg.Tools(), c.sel, nil)
			require.NoError(t, err)
			assert.Equal(t, c.want, names(p.Tools()))
			assert.Equal(t, c.want, names(p.Offer(asAna())), "the service offers ana everything")
		})
	}
}

func TestNewRefuses(t *testing.T) {
	_, reg, svc, _ := newFixture(t)
	_, err := palette.New(nil, reg.Tools(), palette.All(), nil)
	assert.ErrorContains(t, err, "nil caller")
	_, err = palette.New(svc, reg.Tools(), nil, nil)
	assert.ErrorContains(t, err, "nil selector")
	reversed := slices.Clone(reg.Tools())
	slices.Reverse(reversed)
	_, err = palette.New(svc, reversed, palette.All(), nil)
	assert.ErrorContains(t, err, "not sorted")
}

func TestOfferIsTheRegistrysOrderAndPrecomputedBytes(t *testing.T) {
	_, reg, svc, _ := newFixture(t)
	defs, err := provider.NewDefinitions(reg)
	require.NoError(t, err)
	p, err := palette.New(svc, reg.Tools(), palette.Union(palette.Names("f_act"), palette.Groups("ui"), palette.Names("a_read")), nil)
	require.NoError(t, err)
	offer := p.Offer(asAna())
	require.Equal(t, []string{"a_read", "c_show", "f_act"}, names(offer), "sorted as the registry is, whatever the selector's order")
	for _, spec := range offer {
		own, ok := reg.Lookup(spec.Name)
		require.True(t, ok)
		assert.Same(t, own, spec, "the registry's own spec")
	}
	sub, err := defs.Subset(offer)
	require.NoError(t, err)
	var anthropic, gemini []byte
	for i, name := range names(offer) {
		tl, ok := defs.Lookup(name)
		require.True(t, ok)
		if i > 0 {
			anthropic, gemini = append(anthropic, ','), append(gemini, ',')
		}
		anthropic, gemini = append(anthropic, tl.Anthropic.JSON...), append(gemini, tl.Gemini.JSON...)
	}
	assert.Equal(t, "["+string(anthropic)+"]", string(sub.Anthropic()), "the precomputed definitions, byte for byte")
	assert.Equal(t, `[{"functionDeclarations":[`+string(gemini)+`]}]`, string(sub.Gemini()))
}

func TestCallOutsideThePaletteIsAnUnknownTool(t *testing.T) {
	f, reg, svc, st := newFixture(t)
	p, err := palette.New(svc, reg.Tools(), palette.Names("a_read", "e_clock"), nil)
	require.NoError(t, err)
	res, err := p.Call(asAna(), "f_act", nil)
	assert.Equal(t, tool.CodeUnknownTool, tool.CodeOf(err))
	assert.True(t, res.IsError)
	assert.Contains(t, res.Text(), "(2 tools available)", "names only the palette's tools")
	assert.Zero(t, f.runs[tFAct].Load())
	recs, err := st.Records(context.Background(), service.Query{})
	require.NoError(t, err)
	require.Len(t, recs, 1, "the service records the palette's refusal; the call never reached it")
	assert.Equal(t, service.EventRefusal, recs[0].Event)

	res, err = p.Call(asAna(), "a_read", nil)
	require.NoError(t, err)
	assert.Equal(t, "ran", res.Text())

	// A palette tool the service does not offer: refused by the service,
	// answered naming the palette's tools only.
	p2, err := palette.New(service.As(svc, &tool.Invocation{}), reg.Tools(), palette.Names("a_read", "e_clock"), nil)
	require.NoError(t, err)
	_, err = p2.Call(context.Background(), "a_read", nil)
	var te *tool.Error
	require.ErrorAs(t, err, &te)
	assert.Equal(t, tool.CodeUnknownTool, te.Code)
	assert.Contains(t, te.Message, "(no tools available)")
}

func TestRequestToolsWidens(t *testing.T) {
	f, reg, svc, _ := newFixture(t)
	p, err := palette.New(svc, reg.Tools(), palette.Names("e_clock"), nil)
	require.NoError(t, err)
	require.NoError(t, p.Add("b_write", "a_read"))
	assert.Equal(t, []string{"a_read", "b_write", "e_clock"}, names(p.Offer(asAna())))
	_, err = p.Call(asAna(), "b_write", nil)
	require.NoError(t, err)
	assert.EqualValues(t, 1, f.runs[tBWrite].Load())
	assert.ErrorContains(t, p.Add("nope", "f_act"), `no tool "nope"`)
	assert.NotContains(t, names(p.Tools()), "f_act", "all or nothing")
}

func TestReadOnlySweepNamesEachRemoval(t *testing.T) {
	_, reg, svc, _ := newFixture(t)
	p, err := palette.New(svc, reg.Tools(), palette.Union(palette.Groups("notes"), palette.Packages("ex/clock")), &palette.Options{ReadOnly: true})
	require.NoError(t, err)
	assert.True(t, p.ReadOnly())
	assert.Equal(t, []string{"b_write", "d_propose", "f_act"}, p.Swept())
	assert.Equal(t, []string{"a_read", "e_clock"}, names(p.Offer(asAna())))

	q, err := palette.New(svc, reg.Tools(), palette.All(), nil)
	require.NoError(t, err)
	assert.False(t, q.ReadOnly())
	assert.Empty(t, q.Swept())
	assert.Equal(t, []string{"b_write", "d_propose", "f_act"}, q.BindReadOnly(), "each removal named")
	assert.Equal(t, []string{"a_read", "c_show", "e_clock"}, names(q.Tools()))
	assert.Equal(t, []string{"b_write", "d_propose", "f_act"}, q.Swept())
}

func TestReadOnlyIsALatch(t *testing.T) {
	f, reg, svc, _ := newFixture(t)
	p, err := palette.New(svc, reg.Tools(), palette.Names("a_read"), &palette.Options{ReadOnly: true})
	require.NoError(t, err)

	err = p.Add("e_clock", "f_act")
	require.Error(t, err)
	assert.ErrorContains(t, err, `"f_act" is mutating`, "the refusal names the tool")
	assert.Equal(t, []string{"a_read"}, names(p.Tools()), "nothing added")
	require.NoError(t, p.Add("e_clock"), "a read-only tool may be added")
	assert.Nil(t, p.BindReadOnly(), "binding again sweeps nothing new")
	assert.True(t, p.ReadOnly())

	_, err = p.Call(asAna(), "f_act", nil)
	assert.Equal(t, tool.CodeUnknownTool, tool.CodeOf(err))
	assert.Zero(t, f.runs[tFAct].Load())

	// No method undoes the binding: the exported methods are these, and
	// none of them sets it false.
	var methods []string
	for m := range reflect.TypeFor[*palette.Palette]().Methods() {
		methods = append(methods, m.Name)
	}
	assert.Equal(t, []string{"Add", "Admitted", "BindReadOnly", "Call", "Offer", "ReadOnly", "Subscribe", "Swept", "Tools"}, methods)
	assert.Equal(t, []string{"ReadOnly", "Bind", "Requestable", "NativeSearch", "Skills", "RequestableSkills", "Admitted"}, fieldNames(reflect.TypeFor[palette.Options]()),
		"the only read-only option binds; none unbinds")
}

func fieldNames(t reflect.Type) []string {
	var out []string
	for f := range t.Fields() {
		out = append(out, f.Name)
	}
	return out
}

func TestReadOnlyMarkReachesNestedCalls(t *testing.T) {
	// A tool of a read-only palette calls the service directly with the
	// context it was given: the service refuses a mutating tool.
	f, reg, svc, st := newFixture(t)
	f.nested = func(ctx context.Context) error {
		_, err := svc.Call(ctx, "f_act", nil)
		return err
	}
	p, err := palette.New(svc, reg.Tools(), palette.Names("a_read"), &palette.Options{ReadOnly: true})
	require.NoError(t, err)
	res, err := p.Call(asAna(), "a_read", nil)
	require.NoError(t, err)
	assert.Equal(t, "nested: unknown_tool", res.Text())
	assert.Zero(t, f.runs[tFAct].Load())
	recs, err := st.Records(context.Background(), service.Query{Tool: "f_act"})
	require.NoError(t, err)
	require.Len(t, recs, 1)
	assert.Equal(t, service.EventRefusal, recs[0].Event)
}

func TestConcurrentAddAndOffer(t *testing.T) {
	_, reg, svc, _ := newFixture(t)
	p, err := palette.New(svc, reg.Tools(), palette.Names("a_read"), nil)
	require.NoError(t, err)
	var wg sync.WaitGroup
	for _, name := range []string{"b_write", "c_show", "e_clock", "f_act"} {
		wg.Go(func() { assert.NoError(t, p.Add(name)) })
		wg.Go(func() { assert.Contains(t, names(p.Offer(asAna())), "a_read") })
	}
	wg.Wait()
	assert.Equal(t, []string{"a_read", "b_write", "c_show", "e_clock", "f_act"}, names(p.Offer(asAna())))
}

// spy is a caller that notes whether the contexts it is handed are marked
// read-only, and offers every tool of the fixture, as a toolkit
// might.
type spy struct {
	tools        []*tool.Spec
	offerRO, ran []bool
}

func (s *spy) Offer(ctx context.Context) []*tool.Spec {
	s.offerRO = append(s.offerRO, tool.IsReadOnly(ctx))
	return s.tools
}

func (s *spy) Call(ctx context.Context, _ string, _ []byte) (tool.Result, error) {
	s.ran = append(s.ran, tool.IsReadOnly(ctx))
	return tool.Result{Content: []byte("ran")}, nil
}

func TestReadOnlyPaletteMarksWhatItPassesOn(t *testing.T) {
	_, reg, _, _ := newFixture(t)
	s := &spy{tools: reg.Tools()}
	p, err := palette.New(s, reg.Tools(), palette.All(), nil)
	require.NoError(t, err)
	p.Offer(asAna())
	_, err = p.Call(asAna(), "b_write", nil)
	require.NoError(t, err)
	assert.Equal(t, []bool{false}, s.offerRO)
	assert.Equal(t, []bool{false}, s.ran)

	p.BindReadOnly()
	assert.Equal(t, []string{"a_read", "c_show", "e_clock"}, names(p.Offer(asAna())), "a caller offering mutating tools is filtered")
	_, err = p.Call(asAna(), "a_read", nil)
	require.NoError(t, err)
	_, err = p.Call(asAna(), "b_write", nil)
	assert.Equal(t, tool.CodeUnknownTool, tool.CodeOf(err))
	assert.Equal(t, []bool{false, true, true}, s.offerRO, "the offer is asked for with the mark (the refusal asks for it too)")
	assert.Equal(t, []bool{false, true}, s.ran, "the call is passed on with the mark; the mutating one is not passed on")
}

func TestServiceRefusesMutatingToolsUnderTheMark(t *testing.T) {
	// What a caller that bypasses the palette meets with a marked context
	// (a host's direct call, a tool widened in by other means): the
	// service refuses and records it.
	f, _, svc, st := newFixture(t)
	_, err := svc.Call(tool.WithReadOnly(asAna()), "b_write", nil)
	assert.Equal(t, tool.CodeUnknownTool, tool.CodeOf(err))
	assert.Zero(t, f.runs[tBWrite].Load())
	recs, err := st.Records(context.Background(), service.Query{})
	require.NoError(t, err)
	require.Len(t, recs, 1)
	assert.Equal(t, service.EventRefusal, recs[0].Event)
}
