package want_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	deferred "github.com/toolgen-go/toolgen/cmd/toolgen/internal/gen/testdata/cases/deferred"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gen/testdata/cases/deferred/other"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gen/testdata/cases/deferred/want"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gen/testdata/cases/deferred/want/deferredtools"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gen/testdata/cases/deferred/want/othertools"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gen/testdata/cases/deferred/want/providers"
	"github.com/toolgen-go/toolgen/runtime/provider"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// These tests run the golden output of the deferred case: toolgen's
// internal/gen tests run them with `go test` on this directory.

func registry(t *testing.T) tool.Registry {
	t.Helper()
	reg, err := want.New([]want.Tools{
		deferredtools.Tools{Archive: deferred.Archive{}, Lookup: deferred.Lookup{}},
		othertools.Tools{Ping: other.Ping{}, Purge: other.Purge{}},
	})
	require.NoError(t, err)
	return reg
}

// TestSpecs: the directives reach the specs.
func TestSpecs(t *testing.T) {
	reg := registry(t)
	for _, c := range []struct {
		name, group, desc string
		deferred          bool
	}{
		{"archive", "deferred", "Tools of the golden case: look things up and archive them.", true},
		{"lookup", "deferred", "Tools of the golden case: look things up and archive them.", false},
		{"ping", "plain", "Tools that are never deferred.", false},
		{"purge", "deferred", "Tools of the golden case: look things up and archive them.", true},
	} {
		spec, ok := reg.Lookup(c.name)
		require.True(t, ok, c.name)
		assert.Equal(t, c.group, spec.Group, c.name)
		assert.Equal(t, c.desc, spec.GroupDescription, c.name)
		assert.Equal(t, c.deferred, spec.Defer, c.name)
	}
}

// TestPrecomputedSearch: the generated definitions of the deferred tools
// are the ones the runtime computes, and give the native search arrays.
func TestPrecomputedSearch(t *testing.T) {
	reg := registry(t)
	defs, err := providers.NewDefinitions(reg)
	require.NoError(t, err)
	runtimeDefs, err := provider.NewDefinitions(reg)
	require.NoError(t, err)
	for _, tl := range defs.Tools() {
		rt, _ := runtimeDefs.Lookup(tl.Spec.Name)
		assert.Equal(t, rt.Deferred, tl.Deferred, tl.Spec.Name)
		assert.Equal(t, tl.Spec.Defer, tl.Deferred != nil, tl.Spec.Name)
	}
	search, err := provider.NewSearch(defs, provider.SearchRegex)
	require.NoError(t, err)
	assert.Equal(t, 2, search.Deferred())
	rs, err := provider.NewSearch(runtimeDefs, provider.SearchRegex)
	require.NoError(t, err)
	assert.Equal(t, string(rs.OpenAIResponses()), string(search.OpenAIResponses()))
	assert.Equal(t, string(rs.Anthropic()), string(search.Anthropic()))

	archive, _ := defs.Lookup("archive")
	purge, _ := defs.Lookup("purge")
	lookup, _ := defs.Lookup("lookup")
	ping, _ := defs.Lookup("ping")
	assert.Equal(t, "["+string(lookup.OpenAIResponses.JSON)+","+string(ping.OpenAIResponses.JSON)+
		`,{"type":"namespace","name":"deferred","description":"Tools of the golden case: look things up and archive them.","tools":[`+
		string(archive.Deferred.OpenAIResponses)+","+string(purge.Deferred.OpenAIResponses)+`]},{"type":"tool_search"}]`,
		string(search.OpenAIResponses()))
	assert.Equal(t, "["+string(archive.Deferred.Anthropic)+","+string(lookup.Anthropic.JSON)+","+string(ping.Anthropic.JSON)+","+
		string(purge.Deferred.Anthropic)+`,{"type":"tool_search_tool_regex_20251119","name":"tool_search_tool_regex"}]`,
		string(search.Anthropic()))
}
