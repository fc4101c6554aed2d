package want_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gen/testdata/cases/bom"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gen/testdata/cases/bom/want"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gen/testdata/cases/bom/want/bomtools"
)

// TestBOM: the enum value and the description that hold a byte order mark
// are published and enforced as written.
func TestBOM(t *testing.T) {
	reg, err := want.New([]want.Tools{bomtools.Tools{Echo: bom.Echo{}}})
	require.NoError(t, err)
	sp, ok := reg.Lookup("echo")
	require.True(t, ok)
	assert.Contains(t, string(sp.InputSchema), "\"\ufeffmarked\"")
	assert.Contains(t, string(sp.InputSchema), "\"\ufeffThe mode, after a byte order mark.\"")
	ctx := context.Background()
	assert.NoError(t, reg.Check(ctx, "echo", []byte("{\"mode\":\"\ufeffmarked\"}")))
	assert.NoError(t, reg.Check(ctx, "echo", []byte(`{"mode":"\ufeffmarked"}`)))
	assert.Error(t, reg.Check(ctx, "echo", []byte(`{"mode":"marked"}`)))
}
