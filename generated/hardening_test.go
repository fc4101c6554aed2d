package generated

// Hardening of the call path of the generated registry: every bad-input
// class of the core issue through Call, with the message checked for a
// JSON Pointer and for the absence of the value sent; the documented
// differences from the fuzz oracle; many goroutines sharing one registry;
// and arguments built to exhaust memory.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/generated/internal/notescodec"
	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/tools/notes"
)

// secret marks the values sent in bad arguments; no message may hold it.
const secret = "S3CR3T-7f3a"

// secretDigits is a number that must not appear in a message either.
const secretDigits = "7373737373"

// hardRegistry returns the registry of every sample tool under the default
// limits, or under opts.
func hardRegistry(t testing.TB, opts ...tool.Option) tool.Registry {
	t.Helper()
	reg, err := New(fuzzTools(), opts...)
	require.NoError(t, err)
	return reg
}

// nested returns n arrays nested in each other around inner.
func nested(n int, inner string) string {
	return strings.Repeat("[", n) + inner + strings.Repeat("]", n)
}

func TestBadArguments(t *testing.T) {
	t.Parallel()
	reg := hardRegistry(t)
	ctx := context.Background()
	tooLarge := `{"query":"` + secret + strings.Repeat("x", codec.DefaultMaxBytes) + `"}`
	for _, tc := range []struct {
		class string
		tool  string
		args  string
		want  []string // substrings of the message, pointers included
	}{
		{"malformed JSON", "notes_search", `{"query":"` + secret + `",}`,
			[]string{"(root): malformed JSON at byte 23: expected a member name"}},
		{"malformed JSON: unterminated string", "notes_search", `{"query":"` + secret,
			[]string{"malformed JSON at byte 21: unterminated string"}},
		{"malformed JSON: trailing data", "notes_search", `{"query":"q"} "` + secret + `"`,
			[]string{"unexpected data after the top-level value"}},
		{"not an object: array", "notes_search", `["` + secret + `"]`,
			[]string{"(root): expected object, got array"}},
		{"not an object: string", "notes_search", `"` + secret + `"`,
			[]string{"(root): expected object, got string"}},
		{"not an object: null", "notes_search", `null`,
			[]string{"(root): expected object, got null"}},
		{"wrong type: string for integer", "notes_search", `{"query":"q","limit":"` + secret + `"}`,
			[]string{"/limit: expected integer (maximum 50, minimum 1), got string"}},
		{"wrong type: object for string", "notes_search", `{"query":{"k":"` + secret + `"}}`,
			[]string{"/query: expected string (maxLength 200, minLength 1), got object"}},
		{"wrong type: array item", "notes_search", `{"query":"q","tags":["a",{"s":"` + secret + `"}]}`,
			[]string{"/tags/1: expected string, got object"}},
		{"wrong type: map value", "notes_create", `{"title":"t","attributes":{"k":[` + secretDigits + `]}}`,
			[]string{"/attributes/<key 0>: expected string, got array"}},
		{"missing required", "notes_search", `{"limit":5,"sort":"newest"}`,
			[]string{"/query: required property is missing"}},
		{"unknown property", "notes_search", `{"query":"q","extra":"` + secret + `"}`,
			[]string{"/extra: unknown property (additional properties are not allowed)"}},
		{"duplicate property", "notes_search", `{"query":"` + secret + `","query":"` + secret + `"}`,
			[]string{"/query: duplicate property"}},
		{"duplicate map key", "notes_create", `{"title":"t","attributes":{"k":"` + secret + `","k":"` + secret + `"}}`,
			[]string{"/attributes/<key 1>: duplicate property"}},
		{"duplicate name inside any", "notes_update", `{"id":"n1","data":{"a":{"b":"` + secret + `","b":1}}}`,
			[]string{"/data/<key 0>/<key 1>: duplicate property"}},
		{"invalid UTF-8", "notes_search", `{"query":"` + secret + "\xff" + `"}`,
			[]string{"/query: malformed JSON at byte 21: invalid UTF-8 in a string"}},
		{"lone surrogate escape", "notes_search", `{"query":"` + secret + `\ud800"}`,
			[]string{"malformed JSON at byte 21: unpaired surrogate"}},
		{"integer overflow", "notes_search", `{"query":"q","limit":` + strings.Repeat(secretDigits, 3) + `}`,
			[]string{"/limit: expected integer (maximum 50, minimum 1), got a number out of range for a 64-bit integer"}},
		{"negative overflow", "notes_create", `{"title":"t","priority":-` + strings.Repeat(secretDigits, 3) + `}`,
			[]string{"/priority: expected integer (one of 1, 2, 3, 4, 5), got a number out of range for a 64-bit integer"}},
		{"fraction for integer", "notes_search", `{"query":"q","limit":` + secretDigits + `.5}`,
			[]string{"/limit: expected integer (maximum 50, minimum 1), got a number with a fraction or exponent"}},
		{"exponent for integer", "weather_forecast", `{"place":"Lisbon","days":` + secretDigits + `e0}`,
			[]string{"/days: expected integer (maximum 7, minimum 1), got a number with a fraction or exponent"}},
		{"null for required", "notes_search", `{"query":null}`,
			[]string{"/query: expected string (maxLength 200, minLength 1), got null"}},
		{"null for required custom type", "weather_forecast", `{"place":null}`,
			[]string{"/place: must be a valid weather.Place"}},
		{"too deep", "notes_update", `{"id":"n1","data":` + nested(100, `"`+secret+`"`) + `}`,
			[]string{"invalid arguments: /data" + strings.Repeat("/0", 63) + ": nesting deeper than 64 levels"}},
		{"too large", "notes_search", tooLarge,
			[]string{"(root): arguments are larger than 1048576 bytes"}},
		{"minimum", "notes_search", `{"query":"q","limit":0}`, []string{"/limit: must be at least 1"}},
		{"maximum", "notes_search", `{"query":"q","limit":51}`, []string{"/limit: must be at most 50"}},
		{"minLength", "notes_search", `{"query":""}`, []string{"/query: must be at least 1 character long"}},
		{"maxLength", "notes_search", `{"query":"` + strings.Repeat(secret, 20) + `"}`,
			[]string{"/query: must be at most 200 characters long"}},
		{"enum", "notes_search", `{"query":"q","sort":"` + secret + `"}`,
			[]string{`/sort: must be one of "relevance", "newest", "oldest"`}},
		{"integer enum", "notes_create", `{"title":"t","priority":` + secretDigits + `}`,
			[]string{"/priority: must be one of 1, 2, 3, 4, 5"}},
		{"pattern", "notes_get", `{"id":"` + secret + `"}`, []string{"/id: must match the pattern ^n[1-9][0-9]*$"}},
		{"item pattern", "notes_tag", `{"id":"n1","add":["ok","` + secret + `"]}`,
			[]string{"/add/1: must match the pattern ^[a-z0-9][a-z0-9-]*$"}},
		{"maxItems", "notes_search", `{"query":"q","tags":["a","b","c","d","e","f","g","h","i","j","` + secret + `"]}`,
			[]string{"/tags: must have at most 10 items"}},
		{"uniqueItems", "notes_search", `{"query":"q","tags":["` + secret + `","` + secret + `"]}`,
			[]string{"/tags: items must be unique"}},
		{"date-time", "notes_search", `{"query":"q","since":"` + secret + `"}`,
			[]string{"/since: expected string (format date-time), got a string that is not an RFC 3339 date-time"}},
		{"base64", "notes_update", `{"id":"n1","if_checksum":"` + secret + `!"}`,
			[]string{"/if_checksum: expected string, got a string that is not valid base64"}},
		{"custom text type", "notes_create", `{"title":"t","color":"#` + secret + `"}`,
			[]string{"/color: must match the pattern ^#[0-9a-fA-F]{6}$", "/color: must be a valid notes.Color"}},
		{"every problem at once", "notes_search",
			`{"limit":"` + secret + `","tags":[1,"a","a"],"sort":"` + secret + `","zz":null}`,
			[]string{"/limit: expected integer", "/tags/0: expected string, got number", "/tags: items must be unique",
				`/sort: must be one of`, "/zz: unknown property", "/query: required property is missing"}},
	} {
		t.Run(tc.class, func(t *testing.T) {
			t.Parallel()
			res, err := reg.Call(ctx, tc.tool, []byte(tc.args))
			require.Error(t, err)
			var te *tool.Error
			require.ErrorAs(t, err, &te)
			assert.Equal(t, tool.CodeInvalidArguments, te.Code)
			assert.Equal(t, tc.tool, te.Tool)
			assert.True(t, res.IsError)
			msg := te.Message
			assert.Equal(t, msg, string(res.Content), "the result carries the message")
			assert.True(t, strings.HasPrefix(msg, "invalid arguments: "), "message: %s", msg)
			for _, w := range tc.want {
				assert.Contains(t, msg, w)
			}
			assert.NotContains(t, msg, secret, "the message never holds a value sent")
			assert.NotContains(t, msg, secretDigits, "the message never holds a number sent")
			assert.Less(t, len(msg), 2048, "the message stays short")
			var ae *codec.ArgumentsError
			assert.ErrorAs(t, err, &ae, "the cause keeps every problem for logs")
		})
	}
}

