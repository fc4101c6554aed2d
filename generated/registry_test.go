package generated_test

import (
	"bytes"
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/examples/demo"
	"github.com/toolgen-go/toolgen/generated"
	"github.com/toolgen-go/toolgen/generated/weathertools"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/runtime/toolimpl"
	"github.com/toolgen-go/toolgen/tools/notes"
)

var now = time.Date(2025, time.March, 20, 12, 0, 0, 0, time.UTC)

// allTools is every sample tool, clock_sync included (it has a reference
// clock here).
func allTools() []generated.Tools {
	return demo.All(notes.NewDemoStore(), demo.FixedClock(now))
}

func registry(t *testing.T) tool.Registry {
	t.Helper()
	reg, err := generated.New(allTools())
	require.NoError(t, err)
	return reg
}

// TestSpecsFromDirectives checks the catalog against the directives in
// tools/.
func TestSpecsFromDirectives(t *testing.T) {
	reg := registry(t)
	var names []string
	for _, s := range reg.Tools() {
		names = append(names, s.Name)
	}
	assert.IsIncreasing(t, names, "sorted by name")

	del, ok := reg.Lookup("notes_delete")
	require.True(t, ok)
	assert.Equal(t, tool.KindPropose, del.Kind)
	assert.True(t, del.Destructive)
	assert.True(t, del.Idempotent)
	assert.False(t, del.ReadOnly)
	assert.NotEmpty(t, del.Permissions)
	assert.NotEmpty(t, del.Meta)

	search, _ := reg.Lookup("notes_search")
	assert.Equal(t, tool.KindRead, search.Kind)
	assert.True(t, search.ReadOnly)
	assert.Equal(t, "notes", search.Group)

	create, _ := reg.Lookup("notes_create")
	assert.Equal(t, 5*time.Second, create.Timeout)
	assert.NotEmpty(t, create.Title)
	assert.NotEmpty(t, create.Verb)

	render, _ := reg.Lookup("notes_render")
	assert.Equal(t, tool.KindDisplay, render.Kind)

	sync, _ := reg.Lookup("clock_sync")
	assert.Equal(t, "time", sync.Group)
	assert.True(t, sync.OpenWorld)
	assert.NotZero(t, sync.Weight)
	for _, s := range reg.Tools() {
		assert.NotContains(t, s.Description, "//tool:", "directives are not part of %s's description", s.Name)
		assert.Equal(t, reflect.TypeOf(s.Kind), reflect.TypeOf(tool.KindRead))
	}
}

// TestUnavailable: a tool whose Available method fails is neither listed
// nor callable, and Unavailable says why.
func TestUnavailable(t *testing.T) {
	tools := demo.Tools(notes.NewDemoStore(), nil) // no reference clock
	tools[2] = weathertools.Tools{}                // no API key
	reg, err := generated.New(tools)
	require.NoError(t, err)
	for _, name := range []string{"clock_sync", "weather_forecast"} {
		_, listed := reg.Lookup(name)
		assert.False(t, listed, name)
		_, err := reg.Call(context.Background(), name, []byte(`{}`))
		assert.Equal(t, tool.CodeUnknownTool, tool.CodeOf(err), name)
	}
	why := generated.Unavailable(tools)
	assert.Len(t, why, 2)
	assert.Error(t, why["clock_sync"])
	assert.Error(t, why["weather_forecast"])
}

// TestNewSharesTheTable: registries serve the specs the codec packages
// hold, never a copy; with one tool left out, a registry gets its own
// list of the others, in order, pointing to the same specs.
func TestNewSharesTheTable(t *testing.T) {
	a, err := generated.New(allTools())
	require.NoError(t, err)
	b, err := generated.New(allTools())
	require.NoError(t, err)
	require.Len(t, b.Tools(), len(a.Tools()))
	for i := range a.Tools() {
		assert.Same(t, a.Tools()[i], b.Tools()[i])
	}

	tools := allTools()
	tools[2] = weathertools.Tools{} // no API key
	c, err := generated.New(tools)
	require.NoError(t, err)
	require.Len(t, c.Tools(), len(a.Tools())-1)
	for i, sp := range c.Tools() {
		assert.Equal(t, a.Tools()[i].Name, sp.Name, "weather_forecast is the last tool")
		assert.Same(t, a.Tools()[i], sp)
	}
}

