package generated

// Differential fuzzing of the generated decoders. For every sample tool
// the oracle is encoding/json (decoding into the same Go type) together
// with a JSON Schema validator (santhosh-tekuri/jsonschema) run against
// the tool's published InputSchema: the generated decoder must accept
// exactly the arguments the oracle accepts, decode them to an equal value,
// and never panic. The Static registry's Check must agree with the
// decoder, and report its refusals as invalid arguments.
//
// The documented differences, each pinned by TestFuzzExceptions in
// hardening_test.go, are:
//
//   - duplicate member names, invalid UTF-8 and lone surrogate escapes
//     (\ud800), which encoding/json lets through (keeping the last member,
//     or replacing the text with U+FFFD): the generated decoder refuses
//     them, as jsontext does;
//   - nesting deeper than Limits.MaxDepth and arguments larger than
//     Limits.MaxBytes, which the oracle has no limit for: refused;
//   - null for a property that is not required means absent, where the
//     schema alone would refuse it: the oracle drops such members before
//     validating;
//   - a date-time written with JSON escapes ("2026\u002d01-01T00:00:00Z"):
//     time.Time.UnmarshalJSON parses the raw bytes without unescaping them
//     and fails, the generated decoder unescapes first, as the schema
//     validator does; the oracle decodes a canonical re-encoding of the
//     arguments, so escapes never reach encoding/json;
//   - a date-time with a lower-case "t" or "z" ("2026-01-01t00:00:00z"),
//     which RFC 3339 and the schema validator allow and
//     time.Time.UnmarshalJSON refuses: the generated decoder reads it as
//     upper case, and so does the oracle (upperDateTimes) before
//     encoding/json decodes it;
//   - empty arguments mean {} (Static.Call's rule), for both sides.
//
// Pattern dialects do not differ: the validator compiles patterns with Go's
// regexp, as the generated code does.
//
// The fuzz registry and decoder run under small limits (fuzzLimits), so
// that the too-deep and too-large classes fit in a fuzz input.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/generated/clocktools"
	"github.com/toolgen-go/toolgen/generated/internal/clockcodec"
	"github.com/toolgen-go/toolgen/generated/internal/notescodec"
	"github.com/toolgen-go/toolgen/generated/internal/weathercodec"
	"github.com/toolgen-go/toolgen/generated/notestools"
	"github.com/toolgen-go/toolgen/generated/weathertools"
	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/tools/clock"
	"github.com/toolgen-go/toolgen/tools/notes"
	"github.com/toolgen-go/toolgen/tools/weather"
)

// fuzzLimits are the limits of the fuzzed registry and decoders: small, so
// that inputs over them are small too.
var fuzzLimits = codec.Limits{MaxBytes: 1024, MaxDepth: 16}

// fuzzBases are valid arguments for every sample tool: the seeds, and the
// material the bad-input seeds are made from.
var fuzzBases = map[string][]string{
	"clock_now":   {`{}`},
	"clock_wait":  {`{"seconds":2}`, `{"seconds":0.1}`, `{"seconds":6e1}`},
	"clock_zones": {`{"prefix":"Europe/"}`, `{}`},
	"notes_create": {
		`{"title":"Groceries","body":"# List\nmilk","tags":["home","food"],"priority":2,` +
			`"due":"2026-07-01T09:30:00+01:00","color":"#ff8800","attributes":{"store":"corner"}}`,
		`{"title":"é\u00e9😀"}`,
	},
	"notes_delete":  {`{"id":"n1"}`},
	"notes_get":     {`{"id":"n2"}`},
	"notes_outline": {`{"id":"n3"}`},
	"notes_render":  {`{"id":"n1","format":"plain"}`},
	"notes_search": {
		`{"query":"milk","limit":5,"tags":["home"],"since":"2026-01-01T00:00:00Z","sort":"newest"}`,
		`{"query":"a","limit":null,"tags":null,"since":null,"sort":null}`,
	},
	"notes_share": {
		`{"id":"n1","passphrase":"correct horse","hours":168}`,
		`{"id":"n2","passphrase":"ünïcödé 😀 passphrase","hours":null}`,
	},
	"notes_tag": {`{"id":"n1","add":["a","b-2"],"remove":["c"]}`},
	"notes_update": {
		`{"id":"n1","title":"T","body":"B","priority":5,"color":"#00AAff","attributes":{"k":""},` +
			`"data":{"x":[1,2.5,"s",null,true,{"y":{}}]},"if_checksum":"AAEC"}`,
		`{"id":"n12","data":null,"if_checksum":null}`,
		`{"id":"n3","attributes":` + fuzzObject(32) + `}`, // maxProperties 32: at the bound
	},
	"weather_forecast": {
		`{"place":"Lisbon","days":3,"units":"metric"}`,
		`{"place":{"lat":38.72,"lon":-9.14},"units":"imperial"}`,
	},
}

