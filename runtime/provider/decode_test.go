package provider_test

import (
	"context"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/jsonlex"
	"github.com/toolgen-go/toolgen/runtime/jsontree"
	"github.com/toolgen-go/toolgen/runtime/provider"
)

// TestStrictNullsDecode checks that the arguments of a strict OpenAI call,
// where the model sends null for every optional property it leaves out,
// decode into the same Go values as the arguments without them: for every
// strict sample tool, the two calls give the same result.
func TestStrictNullsDecode(t *testing.T) {
	t.Parallel()
	// The required arguments of each strict sample tool; the test fails if
	// a strict tool is missing here, so none goes untested.
	required := map[string]string{
		"clock_now":     `{}`,
		"clock_sync":    `{}`,
		"clock_wait":    `{"seconds":0.1}`,
		"clock_zones":   `{}`,
		"notes_delete":  `{"id":"n2"}`,
		"notes_get":     `{"id":"n1"}`,
		"notes_outline": `{"id":"n1"}`,
		"notes_render":  `{"id":"n1"}`,
		"notes_search":  `{"query":"go"}`,
		// Run anonymously, notes_share refuses after decoding: both calls
		// must give that refusal, not invalid arguments.
		"notes_share": `{"id":"n1","passphrase":"correct horse"}`,
		"notes_tag":   `{"id":"n1"}`,
	}
	reg := sampleRegistry(t)
	defs, err := provider.NewDefinitions(reg)
	require.NoError(t, err)
	var strict []string
	for _, tl := range defs.Tools() {
		if !tl.OpenAIChat.Strict {
			continue
		}
		strict = append(strict, tl.Spec.Name)
		t.Run(tl.Spec.Name, func(t *testing.T) {
			base, ok := required[tl.Spec.Name]
			require.True(t, ok, "add the required arguments of %s to the table", tl.Spec.Name)
			args, err := jsontree.Parse([]byte(base))
			require.NoError(t, err)
			// Null for every property the strict schema requires but the
			// published one does not.
			def, err := jsontree.Parse(tl.OpenAIChat.JSON)
			require.NoError(t, err)
			published, err := jsontree.Parse(tl.Spec.InputSchema)
			require.NoError(t, err)
			origReq := strs(published.Get("required"))
			for _, name := range strs(def.Get("function").Get("parameters").Get("required")) {
				if !slices.Contains(origReq, name) {
					args.Members = append(args.Members, jsontree.Member{Key: name, Value: &jsontree.Node{Kind: jsonlex.Null}})
				}
			}
			ctx := context.Background()
			want, wantErr := reg.Call(ctx, tl.Spec.Name, []byte(base))
			got, gotErr := reg.Call(ctx, tl.Spec.Name, args.Compact())
			assert.Equal(t, want, got, "%s with %s", tl.Spec.Name, args.Compact())
			assert.Equal(t, wantErr, gotErr)
		})
	}
	assert.Len(t, strict, len(required), "every tool of the table is strict")

	// The case from the issue, spelled out.
	ctx := context.Background()
	want, err := reg.Call(ctx, "notes_search", []byte(`{"query":"go"}`))
	require.NoError(t, err)
	got, err := reg.Call(ctx, "notes_search", []byte(`{"query":"go","limit":null,"tags":null,"since":null,"sort":null}`))
	require.NoError(t, err)
	assert.Equal(t, want, got)
	assert.Contains(t, got.Text(), `"total":`)
	// null stays invalid for a required property.
	res, err := reg.Call(ctx, "notes_search", []byte(`{"query":null}`))
	require.Error(t, err)
	assert.True(t, res.IsError)
}
