package dynamic_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/dynamic"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// searchSchema exercises the keywords a toolkit's schema commonly uses.
const searchSchema = `{"type":"object","properties":{` +
	`"query":{"type":"string","minLength":1,"maxLength":20,"pattern":"^[a-z ]+$"},` +
	`"limit":{"type":"integer","minimum":1,"maximum":50},` +
	`"ratio":{"type":"number","exclusiveMinimum":0,"exclusiveMaximum":1,"multipleOf":0.25},` +
	`"sort":{"enum":["relevance","newest","oldest"]},` +
	`"tags":{"type":"array","items":{"type":"string"},"minItems":1,"maxItems":3,"uniqueItems":true},` +
	`"when":{"type":"string","format":"date-time"},` +
	`"kind":{"const":"note"},` +
	`"filter":{"type":"object","properties":{"owner":{"type":"string"}},"required":["owner"],"additionalProperties":false},` +
	`"either":{"oneOf":[{"type":"string"},{"type":"integer"}]},` +
	`"any":{"anyOf":[{"type":"string"},{"type":"boolean"}]},` +
	`"no":{"not":{"type":"string"}}` +
	`},"required":["query"],"additionalProperties":false}`

// searchTool registers a toolkit of one tool taking searchSchema and
// returns it.
func searchTool(t testing.TB, opts *dynamic.Options) tool.Dynamic {
	t.Helper()
	s, err := dynamic.New(nil, opts)
	require.NoError(t, err)
	sp := &tool.Spec{Name: "search", InputSchema: []byte(searchSchema)}
	require.NoError(t, s.Register(context.Background(), newFake("notes", sp)))
	d, ok := s.Lookup(context.Background(), "notes_search")
	require.True(t, ok)
	return d
}

func TestValidationErrors(t *testing.T) {
	t.Parallel()
	d := searchTool(t, &dynamic.Options{Limits: codec.Limits{MaxBytes: 4096, MaxDepth: 8}})
	for _, tc := range []struct {
		name, args, want string
	}{
		{"valid", `{"query":"go","limit":5,"ratio":0.5,"sort":"newest","tags":["a"],"when":"2025-03-20T12:00:00Z","kind":"note","filter":{"owner":"ana"},"either":1,"any":true,"no":1}`, ""},
		{"empty is {}", ``, "invalid arguments: /query: required property is missing"},
		{"missing and unknown", `{"colour":"red","bad key!":1}`,
			"invalid arguments: /<key>: unknown property (additional properties are not allowed); /colour: unknown property (additional properties are not allowed); /query: required property is missing"},
		{"string bounds", `{"query":""}`, "invalid arguments: /query: must be at least 1 character long; /query: must match the pattern ^[a-z ]+$"},
		{"max length", `{"query":"aaaaaaaaaaaaaaaaaaaaaaaaa"}`, "invalid arguments: /query: must be at most 20 characters long"},
		{"type", `{"query":"go","limit":"five"}`, "invalid arguments: /limit: expected integer, got string"},
		{"integer bounds", `{"query":"go","limit":500}`, "invalid arguments: /limit: must be at most 50"},
		{"minimum", `{"query":"go","limit":0}`, "invalid arguments: /limit: must be at least 1"},
		{"number bounds", `{"query":"go","ratio":1}`, "invalid arguments: /ratio: must be less than 1"},
		{"exclusive minimum", `{"query":"go","ratio":0}`, "invalid arguments: /ratio: must be greater than 0"},
		{"multiple of", `{"query":"go","ratio":0.3}`, "invalid arguments: /ratio: must be a multiple of 0.25"},
		{"enum", `{"query":"go","sort":"random"}`, `invalid arguments: /sort: must be one of "relevance", "newest", "oldest"`},
		{"const", `{"query":"go","kind":"task"}`, `invalid arguments: /kind: must be "note"`},
		{"items", `{"query":"go","tags":["a","a",1,"b"]}`,
			"invalid arguments: /tags: items 0 and 1 are equal (items must be unique); /tags: must have at most 3 items; /tags/2: expected string, got number"},
		{"unique", `{"query":"go","tags":["a","a"]}`, "invalid arguments: /tags: items 0 and 1 are equal (items must be unique)"},
		{"min items", `{"query":"go","tags":[]}`, "invalid arguments: /tags: must have at least 1 item"},
		{"format", `{"query":"go","when":"yesterday"}`, "invalid arguments: /when: must be a valid date-time"},
		{"nested", `{"query":"go","filter":{"x":1}}`,
			"invalid arguments: /filter/owner: required property is missing; /filter/x: unknown property (additional properties are not allowed)"},
		{"oneOf", `{"query":"go","either":true}`, "invalid arguments: /either: must match exactly one of the schemas of oneOf, and matches none"},
		{"anyOf", `{"query":"go","any":1}`, "invalid arguments: /any: must match at least one of the schemas of anyOf"},
		{"not", `{"query":"go","no":"s"}`, "invalid arguments: /no: must not match the schema of not"},
		{"not an object", `["go"]`, "invalid arguments: (root): expected object, got array"},
		{"null", `null`, "invalid arguments: (root): expected object, got null"},
		{"malformed", `{"query":"go"`, "invalid arguments: (root): malformed JSON at byte 13: unexpected end of input"},
		{"trailing", `{"query":"go"} x`, "invalid arguments: (root): unexpected data after the top-level value"},
		{"duplicate", `{"query":"go","query":"again"}`, "invalid arguments: /<key 1>: duplicate property"},
		{"too deep", `{"query":"go","filter":` + strings.Repeat("[", 10) + strings.Repeat("]", 10) + `}`,
			"invalid arguments: /<key 1>/0/0/0/0/0/0/0: nesting deeper than 8 levels"},
		{"too large", `{"query":"` + strings.Repeat("a", 5000) + `"}`, "invalid arguments: (root): arguments are larger than 4096 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			err := d.Check(context.Background(), []byte(tc.args))
			if tc.want == "" {
				require.NoError(t, err)
				return
			}
			var te *tool.Error
			require.ErrorAs(t, err, &te)
			assert.Equal(t, tool.CodeInvalidArguments, te.Code)
			assert.Equal(t, "notes_search", te.Tool)
			assert.Equal(t, tc.want, te.Message)
		})
	}
}

