package palette_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/palette"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// dynamicSpecs are tools a toolkit serves beside the registry
// (group "docs"), as the caller offers them.
func dynamicSpecs() []*tool.Spec {
	in := []byte(`{"type":"object","properties":{"q":{"type":"string"}},"required":["q"],"additionalProperties":false}`)
	return []*tool.Spec{
		{Name: "docs_read", Group: "docs", Kind: tool.KindRead, ReadOnly: true, Description: "Reads a doc.", InputSchema: in},
		{Name: "docs_write", Group: "docs", Kind: tool.KindAction, Description: "Writes a doc.", InputSchema: in},
		{Name: "web_fetch", Group: "web", Kind: tool.KindRead, ReadOnly: true, Description: "Fetches a page.", InputSchema: in},
	}
}

func TestDynamicToolsTheSelectorPicks(t *testing.T) {
	_, reg, _, _ := newFixture(t)
	f := &fakeDC{reg: reg, extra: dynamicSpecs()}
	p, err := palette.New(f, reg.Tools(), palette.Union(palette.Groups("docs"), palette.Names("e_clock")), nil)
	require.NoError(t, err)
	offer := p.Offer(asAna())
	assert.Equal(t, []string{"docs_read", "docs_write", "e_clock"}, names(offer), "the caller's tools outside the registry, picked by the selector, in name order")
	assert.Same(t, f.extra[0], offer[0], "with the caller's own spec")

	res, err := p.Call(asAna(), "docs_write", []byte(`{"q":"x"}`))
	require.NoError(t, err)
	assert.Equal(t, "dynamic ran", res.Text())

	_, err = p.Call(asAna(), "web_fetch", []byte(`{"q":"x"}`))
	assert.Equal(t, tool.CodeUnknownTool, tool.CodeOf(err), "a dynamic tool the selector does not pick")
	assert.Equal(t, []string{`docs_write {"q":"x"}`}, f.calls, "the refused one never reached the caller")
}

func TestDynamicMutatingToolInAReadOnlyPalette(t *testing.T) {
	// A toolkit adds a mutating tool the palette's selector picks
	// to a read-only palette: it is neither offered nor called.
	_, reg, _, _ := newFixture(t)
	f := &fakeDC{reg: reg}
	p, err := palette.New(f, reg.Tools(), palette.Union(palette.Groups("docs"), palette.Names("a_read")), &palette.Options{ReadOnly: true})
	require.NoError(t, err)
	assert.Equal(t, []string{"a_read"}, names(p.Offer(asAna())))

	f.extra = dynamicSpecs() // added after the palette was built and bound
	assert.Equal(t, []string{"a_read", "docs_read"}, names(p.Offer(asAna())), "the mutating docs_write is not offered")
	res, err := p.Call(asAna(), "docs_write", []byte(`{"q":"x"}`))
	assert.Equal(t, tool.CodeUnknownTool, tool.CodeOf(err))
	assert.Contains(t, res.Text(), "(2 tools available)", "the refusal names only the palette's offered tools")
	_, err = p.Call(asAna(), "docs_read", []byte(`{"q":"x"}`))
	require.NoError(t, err)
	assert.Equal(t, []string{`docs_read {"q":"x"}`}, f.calls, "docs_write never reached the caller")
}

func TestToolAdmittedBeforeTheSweepIsRefusedAfterIt(t *testing.T) {
	// request_tools admits a mutating dynamic tool; then the palette is
	// bound read-only: the tool, and request_tools, are gone, and calls
	// to them are refused without reaching the caller.
	_, reg, _, _ := newFixture(t)
	f := &fakeDC{reg: reg, extra: dynamicSpecs()}
	p, err := palette.New(f, reg.Tools(), palette.Names("a_read"), &palette.Options{Requestable: palette.Groups("docs")})
	require.NoError(t, err)
	res, err := p.Call(asAna(), palette.RequestTools, []byte(`{"names":["docs_write"]}`))
	require.NoError(t, err)
	assert.JSONEq(t, `{"admitted":["docs_write"],"rejected":[]}`, res.Text())
	assert.Equal(t, []string{"a_read", "docs_write", "request_tools"}, names(p.Offer(asAna())))

	assert.Equal(t, []string{palette.RequestTools}, p.BindReadOnly(), "request_tools is swept, named")
	assert.Equal(t, []string{"a_read"}, names(p.Offer(asAna())))
	_, err = p.Call(asAna(), "docs_write", []byte(`{"q":"x"}`))
	assert.Equal(t, tool.CodeUnknownTool, tool.CodeOf(err))
	_, err = p.Call(asAna(), palette.RequestTools, []byte(`{"names":["docs_read"]}`))
	assert.Equal(t, tool.CodeUnknownTool, tool.CodeOf(err))
	assert.Empty(t, f.calls)
	assert.Len(t, f.dynamic, 1, "only the first request reached the caller")
}

func TestRequestToolsRacingTheSweep(t *testing.T) {
	// The palette is bound read-only while a request_tools call, begun
	// before, is under way (its context unmarked): admission judges the
	// palette as it is now and refuses the mutating tool, naming why.
	_, reg, _, _ := newFixture(t)
	f := &fakeDC{reg: reg, extra: dynamicSpecs()}
	p, err := palette.New(f, reg.Tools(), palette.Names("a_read"), &palette.Options{Requestable: palette.Groups("docs")})
	require.NoError(t, err)
	f.before = func() { p.BindReadOnly() }
	res, err := p.Call(asAna(), palette.RequestTools, []byte(`{"names":["docs_write","docs_read"]}`))
	require.NoError(t, err)
	assert.Equal(t, `{"admitted":["docs_read"],"rejected":[{"name":"docs_write","reason":"read-only palette: tool mutates"}]}`, res.Text())
	assert.Equal(t, []string{"a_read", "docs_read"}, names(p.Offer(asAna())))
}