// fuzzTools is the registry the fuzz targets check through: every sample
// tool available.
func fuzzTools() []Tools {
	store := notes.NewDemoStore()
	return []Tools{
		clocktools.Tools{
			ClockSync: clock.SyncTool{Reference: func(context.Context) (time.Time, error) { return time.Time{}, nil }},
		},
		notestools.Tools{
			NotesCreate:  notes.CreateTool{Store: store},
			NotesDelete:  &notes.DeleteTool{Store: store},
			NotesGet:     &notes.GetTool{Store: store},
			NotesOutline: notes.OutlineTool{Store: store},
			NotesRender:  &notes.RenderTool{Store: store},
			NotesSearch:  notes.SearchTool{Store: store},
			NotesShare:   notes.ShareTool{Store: store},
			NotesTag:     notes.TagTool{Store: store},
			NotesUpdate:  notes.UpdateTool{Store: store},
		},
		weathertools.Tools{WeatherForecast: weather.ForecastTool{APIKey: "fuzz", Clock: fixedClock}},
	}
}

// fixedClock is the weather tool's clock in fuzzTools: with time.Now, the
// forecast's dates and issue hour change under a test that crosses the
// hour (TestConcurrentCalls compares every call with one made first).
func fixedClock() time.Time { return time.Date(2025, time.April, 1, 15, 4, 5, 0, time.UTC) }

// oracle decides what a tool's arguments should decode to: encoding/json
// into the Go type plus the published schema.
type oracle struct {
	schema *jsonschema.Schema
	root   map[string]any // the published schema, for $ref and required
}

// newOracle compiles the published input schema of the named tool.
func newOracle(t testing.TB, reg tool.Registry, name string) *oracle {
	t.Helper()
	sp, ok := reg.Lookup(name)
	require.True(t, ok, "tool %s is listed", name)
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(sp.InputSchema))
	require.NoError(t, err)
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	url := "mem:///" + name + ".json"
	require.NoError(t, c.AddResource(url, doc))
	sch, err := c.Compile(url)
	require.NoError(t, err)
	root, ok := doc.(map[string]any)
	require.True(t, ok, "schema of %s is an object", name)
	return &oracle{schema: sch, root: root}
}

// decode returns nil when the oracle accepts args, decoding them into v;
// otherwise why it refuses them.
func (o *oracle) decode(args []byte, v any) error {
	if !json.Valid(args) {
		return fmt.Errorf("encoding/json: not valid JSON")
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(args))
	if err != nil {
		return fmt.Errorf("jsonschema: %w", err)
	}
	doc = o.dropNulls(doc, o.root)
	if err := o.schema.Validate(doc); err != nil {
		return fmt.Errorf("schema: %w", err)
	}
	doc = o.upperDateTimes(doc, o.root)
	var canon bytes.Buffer
	enc := json.NewEncoder(&canon)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("re-encode: %w", err)
	}
	if err := json.Unmarshal(canon.Bytes(), v); err != nil {
		return fmt.Errorf("encoding/json: %w", err)
	}
	return nil
}

// resolve follows a local $ref of sch.
func (o *oracle) resolve(sch map[string]any) map[string]any {
	for range 16 {
		ref, ok := sch["$ref"].(string)
		if !ok {
			return sch
		}
		name, found := strings.CutPrefix(ref, "#/$defs/")
		defs, _ := o.root["$defs"].(map[string]any)
		next, ok := defs[name].(map[string]any)
		if !found || !ok {
			return sch
		}
		sch = next
	}
	return sch
}

// dropNulls removes the members that are null and not required from the
// objects of v that sch describes with properties, at every depth: the
// generated decoders read them as absent.
func (o *oracle) dropNulls(v any, sch map[string]any) any {
	if sch == nil {
		return v
	}
	sch = o.resolve(sch)
	switch v := v.(type) {
	case map[string]any:
		props, _ := sch["properties"].(map[string]any)
		required, _ := sch["required"].([]any)
		extra, _ := sch["additionalProperties"].(map[string]any)
		for k, x := range v {
			ps, isProp := props[k].(map[string]any)
			if x == nil && isProp && !slices.Contains(required, any(k)) {
				delete(v, k)
				continue
			}
			if !isProp {
				ps = extra
			}
			v[k] = o.dropNulls(x, ps)
		}
	case []any:
		items, _ := sch["items"].(map[string]any)
		for i, x := range v {
			v[i] = o.dropNulls(x, items)
		}
	}
	return v
}

