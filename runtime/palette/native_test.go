package palette_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/palette"
	"github.com/toolgen-go/toolgen/runtime/provider"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/runtime/toolimpl"
)

// deferRegistry is a registry with two deferred tools in a described
// group, one of them mutating, and one tool that is not deferred.
func deferRegistry(t *testing.T) tool.Registry {
	t.Helper()
	in := []byte(tool.NoInputSchema)
	reg, err := toolimpl.NewRegistry([]*tool.Spec{
		{Name: "crm_find", Kind: tool.KindRead, ReadOnly: true, Group: "crm", GroupDescription: "Customer records.", Defer: true, Description: "Finds a customer.", InputSchema: in},
		{Name: "crm_merge", Kind: tool.KindAction, Group: "crm", GroupDescription: "Customer records.", Defer: true, Description: "Merges two customers.", InputSchema: in},
		{Name: "crm_stats", Kind: tool.KindRead, ReadOnly: true, Group: "crm", GroupDescription: "Customer records.", Description: "Counts customers.", InputSchema: in},
		{Name: "notes_get", Kind: tool.KindRead, ReadOnly: true, Group: "notes", Description: "Reads a note.", InputSchema: in},
	}, nil, func(_ context.Context, _ int, _ toolimpl.Mode, in *codec.Decoder, out *codec.Encoder) (toolimpl.Output, error) {
		in.Skip()
		out.RawText("ran")
		return toolimpl.OutputText, nil
	}, nil)
	require.NoError(t, err)
	return reg
}

func TestNativeSearchOffersTheCatalogsDeferredTools(t *testing.T) {
	reg := deferRegistry(t)
	svc, err := service.New(reg, nil)
	require.NoError(t, err)
	defs, err := provider.NewDefinitions(reg)
	require.NoError(t, err)

	// request_tools (portable, for Gemini): the deferred tools wait in its
	// catalog.
	portable, err := palette.New(svc, reg.Tools(), palette.Groups("notes"), &palette.Options{Requestable: palette.Groups("crm")})
	require.NoError(t, err)
	assert.Equal(t, []string{"notes_get", "request_tools"}, names(portable.Offer(asAna())))
	_, err = portable.Call(asAna(), "crm_find", nil)
	require.Equal(t, tool.CodeUnknownTool, tool.CodeOf(err))

	// Native search: the deferred ones are offered, for the provider to
	// load when the model searches; request_tools keeps the rest.
	native, err := palette.New(svc, reg.Tools(), palette.Groups("notes"), &palette.Options{Requestable: palette.Groups("crm"), NativeSearch: true})
	require.NoError(t, err)
	offer := native.Offer(asAna())
	assert.Equal(t, []string{"crm_find", "crm_merge", "notes_get", "request_tools"}, names(offer))
	var rt *tool.Spec
	for _, s := range offer {
		if s.Name == palette.RequestTools {
			rt = s
		}
	}
	require.NotNil(t, rt)
	assert.Contains(t, string(rt.InputSchema), `"crm_stats"`)
	assert.NotContains(t, string(rt.InputSchema), `"crm_find"`, "a deferred tool is the provider's search's, not request_tools'")
	res, err := native.Call(asAna(), "crm_find", nil)
	require.NoError(t, err)
	assert.Equal(t, "ran", res.Text())

	// The registry's tools of the offer keep their precomputed bytes, and
	// the search arrays flag the deferred ones.
	sub, err := defs.SubsetWith(offer, provider.NewCache(0))
	require.NoError(t, err)
	search, err := provider.NewSearch(sub, provider.SearchBM25)
	require.NoError(t, err)
	assert.Equal(t, 2, search.Deferred())
	assert.Contains(t, string(search.Anthropic()), `"defer_loading":true`)

	// Read-only: the mutating deferred tool is neither offered nor
	// callable, whatever the provider's search finds.
	ro, err := palette.New(svc, reg.Tools(), palette.Groups("notes"), &palette.Options{Requestable: palette.Groups("crm"), NativeSearch: true, ReadOnly: true})
	require.NoError(t, err)
	assert.Equal(t, []string{"crm_find", "notes_get"}, names(ro.Offer(asAna())))
	_, err = ro.Call(asAna(), "crm_merge", nil)
	require.Equal(t, tool.CodeUnknownTool, tool.CodeOf(err))

	_, err = palette.New(svc, reg.Tools(), palette.Groups("notes"), &palette.Options{NativeSearch: true})
	require.ErrorContains(t, err, "NativeSearch without a Requestable catalog")
	assert.False(t, provider.NativeSearch("gemini"))
}
