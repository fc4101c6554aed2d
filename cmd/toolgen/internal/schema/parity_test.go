//go:build toolgen

package schema_test

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/schema"
	"github.com/toolgen-go/toolgen/examples/demo"
	"github.com/toolgen-go/toolgen/generated"
	"github.com/toolgen-go/toolgen/runtime/jsonlex"
	"github.com/toolgen-go/toolgen/runtime/jsontree"
	clock "github.com/toolgen-go/toolgen/tools/clock"
	notes "github.com/toolgen-go/toolgen/tools/notes"
	weather "github.com/toolgen-go/toolgen/tools/weather"
)

// The schema parity test reflects the sample types with invopop, hooks
// included, and compares what the registry generated from them in
// generated/ publishes: the hooks live in files built only with the
// toolgen tag, as toolgen's bootstrap program builds them (make test runs
// this file with -tags toolgen).

// types maps every sample tool to its Go input and output types: what
// invopop reflects at test time for the parity check. A nil input is a
// tool without arguments; a nil output has no output schema.
var types = map[string]struct{ in, out reflect.Type }{
	"clock_now":        {nil, reflect.TypeFor[clock.Now]()},
	"clock_sync":       {nil, reflect.TypeFor[clock.Sync]()},
	"clock_wait":       {reflect.TypeFor[clock.WaitInput](), reflect.TypeFor[clock.Waited]()},
	"clock_zones":      {reflect.TypeFor[clock.ZonesInput](), nil},
	"notes_create":     {reflect.TypeFor[notes.CreateInput](), reflect.TypeFor[notes.Note]()},
	"notes_delete":     {reflect.TypeFor[notes.DeleteInput](), reflect.TypeFor[notes.DeleteOutput]()},
	"notes_get":        {reflect.TypeFor[notes.GetInput](), reflect.TypeFor[notes.Note]()},
	"notes_outline":    {reflect.TypeFor[notes.OutlineInput](), reflect.TypeFor[notes.Outline]()},
	"notes_render":     {reflect.TypeFor[notes.RenderInput](), nil},
	"notes_search":     {reflect.TypeFor[notes.SearchInput](), reflect.TypeFor[notes.SearchOutput]()},
	"notes_share":      {reflect.TypeFor[notes.ShareInput](), reflect.TypeFor[notes.ShareOutput]()},
	"notes_tag":        {reflect.TypeFor[notes.TagInput](), reflect.TypeFor[notes.TagOutput]()},
	"notes_update":     {reflect.TypeFor[notes.UpdateInput](), reflect.TypeFor[notes.Note]()},
	"weather_forecast": {reflect.TypeFor[weather.ForecastInput](), reflect.TypeFor[weather.Forecast]()},
}

// sampleComments reads the doc comments of the tools packages as toolgen does:
// AddGoComments' map (schema.AddComments), then the comment-map step
// (ReflowComments, DropNames).
func sampleComments(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, pkg := range []string{"clock", "notes", "weather"} {
		dir := filepath.Join("..", "..", "..", "..", "tools", pkg)
		entries, err := os.ReadDir(dir)
		require.NoError(t, err)
		fset := token.NewFileSet()
		var files []*ast.File
		for _, e := range entries {
			if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, parser.ParseComments)
			require.NoError(t, err)
			files = append(files, f)
		}
		require.NoError(t, schema.AddComments(out, fset, "github.com/toolgen-go/toolgen/tools/"+pkg, files))
	}
	schema.ReflowComments(out)
	schema.DropNames(out)
	return out
}

// TestSchemaParity: every published schema equals what invopop reflects at
// test time from the same Go type, under toolgen's settings plus exactly
// the steps documented in package schema: the map-bounds step
// (schema.MapBounds, which schema.ReflectRaw applies) and PostProcess for
// every schema, and the input step (schema.ReflectInput) for inputs.
// TestMapBoundsStep checks what the map-bounds step adds.
func TestSchemaParity(t *testing.T) {
	// Every sample tool, clock_sync included (it has a reference clock).
	reg, err := generated.New(demo.All(notes.NewDemoStore(), demo.FixedClock(time.Date(2025, time.March, 20, 12, 0, 0, 0, time.UTC))))
	require.NoError(t, err)
	docs := sampleComments(t)
	require.Len(t, reg.Tools(), len(types), "every sample tool is listed here")
	for _, spec := range reg.Tools() {
		tt, ok := types[spec.Name]
		require.True(t, ok, "tool %s is missing from the parity table", spec.Name)
		if tt.in == nil {
			assert.JSONEq(t, `{"type":"object","properties":{},"additionalProperties":false}`, string(spec.InputSchema), spec.Name)
		} else {
			want, err := schema.ReflectInput(tt.in, docs)
			require.NoError(t, err)
			assert.Equal(t, string(want), string(spec.InputSchema), "input schema of %s", spec.Name)
		}
		if tt.out == nil {
			assert.Nil(t, spec.OutputSchema, "%s has no output schema", spec.Name)
		} else {
			want, err := schema.Reflect(tt.out, docs)
			require.NoError(t, err)
			assert.Equal(t, string(want), string(spec.OutputSchema), "output schema of %s", spec.Name)
		}
	}
}

// TestMapBoundsStep: the map-bounds step adds minProperties and
// maxProperties, from the jsonschema tags of map fields, and nothing else:
// the published schema without them equals invopop's alone, post-processed.
func TestMapBoundsStep(t *testing.T) {
	docs := sampleComments(t)
	bounded := 0
	for name, tt := range types {
		for _, typ := range []reflect.Type{tt.in, tt.out} {
			if typ == nil {
				continue
			}
			withStep, err := schema.Reflect(typ, docs)
			require.NoError(t, err)
			raw, err := json.Marshal(schema.Reflector(docs).ReflectFromType(typ))
			require.NoError(t, err)
			alone, err := schema.PostProcess(raw)
			require.NoError(t, err)
			got, want := parse(t, withStep), parse(t, alone)
			bounded += dropMapBounds(got)
			dropMapBounds(want) // a hook's bounds are invopop's own
			assert.Equal(t, string(want.Compact()), string(got.Compact()), "%s (%s): the step adds only minProperties and maxProperties", name, typ)
		}
	}
	assert.Positive(t, bounded, "a sample map is bounded by its tag, so the step is exercised")
}

// dropMapBounds removes every minProperties and maxProperties member of n,
// at every depth, and returns how many it removed.
func dropMapBounds(n *jsontree.Node) int {
	removed := 0
	if n.Kind == jsonlex.Object {
		kept := n.Members[:0]
		for _, m := range n.Members {
			if m.Key == "minProperties" || m.Key == "maxProperties" {
				removed++
				continue
			}
			kept = append(kept, m)
		}
		n.Members = kept
		for _, m := range n.Members {
			removed += dropMapBounds(m.Value)
		}
	}
	for _, it := range n.Items {
		removed += dropMapBounds(it)
	}
	return removed
}