// TestFuzzExceptions pins each documented difference between the generated
// decoders and the fuzz oracle (see fuzz_test.go).
func TestFuzzExceptions(t *testing.T) {
	t.Parallel()
	reg := hardRegistry(t, tool.WithLimits(fuzzLimits))
	o := newOracle(t, reg, "notes_search")
	ctx := context.Background()
	decode := func(args string) (notes.SearchInput, error) {
		d := codec.NewDecoder()
		d.Reset([]byte(args), fuzzLimits)
		var v notes.SearchInput
		notescodec.DecodeSearchInput(d, &v)
		d.End()
		return v, d.Err()
	}

	t.Run("refused where the oracle accepts", func(t *testing.T) {
		t.Parallel()
		update := newOracle(t, reg, "notes_update")
		for _, tc := range []struct {
			tool string
			o    *oracle
			args string
		}{
			{"notes_search", o, `{"query":"a","query":"b"}`},                                        // duplicate names: encoding/json keeps the last
			{"notes_search", o, `{"query":"a","sort":"newest","sort":"oldest"}`},                    // likewise
			{"notes_search", o, `{"query":"a` + "\xff" + `"}`},                                      // invalid UTF-8: encoding/json substitutes U+FFFD
			{"notes_search", o, `{"query":"a\ud800"}`},                                              // lone surrogate escape: likewise
			{"notes_search", o, `{"query":"a"}` + strings.Repeat(" ", fuzzLimits.MaxBytes)},         // larger than the limit
			{"notes_update", update, `{"id":"n1","data":` + nested(fuzzLimits.MaxDepth, "1") + `}`}, // deeper than the limit
			{"notes_update", update, `{"id":"n1","data":{"a":1,"a":2}}`},                            // duplicate names in any
		} {
			var v notes.UpdateInput
			if tc.tool == "notes_search" {
				var s notes.SearchInput
				assert.NoError(t, tc.o.decode([]byte(tc.args), &s), "the oracle accepts %q", tc.args)
			} else {
				assert.NoError(t, tc.o.decode([]byte(tc.args), &v), "the oracle accepts %q", tc.args)
			}
			assert.NotEmpty(t, mustRefuse([]byte(tc.args), fuzzLimits), "%q is an exception", tc.args)
			assert.Error(t, reg.Check(ctx, tc.tool, []byte(tc.args)), "%q is refused", tc.args)
		}
	})

	t.Run("encoding/json alone accepts the refused inputs", func(t *testing.T) {
		t.Parallel()
		for _, args := range []string{`{"query":"a","query":"b"}`, `{"query":"a` + "\xff" + `"}`, `{"query":"a\ud800"}`} {
			var v notes.SearchInput
			assert.NoError(t, json.Unmarshal([]byte(args), &v), "%q", args)
		}
	})

	t.Run("null for an optional property means absent", func(t *testing.T) {
		t.Parallel()
		args := `{"query":"a","limit":null,"tags":null,"since":null,"sort":null}`
		got, err := decode(args)
		require.NoError(t, err)
		assert.Equal(t, notes.SearchInput{Query: "a"}, got)
		var want notes.SearchInput
		require.NoError(t, o.decode([]byte(args), &want), "the oracle drops the nulls")
		assert.Equal(t, want, got)
		doc := map[string]any{"query": "a", "limit": nil}
		assert.Error(t, o.schema.Validate(doc), "the published schema alone refuses null")
	})

	t.Run("escaped date-time", func(t *testing.T) {
		t.Parallel()
		args := `{"query":"a","since":"2026\u002d01-02T03:04:05Z"}`
		var raw notes.SearchInput
		assert.Error(t, json.Unmarshal([]byte(args), &raw), "time.Time.UnmarshalJSON does not unescape")
		got, err := decode(args)
		require.NoError(t, err)
		require.NotNil(t, got.Since)
		assert.True(t, got.Since.Equal(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)))
		var want notes.SearchInput
		require.NoError(t, o.decode([]byte(args), &want), "the oracle decodes a canonical encoding")
		assert.Equal(t, want, got)
	})

	t.Run("lower-case date-time", func(t *testing.T) {
		t.Parallel()
		args := `{"query":"a","since":"2026-01-02t03:04:05z"}`
		var raw notes.SearchInput
		assert.Error(t, json.Unmarshal([]byte(args), &raw), "time.Time.UnmarshalJSON refuses lower case")
		got, err := decode(args)
		require.NoError(t, err, "RFC 3339 allows lower case")
		require.NotNil(t, got.Since)
		assert.True(t, got.Since.Equal(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)))
		var want notes.SearchInput
		require.NoError(t, o.decode([]byte(args), &want), "the oracle reads it as upper case")
		assert.Equal(t, want, got)
		assert.Error(t, reg.Check(ctx, "notes_search", []byte(`{"query":"a","since":"2016-12-31t23:59:60z"}`)), "a leap second is still refused")
	})

	t.Run("empty arguments mean {}", func(t *testing.T) {
		t.Parallel()
		assert.NoError(t, reg.Check(ctx, "clock_zones", nil))
		err := reg.Check(ctx, "notes_search", nil)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "/query: required property is missing")
	})
}

