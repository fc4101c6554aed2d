package want_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gen/testdata/cases/kindcheck"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gen/testdata/cases/kindcheck/want"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gen/testdata/cases/kindcheck/want/kindchecktools"
)

// These tests run the golden output of the kindcheck case: toolgen's
// internal/gen tests run them with `go test` on this directory.

// TestKindChecked: a string reaches UnmarshalJSON; any other kind is
// refused with the published type before UnmarshalJSON sees it.
func TestKindChecked(t *testing.T) {
	reg, err := want.New([]want.Tools{kindchecktools.Tools{KindcheckEcho: kindcheck.Echo{}}})
	require.NoError(t, err)
	res, err := reg.Call(context.Background(), "kindcheck_echo", []byte(`{"at":"2025-03-20"}`))
	require.NoError(t, err, res.Text())
	assert.Equal(t, "2025-03-20", res.Text())

	for args, got := range map[string]string{`{"at":5}`: "number", `{"at":{}}`: "object", `{"at":null}`: "null"} {
		res, err = reg.Call(context.Background(), "kindcheck_echo", []byte(args))
		require.Error(t, err, args)
		assert.Contains(t, res.Text(), "/at: expected string, got "+got, args)
		assert.NotContains(t, res.Text(), "must be a valid", args)
	}
}