// Numbers reach the validator as their literal: an integer past float64's
// precision is judged as sent, not as the nearest float64.
func TestValidationKeepsNumberPrecision(t *testing.T) {
	t.Parallel()
	s, err := dynamic.New(nil, nil)
	require.NoError(t, err)
	sp := &tool.Spec{Name: "big", InputSchema: []byte(`{"type":"object","properties":{"n":{"type":"integer","maximum":9007199254740992}}}`)}
	require.NoError(t, s.Register(context.Background(), newFake("ids", sp)))
	d, ok := s.Lookup(context.Background(), "ids_big")
	require.True(t, ok)
	require.NoError(t, d.Check(context.Background(), []byte(`{"n":9007199254740992}`)))
	// As a float64, 2^53+1 rounds to 2^53 and would pass.
	err = d.Check(context.Background(), []byte(`{"n":9007199254740993}`))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "/n: must be at most 9007199254740992")
}

func TestValidationCapsProblems(t *testing.T) {
	t.Parallel()
	d := searchTool(t, nil)
	var b strings.Builder
	b.WriteString(`{"query":"go"`)
	for i := range 30 {
		b.WriteString(`,"p` + string(rune('a'+i%26)) + string(rune('a'+i/26)) + `":1`)
	}
	b.WriteString(`}`)
	err := d.Check(context.Background(), []byte(b.String()))
	require.Error(t, err)
	assert.True(t, strings.HasSuffix(err.Error(), "; ... and 10 more"), err.Error())
}

// FuzzValidationNeverEchoes: a secret-looking value placed anywhere in the
// arguments, valid or not, never appears in the message.
func FuzzValidationNeverEchoes(f *testing.F) {
	d := searchTool(f, nil)
	f.Add("sk-live-0123456789", uint8(0))
	f.Add("sk-<script>alert(1)</script>", uint8(3))
	f.Add("sk-relevance", uint8(5))
	f.Add("sk-2025-03-20T12:00:00Z", uint8(7))
	f.Fuzz(func(t *testing.T, secret string, where uint8) {
		secret = "sk-" + secret
		if len(secret) < 6 {
			return
		}
		raw, err := json.Marshal(secret)
		require.NoError(t, err)
		s := string(raw)
		args := []string{
			`{"query":` + s + `}`,
			`{"query":"go","limit":` + s + `}`,
			`{"query":"go","sort":` + s + `}`,
			`{"query":"go","tags":[` + s + `,` + s + `]}`,
			`{"query":"go","filter":{"owner":` + s + `,"x":` + s + `}}`,
			`{"query":"go","kind":` + s + `}`,
			`{"query":"go","no":` + s + `}`,
			`{"query":"go","when":` + s + `}`,
			`[` + s + `]`,
			`{"query":` + s,
		}[int(where)%10]
		err = d.Check(context.Background(), []byte(args))
		if err == nil {
			return
		}
		assert.NotContains(t, err.Error(), secret)
		assert.NotContains(t, err.Error(), s)
		if len(secret) > 12 {
			assert.NotContains(t, err.Error(), secret[3:])
		}
	})
}