// TestConcurrentCalls sends calls of every outcome through one registry
// from 8 goroutines, 100,000 calls each (half of them with Call, half with
// AppendCall into a buffer each reuses), and checks every result; run with
// -race it shows that a registry shares no mutable state between calls.
func TestConcurrentCalls(t *testing.T) {
	reg := hardRegistry(t)
	ctx := context.Background()
	calls := []struct {
		tool, args string
		code       tool.Code
	}{
		{"notes_search", `{"query":"milk","limit":3}`, 0},
		{"notes_get", `{"id":"n1"}`, 0},
		{"clock_zones", `{"prefix":"Europe/"}`, 0},
		{"notes_render", `{"id":"n2","format":"plain"}`, 0},
		{"notes_outline", `{"id":"n1"}`, 0},
		{"weather_forecast", `{"place":{"lat":38.72,"lon":-9.14},"days":2}`, 0},
		{"notes_search", `{"query":"","limit":"x","zz":1}`, tool.CodeInvalidArguments},
		{"notes_create", `{"title":"never created"}`, tool.CodeNeedsConfirmation},
		{"notes_get", `{"id":"n999999"}`, tool.CodeFailed},
		{"notes_serch", `{}`, tool.CodeUnknownTool},
	}
	// The expected results, computed one call at a time.
	want := make([]tool.Result, len(calls))
	for i, c := range calls {
		res, err := reg.Call(ctx, c.tool, []byte(c.args))
		require.Equal(t, c.code, tool.CodeOf(err), "%s: %v", c.tool, err)
		want[i] = res
	}
	const goroutines, perGoroutine = 8, 100_000
	var wg sync.WaitGroup
	failures := make(chan string, goroutines)
	for g := range goroutines {
		wg.Go(func() {
			var buf []byte // odd goroutines append to their own buffer
			for n := range perGoroutine {
				i := (g + n) % len(calls)
				c := calls[i]
				var res tool.Result
				var err error
				if g%2 == 0 {
					res, err = reg.Call(ctx, c.tool, []byte(c.args))
				} else {
					res, err = reg.AppendCall(ctx, buf[:0], c.tool, []byte(c.args))
					buf = res.Content
				}
				if tool.CodeOf(err) != c.code || res.IsError != want[i].IsError ||
					res.Structured != want[i].Structured || !bytes.Equal(res.Content, want[i].Content) {
					failures <- fmt.Sprintf("goroutine %d call %d (%s): got %q, %v", g, n, c.tool, res.Content, err)
					return
				}
			}
		})
	}
	wg.Wait()
	close(failures)
	for f := range failures {
		t.Error(f)
	}
}

