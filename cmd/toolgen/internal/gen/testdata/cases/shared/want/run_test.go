package want_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gen/testdata/cases/shared/want"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gen/testdata/cases/shared/want/atools"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gen/testdata/cases/shared/want/btools"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// These tests run the golden output of the shared case: the decoder and
// encoder of shared.Page, written once in the codec package of shared,
// serve the tools of a and b alike.

func TestSharedCodecs(t *testing.T) {
	reg, err := want.New([]want.Tools{atools.Tools{}, btools.Tools{}})
	require.NoError(t, err)
	ctx := context.Background()

	res, err := reg.Call(ctx, "a_list", []byte(`{"query":"q","page":{"limit":2,"cursor":"c"}}`))
	require.NoError(t, err, res.Text())
	assert.JSONEq(t, `{"names":["q","q"],"next":{"page":{"cursor":"c>","limit":2},"more":false}}`, res.Text())

	res, err = reg.Call(ctx, "b_pages", []byte(`{"page":{"limit":3}}`))
	require.NoError(t, err, res.Text())
	assert.JSONEq(t, `{"page":{"cursor":">","limit":3},"more":true}`, res.Text())

	for name, args := range map[string]string{"a_list": `{"query":"q","page":{"limit":0}}`, "b_pages": `{"page":{"limit":0}}`} {
		_, err = reg.Call(ctx, name, []byte(args))
		require.Error(t, err, "the shared decoder enforces minimum=1 for %s", name)
		assert.Equal(t, tool.CodeInvalidArguments, tool.CodeOf(err), name)
		assert.Contains(t, err.Error(), "limit", name)
	}
}