// TestNewRefusesNil: a pointer tool left nil is a construction error that
// names the field.
func TestNewRefusesNil(t *testing.T) {
	set := demo.Notes(notes.NewDemoStore())
	set.NotesGet = nil
	_, err := generated.New([]generated.Tools{demo.Clock(nil, nil), set, demo.Weather(nil)})
	require.Error(t, err)
	assert.Equal(t, "generated.New: notestools.Tools.NotesGet (tool notes_get) is nil", err.Error())
}

// TestNewRefusesBadSets: New takes a Tools of each set package exactly
// once, in any order, and says what is wrong with anything else, naming
// set packages only; Unavailable skips what it cannot use.
func TestNewRefusesBadSets(t *testing.T) {
	store := notes.NewDemoStore()
	clockSet, notesSet, weatherSet := demo.Clock(nil, nil), demo.Notes(store), demo.Weather(nil)
	reg, err := generated.New([]generated.Tools{weatherSet, clockSet, notesSet})
	require.NoError(t, err, "any order")
	assert.Len(t, reg.Tools(), 13)

	for _, c := range []struct {
		name  string
		tools []generated.Tools
		err   string
	}{
		{"none", nil, "generated.New: no clocktools.Tools among the tools: pass one (github.com/toolgen-go/toolgen/generated/clocktools)\n" +
			"generated.New: no notestools.Tools among the tools: pass one (github.com/toolgen-go/toolgen/generated/notestools)\n" +
			"generated.New: no weathertools.Tools among the tools: pass one (github.com/toolgen-go/toolgen/generated/weathertools)"},
		{"one missing", []generated.Tools{clockSet, weatherSet}, "generated.New: no notestools.Tools among the tools: pass one (github.com/toolgen-go/toolgen/generated/notestools)"},
		{"twice", []generated.Tools{clockSet, notesSet, clockSet, weatherSet}, "generated.New: clocktools.Tools given twice"},
		{"nil", []generated.Tools{clockSet, nil, notesSet, weatherSet}, "generated.New: tools[1] is nil"},
		{"foreign", []generated.Tools{clockSet, notesSet, weatherSet, foreignSet{}}, "generated.New: tools[3] is a othertools.Tools of example.com/other/othertools, which this registry does not hold: use the set packages generated beside it"},
		{"hand-made", []generated.Tools{clockSet, notesSet, weatherSet, emptySet{}}, "generated.New: tools[3] is no set package's Tools"},
	} {
		_, err := generated.New(c.tools)
		require.Error(t, err, c.name)
		assert.Equal(t, c.err, err.Error(), c.name)
	}

	why := generated.Unavailable([]generated.Tools{nil, weathertools.Tools{}, foreignSet{}, emptySet{}})
	assert.Len(t, why, 1)
	assert.Error(t, why["weather_forecast"])
}

// foreignSet is a Tools of a set package of another registry.
type foreignSet struct{}

func (foreignSet) ToolSet() *toolimpl.Set {
	return &toolimpl.Set{Path: "example.com/other/othertools", Dispatch: func(context.Context, int, toolimpl.Mode, *toolimpl.Decoder, *toolimpl.Encoder) (toolimpl.Output, error) {
		return 0, nil
	}}
}

// emptySet is a hand-made Tools, which no set package returns.
type emptySet struct{}

func (emptySet) ToolSet() *toolimpl.Set { return nil }

// goodCalls calls every tool with valid arguments.
var goodCalls = map[string]string{
	"clock_now":        `{}`,
	"clock_sync":       ``,
	"clock_wait":       `{"seconds":0.1}`,
	"clock_zones":      `{"prefix":"Europe/"}`,
	"notes_get":        `{"id":"n1"}`,
	"notes_outline":    `{"id":"n1"}`,
	"notes_render":     `{"id":"n1","format":"plain"}`,
	"notes_search":     `{"query":"go","limit":2,"tags":["go"],"since":"2025-01-01T00:00:00Z","sort":"newest"}`,
	"notes_share":      `{"id":"n1","passphrase":"correct horse battery","hours":2}`,
	"notes_tag":        `{"id":"n2","add":["errands"],"remove":["home"]}`,
	"notes_update":     `{"id":"n3","title":"Renamed","priority":2,"color":"#336699","attributes":{"k":"v"},"data":{"any":[1,"two",null]}}`,
	"weather_forecast": `{"place":"Lisbon","days":2}`,
}