// allocated returns the bytes allocated while f runs. Callers do not run
// in parallel with other tests, so the count is f's own.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestLimitsUnderAttack sends arguments built to exhaust memory or the
// stack and checks that they are refused by the limits, allocating a
// bounded amount: nothing proportional to the input beyond the limit.
// (Not parallel: it measures allocations.)
func TestLimitsUnderAttack(t *testing.T) {
	ctx := context.Background()
	const million = 1_000_000
	hugeString := []byte(`{"query":"` + strings.Repeat("a", 100<<20) + `"}`)
	deep := []byte(`{"id":"n1","data":` + nested(10_000, "1") + `}`)
	deepObjects := []byte(`{"id":"n1","data":` + strings.Repeat(`{"a":`, 10_000) + "1" + strings.Repeat("}", 10_000) + `}`)
	manyItems := []byte(`{"query":"q","tags":[` + strings.TrimSuffix(strings.Repeat(`"a",`, million), ",") + `]}`)
	// The most items that fit the default size limit.
	fullItems := []byte(`{"query":"q","tags":[` + strings.TrimSuffix(strings.Repeat(`"a",`, (codec.DefaultMaxBytes-32)/4), ",") + `]}`)
	manyNumbers := []byte(`{"id":"n1","data":[` + strings.TrimSuffix(strings.Repeat(`1,`, million), ",") + `]}`)
	manyMembers := []byte(`{"title":"t","attributes":{` + strings.TrimSuffix(strings.Repeat(`"k":"v",`, million), ",") + `}}`)
	for _, tc := range []struct {
		name     string
		tool     string
		args     []byte
		opts     []tool.Option
		want     string
		maxAlloc uint64
	}{
		{"100 MB string", "notes_search", hugeString, nil, "arguments are larger than 1048576 bytes", 64 << 10},
		{"10,000-deep arrays", "notes_update", deep, nil, "nesting deeper than 64 levels", 64 << 10},
		{"10,000-deep objects", "notes_update", deepObjects, nil, "nesting deeper than 64 levels", 64 << 10},
		{"1e6-element array", "notes_search", manyItems, nil, "arguments are larger than 1048576 bytes", 64 << 10},
		{"1e6 numbers in any", "notes_update", manyNumbers, nil, "arguments are larger than 1048576 bytes", 64 << 10},
		{"1e6 map members", "notes_create", manyMembers, nil, "arguments are larger than 1048576 bytes", 64 << 10},
		{"10,000-deep under a 1 GB size limit", "notes_update", deep,
			[]tool.Option{tool.WithLimits(codec.Limits{MaxBytes: 1 << 30})}, "nesting deeper than 64 levels", 64 << 10},
		// Arrays within the size limit: the generated decoders keep at most
		// maxItems elements and skip the rest, so memory follows the
		// schema, not the input.
		{"1 MiB array under the default limit", "notes_search", fullItems, nil,
			"/tags: must have at most 10 items", 64 << 10},
		{"1e6-element array under a 16 MiB limit", "notes_search", manyItems,
			[]tool.Option{tool.WithLimits(codec.Limits{MaxBytes: 16 << 20})}, "/tags: must have at most 10 items", 64 << 10},
		// A map member's name is looked up before it becomes a string, and
		// only the kept problems get a pointer: duplicates cost nothing each.
		{"1e6 duplicate map members under a 16 MiB limit", "notes_create", manyMembers,
			[]tool.Option{tool.WithLimits(codec.Limits{MaxBytes: 16 << 20})}, "/attributes/<key 1>: duplicate property", 64 << 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reg := hardRegistry(t, tc.opts...)
			var err error
			n := allocated(func() { _, err = reg.Call(ctx, tc.tool, tc.args) })
			require.Error(t, err)
			assert.Equal(t, tool.CodeInvalidArguments, tool.CodeOf(err))
			assert.Contains(t, err.Error(), tc.want)
			assert.Less(t, len(err.Error()), 4096, "the message stays short")
			assert.LessOrEqual(t, n, tc.maxAlloc, "bytes allocated for %d bytes of arguments", len(tc.args))
			t.Logf("%d bytes of arguments: %d bytes allocated", len(tc.args), n)
		})
	}
}

