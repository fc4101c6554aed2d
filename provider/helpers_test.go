package provider_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/generated"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/tools/notes"
)

// sampleRegistry returns the registry of every sample tool (all twelve
// available), over a fresh demo store and a fixed clock.
func sampleRegistry(t testing.TB) *tool.Static {
	t.Helper()
	store := notes.NewDemoStore()
	now := func() time.Time { return time.Date(2025, time.March, 20, 12, 0, 0, 0, time.UTC) }
	tools := generated.Tools{
		NotesCreate:  notes.CreateTool{Store: store, Author: notes.Person{Name: "Test User"}},
		NotesDelete:  &notes.DeleteTool{Store: store},
		NotesGet:     &notes.GetTool{Store: store},
		NotesOutline: notes.OutlineTool{Store: store},
		NotesRender:  &notes.RenderTool{Store: store},
		NotesSearch:  notes.SearchTool{Store: store},
		NotesTag:     notes.TagTool{Store: store},
		NotesUpdate:  notes.UpdateTool{Store: store},
	}
	tools.ClockNow.Clock = now
	tools.ClockSync.Clock = now
	tools.ClockSync.Reference = func(context.Context) (time.Time, error) { return now(), nil }
	tools.WeatherForecast.APIKey = "test"
	tools.WeatherForecast.Clock = now
	reg, err := generated.New(tools)
	require.NoError(t, err)
	require.Len(t, reg.Tools(), 12, "every sample tool is available")
	return reg
}