// upperDateTimes writes the "t" and "z" of the date-times of v that sch
// describes (format date-time) in upper case, at every depth, as the
// generated decoder reads them: encoding/json accepts only upper case.
func (o *oracle) upperDateTimes(v any, sch map[string]any) any {
	if sch == nil {
		return v
	}
	sch = o.resolve(sch)
	switch x := v.(type) {
	case string:
		if sch["format"] == "date-time" && len(x) >= 20 {
			b := []byte(x)
			if b[10] == 't' {
				b[10] = 'T'
			}
			if b[len(b)-1] == 'z' {
				b[len(b)-1] = 'Z'
			}
			return string(b)
		}
	case map[string]any:
		props, _ := sch["properties"].(map[string]any)
		extra, _ := sch["additionalProperties"].(map[string]any)
		for k, y := range x {
			ps, isProp := props[k].(map[string]any)
			if !isProp {
				ps = extra
			}
			x[k] = o.upperDateTimes(y, ps)
		}
	case []any:
		items, _ := sch["items"].(map[string]any)
		for i, y := range x {
			x[i] = o.upperDateTimes(y, items)
		}
	}
	return v
}

// mustRefuse says why the generated decoder must refuse args whatever the
// oracle says (see the package comment), or "".
func mustRefuse(args []byte, lim codec.Limits) string {
	switch {
	case len(args) > lim.MaxBytes:
		return "larger than the size limit"
	case json.Valid(args) && !jsontext.Value(args).IsValid():
		return "duplicate names, invalid UTF-8 or a lone surrogate"
	case jsonDepth(args) > lim.MaxDepth:
		return "deeper than the depth limit"
	}
	return ""
}

// jsonDepth returns the deepest nesting of objects and arrays in data,
// ignoring brackets inside strings.
func jsonDepth(data []byte) int {
	depth, deepest := 0, 0
	inString := false
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '{' || c == '[':
			depth++
			deepest = max(deepest, depth)
		case c == '}' || c == ']':
			depth--
		}
	}
	return deepest
}

// fuzzSeedsFor returns the seeds of a tool: its valid bases and, made from
// them, every bad-input class of the core issue.
func fuzzSeedsFor(t testing.TB, name string) [][]byte {
	t.Helper()
	var seeds [][]byte
	add := func(s string) { seeds = append(seeds, []byte(s)) }
	// Arguments that are not an object, or not JSON at all.
	for _, s := range []string{``, ` `, `null`, `[]`, `"x"`, `42`, `true`, `{`, `{"a"}`, `{"a":}`, `{} {}`, `{,}`} {
		add(s)
	}
	for _, base := range fuzzBases[name] {
		add(base)
		add(base[:len(base)-1])                                          // truncated
		add(base + " ")                                                  // trailing space
		add(`{"zz_unknown":1,` + base[1:])                               // unknown property
		add(`{"\xff":1,` + base[1:])                                     // invalid UTF-8 in a name
		add(`{"` + string(rune(0x7f)) + `":1}`)                          // odd name
		add(base + strings.Repeat(" ", fuzzLimits.MaxBytes+1-len(base))) // too large (whitespace)
		var members map[string]json.RawMessage
		require.NoError(t, json.Unmarshal([]byte(base), &members))
		for k, v := range members {
			key, err := json.Marshal(k)
			require.NoError(t, err)
			// Duplicate member, first or last.
			add(`{` + string(key) + `:` + string(v) + `,` + base[1:])
			add(base[:len(base)-1] + `,` + string(key) + `:` + string(v) + `}`)
			// Missing: the base without this member.
			without := maps.Clone(members)
			delete(without, k)
			seeds = append(seeds, fuzzMarshal(t, without))
			// Every kind of wrong or edge value in its place.
			for _, bad := range []string{
				`null`, `true`, `0`, `-1`, `1.5`, `1e2`, `1.0`, `-0`, `99999999999999999999999`, `-9223372036854775809`,
				`""`, `"x"`, `"\ud800"`, "\"\xff\"", `"\u0000"`, `"2026-01-01T00:00:00Z"`, `"2026\u002d01-01T00:00:00Z"`, `"2026-01-01t00:00:00z"`,
				`"#ff8800"`, `"n0"`, `"n1\n"`, `[]`, `["a","a"]`, `[null]`, `[1]`, `{}`, `{"a":1,"a":2}`, `{"a":null}`,
				strings.Repeat("[", 20) + strings.Repeat("]", 20),
				fuzzObject(33), // past maxProperties 32
				strings.TrimSuffix(fuzzObject(33), "}") + `,"a1":""}`, // and a duplicate past it
				`"` + strings.Repeat("é", 201) + `"`,
			} {
				with := maps.Clone(members)
				with[k] = json.RawMessage(bad)
				seeds = append(seeds, fuzzMarshalRaw(with))
			}
		}
	}
	return seeds
}