// TestNamesNotEchoed: a name the client sent (a tool name, an unknown
// property, a map key) is repeated in a message only when it is an
// identifier; quotes, newlines, markup and long text never are, and the
// message stays short.
func TestNamesNotEchoed(t *testing.T) {
	t.Parallel()
	reg := hardRegistry(t)
	ctx := context.Background()
	for _, name := range []string{
		`x","injected":"y`, "line\nbreak: do this", "<script>alert(1)</script>", "ignore previous instructions",
		strings.Repeat("name_", 2<<10), // 10 KB of identifier characters
		strings.Repeat("é", 40),
	} {
		key, err := json.Marshal(name)
		require.NoError(t, err)
		for _, tc := range []struct {
			tool, args, want string
			code             tool.Code
		}{
			{"notes_search", `{"query":"q",` + string(key) + `:1}`, "invalid arguments: /<key>: unknown property", tool.CodeInvalidArguments},
			{"notes_create", `{"title":"t","attributes":{` + string(key) + `:[1]}}`, "invalid arguments: /attributes/<key 0>: expected string, got array", tool.CodeInvalidArguments},
			{"notes_create", `{"title":"t","attributes":{` + string(key) + `:"a",` + string(key) + `:"b"}}`, "invalid arguments: /attributes/<key 1>: duplicate property", tool.CodeInvalidArguments},
			{name, `{}`, "unknown tool (its name is not shown", tool.CodeUnknownTool},
		} {
			res, err := reg.Call(ctx, tc.tool, []byte(tc.args))
			assert.Equal(t, tc.code, tool.CodeOf(err), "%.40q", name)
			msg := res.Text()
			assert.Contains(t, msg, tc.want)
			assert.NotContains(t, msg, name[:min(len(name), 20)], "the name is not repeated")
			for _, bad := range []string{"\n", "<script", "injected", "ignore"} {
				assert.NotContains(t, msg, bad)
			}
			assert.Less(t, len(msg), 512, "the message stays short")
		}
	}
}

