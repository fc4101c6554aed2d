// Package demo wires this repository's sample tools (tools/) into the
// registry generated from them (generated/), with in-memory dependencies:
// the demo notes store, the system clock, and a canned weather service.
// The examples and the tests share it so that each shows the same catalog.
package demo

import (
	"context"
	"time"

	"github.com/toolgen-go/toolgen/generated"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/tools/notes"
)

// Tools returns every sample tool with its dependencies set, sharing store
// and reading the time from now (nil means time.Now). The weather tool has
// an API key, so it is offered; clock_sync has no reference clock, so it
// is not: its Available method says why.
func Tools(store *notes.Store, now func() time.Time) generated.Tools {
	t := generated.Tools{
		NotesCreate:  notes.CreateTool{Store: store, Author: notes.Person{Name: "Demo User", Email: "demo@example.com"}},
		NotesDelete:  &notes.DeleteTool{Store: store},
		NotesGet:     &notes.GetTool{Store: store},
		NotesOutline: notes.OutlineTool{Store: store},
		NotesRender:  &notes.RenderTool{Store: store},
		NotesSearch:  notes.SearchTool{Store: store},
		NotesShare:   notes.ShareTool{Store: store},
		NotesTag:     notes.TagTool{Store: store},
		NotesUpdate:  notes.UpdateTool{Store: store},
	}
	t.ClockNow.Clock = now
	t.ClockSync.Clock = now
	t.ClockWait.Clock = now
	t.WeatherForecast.APIKey = "demo-key"
	t.WeatherForecast.Clock = now
	return t
}

// All returns every sample tool with its dependencies set, clock_sync
// included: its reference clock reads now, so every tool is offered.
func All(store *notes.Store, now func() time.Time) generated.Tools {
	if now == nil {
		now = time.Now
	}
	t := Tools(store, now)
	t.ClockSync.Reference = ReferenceClock(now)
	return t
}

// Registry returns the registry of the sample tools over a fresh demo
// store.
func Registry(opts ...tool.Option) (tool.Registry, error) {
	return generated.New(Tools(notes.NewDemoStore(), nil), opts...)
}

// FixedClock returns a clock stuck at t, for reproducible output.
func FixedClock(t time.Time) func() time.Time { return func() time.Time { return t } }

// ReferenceClock is a reference clock for clock_sync that reads now: a
// stand-in for an NTP server in demos and tests.
func ReferenceClock(now func() time.Time) func(context.Context) (time.Time, error) {
	return func(context.Context) (time.Time, error) { return now(), nil }
}
