package generated_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/toolgen-go/toolgen/examples/demo"
	"github.com/toolgen-go/toolgen/generated"
	"github.com/toolgen-go/toolgen/generated/clocktools"
	"github.com/toolgen-go/toolgen/generated/notestools"
	"github.com/toolgen-go/toolgen/generated/weathertools"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/tools/clock"
	"github.com/toolgen-go/toolgen/tools/notes"
)

// A program fills the Tools of each set package with the values that
// implement the tools (demo.All fills every field of clocktools.Tools,
// notestools.Tools and weathertools.Tools, each tool with its
// dependencies), builds the registry
// with New and calls a tool by name with the model's JSON arguments.
func Example() {
	now := time.Date(2025, 3, 20, 12, 0, 0, 0, time.UTC)
	reg, err := generated.New(demo.All(notes.NewDemoStore(), demo.FixedClock(now)))
	if err != nil {
		panic(err)
	}
	ctx := context.Background()

	spec, _ := reg.Lookup("clock_now")
	fmt.Printf("%s (%s): %s\n", spec.Name, spec.Kind, spec.InputSchema)
	res, err := reg.Call(ctx, "clock_now", nil)
	fmt.Println(res.Structured, res.Text(), err)

	// Bad arguments: every problem, as a JSON Pointer and what was
	// declared, never the value sent; the message is written for the model.
	res, err = reg.Call(ctx, "notes_search", []byte(`{"query":"","limit":500,"colour":"red"}`))
	fmt.Println(res.IsError, res.Text())
	var te *tool.Error
	if errors.As(err, &te) {
		fmt.Println(te.Code, te.Tool)
	}

	// A propose tool never runs from the registry: its arguments are
	// checked, and a person must confirm it through the call service.
	_, err = reg.Call(ctx, "notes_delete", []byte(`{"id":"n2"}`))
	fmt.Println(tool.CodeOf(err))
	// Output:
	// clock_now (read): {"type":"object","properties":{},"additionalProperties":false}
	// true {"time":"2025-03-20T12:00:00Z","unix":1742472000,"location":"UTC","zone":"UTC","offset":0,"weekday":"Thursday","iso_week":12,"year_day":79} <nil>
	// true invalid arguments: /query: must be at least 1 character long; /limit: must be at most 50; /colour: unknown property (additional properties are not allowed)
	// invalid_arguments notes_search
	// needs_confirmation
}

// New takes a Tools of each set package, and refuses a tool left out of
// one, naming its field, or a set package left out, before anything runs.
func ExampleNew() {
	_, err := generated.New([]generated.Tools{
		clocktools.Tools{ClockNow: clock.NowTool{}},
		notestools.Tools{NotesSearch: notes.SearchTool{Store: notes.NewDemoStore()}},
		weathertools.Tools{},
	})
	fmt.Println(err)

	_, err = generated.New([]generated.Tools{clocktools.Tools{}})
	fmt.Println(err)
	// Output:
	// generated.New: field NotesCreate of notestools.Tools (tool notes_create) is unset: fill it with a ready notes.CreateTool, or mark the type //tool:zerovalue if its zero value is ready
	// generated.New: no notestools.Tools among the tools: pass one (github.com/toolgen-go/toolgen/generated/notestools)
	// generated.New: no weathertools.Tools among the tools: pass one (github.com/toolgen-go/toolgen/generated/weathertools)
}