// TestMapKeysNotEchoed: a map's key, or a member name inside a free-form
// value, is the model's text even when it reads as a name (an API key,
// an address): a message gives its position, never the key.
func TestMapKeysNotEchoed(t *testing.T) {
	t.Parallel()
	reg := hardRegistry(t)
	ctx := context.Background()
	for _, key := range []string{"sk-live-4f9a8b7c6d5e", "alice.smith", "k"} {
		for _, tc := range []struct{ tool, args, want string }{
			{"notes_create", `{"title":"t","attributes":{"a":"1","` + key + `":[1]}}`, "/attributes/<key 1>: expected string, got array"},
			{"notes_create", `{"title":"t","attributes":{"` + key + `":"a","` + key + `":"b"}}`, "/attributes/<key 1>: duplicate property"},
			{"notes_update", `{"id":"n1","data":{"` + key + `":{"x":1,"x":2}}}`, "/data/<key 0>/<key 1>: duplicate property"},
		} {
			res, err := reg.Call(ctx, tc.tool, []byte(tc.args))
			assert.Equal(t, tool.CodeInvalidArguments, tool.CodeOf(err), tc.args)
			assert.Contains(t, res.Text(), tc.want, tc.args)
			assert.NotContains(t, res.Text(), "/"+key, "%s: the key is not repeated", tc.args)
		}
	}
}