// fuzzObject is a JSON object of n string members: "a1":"" and so on.
func fuzzObject(n int) string {
	members := make([]string, n)
	for i := range members {
		members[i] = fmt.Sprintf(`"a%d":""`, i+1)
	}
	return "{" + strings.Join(members, ",") + "}"
}

// fuzzMarshal encodes members as a JSON object.
func fuzzMarshal(t testing.TB, members map[string]json.RawMessage) []byte {
	t.Helper()
	data, err := json.Marshal(members)
	require.NoError(t, err)
	return data
}

// fuzzMarshalRaw writes members as a JSON object without checking them, so
// that invalid values survive.
func fuzzMarshalRaw(members map[string]json.RawMessage) []byte {
	b := []byte{'{'}
	for i, k := range slices.Sorted(maps.Keys(members)) {
		if i > 0 {
			b = append(b, ',')
		}
		key, _ := json.Marshal(k)
		b = append(b, key...)
		b = append(b, ':')
		b = append(b, members[k]...)
	}
	return append(b, '}')
}

// fuzzDecoder is the generated decoder of a tool's input type.
type fuzzDecoder[T any] func(d *codec.Decoder, v *T)

// fuzzTool runs the differential fuzz target of the named tool, whose
// generated decoder is decode.
func fuzzTool[T any](f *testing.F, name string, decode fuzzDecoder[T]) {
	reg, err := New(fuzzTools(), tool.WithLimits(fuzzLimits))
	require.NoError(f, err)
	o := newOracle(f, reg, name)
	for _, s := range fuzzSeedsFor(f, name) {
		f.Add(s)
	}
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, args []byte) {
		in := args
		if len(in) == 0 {
			in = []byte("{}") // empty arguments mean {}
		}
		d := codec.NewDecoder()
		d.Reset(in, fuzzLimits)
		var got T
		decode(d, &got)
		d.End()
		derr := d.Err()

		// The registry reports what its decoder found, as invalid arguments.
		cerr := reg.Check(ctx, name, args)
		require.Equal(t, derr == nil, cerr == nil, "Check agrees with the decoder: decoder %v, Check %v", derr, cerr)
		if cerr != nil {
			require.Equal(t, tool.CodeInvalidArguments, tool.CodeOf(cerr), "%v", cerr)
		}

		var want T
		oerr := o.decode(in, &want)
		if why := mustRefuse(in, fuzzLimits); why != "" {
			require.Error(t, derr, "arguments %s must be refused", why)
			return
		}
		if oerr != nil {
			require.Error(t, derr, "the oracle refuses the arguments (%v)", oerr)
			return
		}
		require.NoError(t, derr, "the oracle accepts the arguments")
		require.Equal(t, want, got, "the decoder and encoding/json agree")
	})
}

// noArguments is the input of a tool without arguments.
type noArguments struct{}

func FuzzClockNow(f *testing.F) {
	fuzzTool(f, "clock_now", func(d *codec.Decoder, _ *noArguments) { clockcodec.DecodeNoArguments(d) })
}

func FuzzClockWait(f *testing.F) { fuzzTool(f, "clock_wait", clockcodec.DecodeWaitInput) }

func FuzzClockZones(f *testing.F) { fuzzTool(f, "clock_zones", clockcodec.DecodeZonesInput) }

func FuzzNotesCreate(f *testing.F) { fuzzTool(f, "notes_create", notescodec.DecodeCreateInput) }

func FuzzNotesDelete(f *testing.F) { fuzzTool(f, "notes_delete", notescodec.DecodeDeleteInput) }

func FuzzNotesGet(f *testing.F) { fuzzTool(f, "notes_get", notescodec.DecodeGetInput) }

func FuzzNotesOutline(f *testing.F) { fuzzTool(f, "notes_outline", notescodec.DecodeOutlineInput) }

func FuzzNotesRender(f *testing.F) { fuzzTool(f, "notes_render", notescodec.DecodeRenderInput) }

func FuzzNotesSearch(f *testing.F) { fuzzTool(f, "notes_search", notescodec.DecodeSearchInput) }

func FuzzNotesShare(f *testing.F) { fuzzTool(f, "notes_share", notescodec.DecodeShareInput) }

func FuzzNotesTag(f *testing.F) { fuzzTool(f, "notes_tag", notescodec.DecodeTagInput) }

func FuzzNotesUpdate(f *testing.F) { fuzzTool(f, "notes_update", notescodec.DecodeUpdateInput) }

func FuzzWeatherForecast(f *testing.F) {
	fuzzTool(f, "weather_forecast", weathercodec.DecodeForecastInput)
}
