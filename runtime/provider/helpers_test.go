package provider_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/examples/demo"
	"github.com/toolgen-go/toolgen/generated"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/tools/notes"
)

// sampleRegistry returns the registry of every sample tool (all fourteen
// available), over a fresh demo store and a fixed clock.
func sampleRegistry(t testing.TB) tool.Registry {
	t.Helper()
	reg, err := generated.New(demo.All(notes.NewDemoStore(), demo.FixedClock(time.Date(2025, time.March, 20, 12, 0, 0, 0, time.UTC))))
	require.NoError(t, err)
	require.Len(t, reg.Tools(), 14, "every sample tool is available")
	return reg
}
