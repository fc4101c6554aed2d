// Package demo wires this repository's sample tools (tools/) into the
// registry generated from them (generated/), with in-memory dependencies:
// the demo notes store, the system clock, and a canned weather service.
// The examples and the tests share it so that each shows the same catalog.
package demo

import (
	"context"
	"time"

	"github.com/toolgen-go/toolgen/generated"
	"github.com/toolgen-go/toolgen/generated/clocktools"
	"github.com/toolgen-go/toolgen/generated/notestools"
	"github.com/toolgen-go/toolgen/generated/weathertools"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/tools/clock"
	"github.com/toolgen-go/toolgen/tools/notes"
	"github.com/toolgen-go/toolgen/tools/weather"
)

// Tools returns every sample tool with its dependencies set, sharing store
// and reading the time from now (nil means time.Now): a Tools of each set
// package, as generated.New takes them. The weather tool has an API key,
// so it is offered; clock_sync has no reference clock, so it is not: its
// Available method says why.
func Tools(store *notes.Store, now func() time.Time) []generated.Tools {
	return []generated.Tools{Clock(now, nil), Notes(store), Weather(now)}
}

// All returns every sample tool with its dependencies set, clock_sync
// included: its reference clock reads now, so every tool is offered.
func All(store *notes.Store, now func() time.Time) []generated.Tools {
	if now == nil {
		now = time.Now
	}
	return []generated.Tools{Clock(now, ReferenceClock(now)), Notes(store), Weather(now)}
}

// Clock returns the clock tools reading the time from now (nil means
// time.Now), clock_sync comparing it with reference (nil: clock_sync is
// not offered).
func Clock(now func() time.Time, reference func(context.Context) (time.Time, error)) clocktools.Tools {
	return clocktools.Tools{
		ClockNow:  clock.NowTool{Clock: now},
		ClockSync: clock.SyncTool{Clock: now, Reference: reference},
		ClockWait: clock.WaitTool{Clock: now},
	}
}

// Notes returns the notes tools over store, creating notes as the demo
// user.
func Notes(store *notes.Store) notestools.Tools {
	return notestools.Tools{
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
}

// Weather returns the weather tool with a demo API key, its forecasts
// issued at now (nil means time.Now).
func Weather(now func() time.Time) weathertools.Tools {
	return weathertools.Tools{WeatherForecast: weather.ForecastTool{APIKey: "demo-key", Clock: now}}
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