// signedIn is a context whose call runs for a signed-in principal, as
// notes_share needs.
func signedIn() context.Context {
	return tool.WithInvocation(context.Background(), &tool.Invocation{Principal: tool.Principal{ID: "ada"}})
}

// TestOutputsValidate calls every tool that runs at once and validates its
// structured output against its published output schema.
func TestOutputsValidate(t *testing.T) {
	reg := registry(t)
	ctx := signedIn()
	for _, spec := range reg.Tools() {
		if spec.Kind == tool.KindPropose {
			continue
		}
		args, ok := goodCalls[spec.Name]
		require.True(t, ok, "no good call for %s", spec.Name)
		res, err := reg.Call(ctx, spec.Name, []byte(args))
		require.NoError(t, err, "%s: %s", spec.Name, res.Text())
		assert.Equal(t, spec.OutputSchema != nil, res.Structured, spec.Name)
		if spec.OutputSchema == nil {
			continue
		}
		sch := compile(t, spec.Name, spec.OutputSchema)
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(res.Content))
		require.NoError(t, err)
		assert.NoError(t, sch.Validate(v), "output of %s: %s", spec.Name, res.Text())
	}
}

func compile(t *testing.T, name string, raw []byte) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	require.NoError(t, err)
	c := jsonschema.NewCompiler()
	url := "mem://" + name + ".json"
	require.NoError(t, c.AddResource(url, doc))
	sch, err := c.Compile(url)
	require.NoError(t, err)
	return sch
}

// TestInputSchemasCompile: every input schema is a valid 2020-12 schema
// of an object.
func TestInputSchemasCompile(t *testing.T) {
	for _, spec := range registry(t).Tools() {
		compile(t, spec.Name, spec.InputSchema)
		assert.True(t, strings.Contains(string(spec.InputSchema), `"type":"object"`), spec.Name)
	}
}

// TestHooks: notes_share marks its passphrase secret and is offered to
// signed-in callers only; notes_update gives the form of its arguments
// that records keep, without the body's text.
func TestHooks(t *testing.T) {
	reg := registry(t)
	share, ok := reg.Lookup("notes_share")
	require.True(t, ok)
	assert.Equal(t, []string{"/passphrase"}, share.Secrets)
	assert.True(t, share.DecidesOffer)
	assert.False(t, share.LogsArgs)

	offered := func(ctx context.Context) []string {
		var names []string
		for _, s := range reg.Offer(ctx) {
			names = append(names, s.Name)
		}
		return names
	}
	assert.NotContains(t, offered(context.Background()), "notes_share", "anonymous callers cannot share")
	assert.Len(t, offered(context.Background()), len(reg.Tools())-1)
	assert.Contains(t, offered(signedIn()), "notes_share")

	res, err := reg.Call(context.Background(), "notes_share", []byte(goodCalls["notes_share"]))
	require.Error(t, err, "the tool refuses an anonymous caller even when a registry runs it")
	assert.Contains(t, res.Text(), "needs a signed-in user")
	assert.NotContains(t, res.Text(), "correct horse battery")

	// What the call service records: notes_update's LogArgs form, which
	// names the fields set and not the body's text, and notes_share's
	// arguments with the passphrase replaced.
	svc, err := service.New(reg, nil)
	require.NoError(t, err)
	ana := tool.WithInvocation(context.Background(), &tool.Invocation{Principal: tool.Principal{
		ID: "ana", Permissions: []string{"notes.read", "notes.write", "notes.share"},
	}})
	for name, args := range map[string]string{
		"notes_update": `{"id":"n3","body":"my secret diary","priority":2}`,
		"notes_share":  goodCalls["notes_share"],
	} {
		_, _ = svc.Call(ana, name, []byte(args))
		recs, err := svc.Store().Records(context.Background(), service.Query{Tool: name})
		require.NoError(t, err)
		require.NotEmpty(t, recs, name)
		logged := string(recs[len(recs)-1].Args)
		switch name {
		case "notes_update":
			assert.Equal(t, `"n3: body, priority"`, logged)
		default:
			assert.NotContains(t, logged, "correct horse battery", "notes_share has no LogArgs: the service replaces its secrets")
			assert.Contains(t, logged, `"passphrase"`)
		}
	}
}
