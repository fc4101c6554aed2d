package want_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gen/testdata/cases/contract"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gen/testdata/cases/contract/want"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gen/testdata/cases/contract/want/contracttools"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// These tests run the golden output of the contract case: toolgen's
// internal/gen tests run them with `go test` on this directory.

// TestChecks: each check the generated decoder makes through
// runtime/toolimpl refuses what its keyword forbids, and a call that
// passes them all runs.
func TestChecks(t *testing.T) {
	reg, err := want.New([]want.Tools{contracttools.Tools{ContractCheck: contract.Check{}}})
	require.NoError(t, err)
	ctx := context.Background()
	res, err := reg.Call(ctx, "contract_check", []byte(`{"when":"2025-03-20T10:00:00Z","ratio":1.5,"at":"2025-03-20","tags":["a","b"]}`))
	require.NoError(t, err, res.Text())
	assert.Equal(t, "2025-03-20T10:00:00Z 2025-03-20", res.Text())

	for args, want := range map[string]string{
		`{"when":"yesterday","at":"x"}`:                             "/when: must be a date-time (RFC 3339)",
		`{"when":"2025-03-20T10:00:00Z","ratio":0.3,"at":"x"}`:      "/ratio: must be a multiple of 0.5",
		`{"when":"2025-03-20T10:00:00Z","at":5}`:                    "/at: expected string, got number",
		`{"when":"2025-03-20T10:00:00Z","at":"x","tags":["a","a"]}`: "/tags: items must be unique",
	} {
		res, err := reg.Call(ctx, "contract_check", []byte(args))
		assert.Equal(t, tool.CodeInvalidArguments, tool.CodeOf(err), args)
		assert.Contains(t, res.Text(), want, args)
	}
}
