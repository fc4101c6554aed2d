package palette_test

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/jsonlex"
	"github.com/toolgen-go/toolgen/runtime/jsontree"
	"github.com/toolgen-go/toolgen/runtime/palette"
	"github.com/toolgen-go/toolgen/runtime/provider"
	"github.com/toolgen-go/toolgen/runtime/skill"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/runtime/toolimpl"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// testSkills is a registry's skills.
func testSkills() *skill.Set {
	return skill.NewTable([]skill.Skill{
		{Name: "clock-zones", Description: "Time zones.", Body: "Use e_clock.\n"},
		{Name: "note-taking", Description: "Keeps notes tidy.", Body: "Search first.\n"},
		{Name: "notes-review", Description: "Reviews old notes.", Body: "Oldest first.\n"},
	})
}

// requesting returns a palette over the fixture's registry through a fake
// caller that withholds d_propose: the palette holds e_clock and a_read;
// request_tools may admit the notes group; request_skill the note*
// skills.
func requesting(t *testing.T, opts *palette.Options) (*palette.Palette, *fakeDC) {
	t.Helper()
	_, reg, _, _ := newFixture(t)
	f := &fakeDC{reg: reg, hide: map[string]bool{"d_propose": true}}
	if opts == nil {
		opts = &palette.Options{}
	}
	opts.Requestable = palette.Groups("notes")
	opts.Skills = testSkills()
	opts.RequestableSkills = skill.Patterns{"note*"}
	p, err := palette.New(f, reg.Tools(), palette.Names("a_read", "e_clock"), opts)
	require.NoError(t, err)
	return p, f
}

// offered returns the spec named name in p's offer.
func offered(t *testing.T, p *palette.Palette, name string) *tool.Spec {
	t.Helper()
	for _, s := range p.Offer(asAna()) {
		if s.Name == name {
			return s
		}
	}
	return nil
}

func TestMetaToolsAreOfferedInNameOrder(t *testing.T) {
	p, _ := requesting(t, nil)
	offer := p.Offer(asAna())
	assert.Equal(t, []string{"a_read", "e_clock", "request_skill", "request_tools"}, names(offer))
	rt, rs := offer[3], offer[2]
	assert.Equal(t, tool.KindAction, rt.Kind)
	assert.False(t, rt.ReadOnly, "request_tools mutates the palette")
	assert.Equal(t, tool.KindRead, rs.Kind)
	assert.True(t, rs.ReadOnly, "request_skill only changes the conversation's preamble")
	assert.Equal(t, palette.RequestOutputSchema, string(rt.OutputSchema))
}

func TestMetaToolSchemas(t *testing.T) {
	p, _ := requesting(t, nil)
	rt, rs := offered(t, p, palette.RequestTools), offered(t, p, palette.RequestSkill)
	require.NotNil(t, rt)
	require.NotNil(t, rs)
	// The catalog: what the palette could still admit (b_write; a_read is
	// in already, d_propose is not offered) and each one's description.
	assert.Equal(t, `{"type":"object","properties":{"names":{"type":"array","items":{"oneOf":[{"type":"string","const":"b_write","description":"Writes a note."}]},"minItems":1,"description":"Names from this catalog."}},"required":["names"],"additionalProperties":false}`,
		string(rt.InputSchema))
	assert.Equal(t, `{"type":"object","properties":{"names":{"type":"array","items":{"oneOf":[{"type":"string","const":"note-taking","description":"Keeps notes tidy."},{"type":"string","const":"notes-review","description":"Reviews old notes."}]},"minItems":1,"description":"Names from this catalog."}},"required":["names"],"additionalProperties":false}`,
		string(rs.InputSchema))
	assert.NotContains(t, rt.Description, "b_write", "the catalog is in the schema, never in free text")

	// Every provider's projection, golden, and in the form the provider
	// accepts: OpenAI strict (anyOf, no oneOf), Gemini's parameters,
	// Anthropic's schema as published (no combinator at the top level).
	var golden strings.Builder
	for _, spec := range []*tool.Spec{rs, rt} {
		pre, err := provider.Compute(spec)
		require.NoError(t, err)
		for _, proj := range []struct {
			name string
			p    provider.Projection
		}{{"openai_chat", pre.OpenAIChat}, {"openai_responses", pre.OpenAIResponses}, {"anthropic", pre.Anthropic}, {"gemini", pre.Gemini}} {
			golden.WriteString(spec.Name + " " + proj.name + "\n" + string(proj.p.JSON) + "\n")
			n, err := jsontree.Parse(proj.p.JSON)
			require.NoError(t, err)
			assert.Equal(t, string(proj.p.JSON), string(n.Compact()), "compact JSON")
			assert.Empty(t, proj.p.Reason, "%s %s", spec.Name, proj.name)
		}
		assert.True(t, pre.OpenAIChat.Strict, "strict: %s", pre.OpenAIChat.Reason)
		assert.True(t, pre.OpenAIResponses.Strict)
		assert.NotContains(t, string(pre.OpenAIChat.JSON), "oneOf", "strict mode refuses oneOf")
		assert.Contains(t, string(pre.OpenAIChat.JSON), `"items":{"anyOf":[{"type":"string","const":`)
		checkStrict(t, spec.Name, pre.OpenAIChat.JSON)
		assert.Equal(t, provider.FormParameters, pre.Gemini.Form)
		assert.Contains(t, string(pre.Gemini.JSON), `"items":{"anyOf":[{"description":`)
		assert.Contains(t, string(pre.Anthropic.JSON), `"input_schema":`+string(spec.InputSchema)+`}`, "Anthropic gets the schema as published")
	}
	checkGolden(t, "meta_tools.golden", golden.String())
}

// checkStrict checks an OpenAI definition's parameters against the rules
// of strict mode that runtime/provider's rule tests state: only the
// supported keywords, every object closed with every property required.
func checkStrict(t *testing.T, name string, def []byte) {
	t.Helper()
	allowed := map[string]bool{"type": true, "properties": true, "required": true, "additionalProperties": true, "items": true,
		"enum": true, "const": true, "anyOf": true, "description": true, "title": true, "minItems": true, "maxItems": true}
	n, err := jsontree.Parse(def)
	require.NoError(t, err)
	var walk func(n *jsontree.Node, ptr string)
	walk = func(n *jsontree.Node, ptr string) {
		require.Equal(t, jsonlex.Object, n.Kind, "%s%s", name, ptr)
		for _, m := range n.Members {
			assert.True(t, allowed[m.Key], "%s%s: %q is outside the strict subset", name, ptr, m.Key)
		}
		if typ := n.Get("type"); typ != nil && typ.Text == "object" {
			assert.Equal(t, "false", string(n.Get("additionalProperties").Compact()))
			var props, req []string
			for _, m := range n.Get("properties").Members {
				props = append(props, m.Key)
			}
			for _, it := range n.Get("required").Items {
				req = append(req, it.Text)
			}
			assert.Equal(t, props, req, "%s%s: every property is required", name, ptr)
			for _, m := range n.Get("properties").Members {
				walk(m.Value, ptr+"/properties/"+m.Key)
			}
		}
		if it := n.Get("items"); it != nil {
			walk(it, ptr+"/items")
		}
		if alt := n.Get("anyOf"); alt != nil {
			for _, it := range alt.Items {
				walk(it, ptr+"/anyOf")
			}
		}
	}
	walk(n.Get("function").Get("parameters"), "")
}

// checkGolden compares got with testdata/name, or rewrites it with
// -update.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "missing golden file; run go test ./runtime/palette -update")
	assert.Equal(t, string(want), got, "%s differs; run go test ./runtime/palette -update and review the diff", path)
}

func TestMetaToolSchemaIsStableWhileTheCatalogIs(t *testing.T) {
	p, _ := requesting(t, nil)
	first := offered(t, p, palette.RequestTools)
	for range 3 {
		assert.Same(t, first, offered(t, p, palette.RequestTools), "same set: the same spec, the same bytes")
	}
	q, _ := requesting(t, nil)
	assert.Equal(t, string(first.InputSchema), string(offered(t, q, palette.RequestTools).InputSchema), "deterministic")

	// The set changes: a new spec, then stable again.
	p2, _ := requesting(t, nil)
	require.NoError(t, p2.Add("e_clock")) // in already: no change
	assert.Equal(t, string(first.InputSchema), string(offered(t, p2, palette.RequestTools).InputSchema))
	skillSpec := offered(t, p, palette.RequestSkill)
	p.Admitted().Admit(mustSkill(t, "notes-review"))
	changed := offered(t, p, palette.RequestSkill)
	assert.NotSame(t, skillSpec, changed)
	assert.NotContains(t, string(changed.InputSchema), "notes-review", "an attached skill leaves the catalog")
	assert.Same(t, changed, offered(t, p, palette.RequestSkill))
}

func mustSkill(t *testing.T, name string) *skill.Skill {
	t.Helper()
	s, ok := testSkills().Lookup(name)
	require.True(t, ok)
	return s
}

func TestRequestToolsAdmission(t *testing.T) {
	p, f := requesting(t, nil)
	before := offered(t, p, palette.RequestTools)
	args := `{"names":["b_write","a_read","f_act","nope","bad name!","d_propose","request_tools","b_write"]}`
	res, err := p.Call(asAna(), palette.RequestTools, []byte(args))
	require.NoError(t, err)
	assert.True(t, res.Structured)
	assert.False(t, res.IsError)
	assert.Equal(t, `{"admitted":["b_write","a_read"],"rejected":[`+
		`{"name":"f_act","reason":"not in this agent's catalog"},`+
		`{"name":"nope","reason":"unknown tool"},`+
		`{"name":"an unknown name","reason":"unknown tool"},`+
		`{"name":"d_propose","reason":"not offered to you"},`+
		`{"name":"request_tools","reason":"unknown tool"}]}`, res.Text(),
		"admitted (already present reads as admitted), and each rejection named with its reason; a name that is not an identifier is not repeated")

	// The record: the call went through the caller's CallDynamic, with the
	// palette's Dynamic and the model's arguments.
	require.Len(t, f.dynamic, 1)
	d := f.dynamic[0]
	assert.Same(t, before, d.d.Spec(), "the Dynamic is request_tools as offered")
	assert.Equal(t, args, d.args)
	assert.False(t, d.readOnly)
	assert.Empty(t, f.calls)

	// The next turn's definitions hold b_write; the catalog is empty now,
	// so request_tools is not offered, and a call to it is unknown.
	assert.Equal(t, []string{"a_read", "b_write", "e_clock", "request_skill"}, names(p.Offer(asAna())))
	_, err = p.Call(asAna(), "b_write", nil)
	require.NoError(t, err)
	_, err = p.Call(asAna(), palette.RequestTools, []byte(`{"names":["b_write"]}`))
	assert.Equal(t, tool.CodeUnknownTool, tool.CodeOf(err))
	assert.Len(t, f.dynamic, 1)
}

func TestRequestToolsWithABareRegistry(t *testing.T) {
	// A caller that is not a Recorder: the palette runs the
	// meta-tool itself.
	_, reg, _, _ := newFixture(t)
	p, err := palette.New(reg, reg.Tools(), palette.Names("e_clock"), &palette.Options{Requestable: palette.Kinds(tool.KindRead)})
	require.NoError(t, err)
	res, err := p.Call(asAna(), palette.RequestTools, []byte(`{"names":["a_read"]}`))
	require.NoError(t, err)
	assert.Equal(t, `{"admitted":["a_read"],"rejected":[]}`, res.Text())
	assert.Equal(t, []string{"a_read", "e_clock"}, names(p.Tools()))
}

func TestRequestArgumentsAreChecked(t *testing.T) {
	p, f := requesting(t, nil)
	cases := []struct{ args, want string }{
		{`{"names":[]}`, "invalid arguments: /names: must have at least 1 item"},
		{`{"names":"b_write"}`, "invalid arguments: /names: expected array, got string"},
		{`{"names":["b_write",7]}`, "invalid arguments: /names/1: expected string, got number"},
		{`{}`, "invalid arguments: /names: required property is missing"},
		{`{"names":["b_write"],"why":"x"}`, "invalid arguments: /why: unknown property (additional properties are not allowed)"},
		{`{"names":["b_write"],"<b>":"x"}`, "invalid arguments: /<key>: unknown property (additional properties are not allowed)"},
		{`[]`, "invalid arguments: (root): expected object, got array"},
		{`{"names":["a"`, "invalid arguments: (root): expected a JSON object (the arguments are malformed or name a member twice)"},
		{`{"names":[` + strings.Repeat(`"b_write",`, 64) + `"b_write"]}`, "invalid arguments: /names: must have at most 64 items"},
	}
	for _, c := range cases {
		res, err := p.Call(asAna(), palette.RequestTools, []byte(c.args))
		var te *tool.Error
		require.ErrorAs(t, err, &te, c.args)
		assert.Equal(t, tool.CodeInvalidArguments, te.Code, c.args)
		assert.Equal(t, c.want, te.Message, c.args)
		assert.True(t, res.IsError)
		assert.Equal(t, c.want, res.Text())
	}
	require.Len(t, f.dynamic, len(cases))
	for i, c := range cases {
		err := f.dynamic[i].d.Check(context.Background(), []byte(c.args))
		assert.Equal(t, c.want, err.Error(), "Check fails as Call does")
	}
	assert.NoError(t, f.dynamic[0].d.Check(context.Background(), []byte(`{"names":["x"]}`)), "Check leaves admission to the call")
	assert.Equal(t, []string{"a_read", "e_clock"}, names(p.Tools()), "nothing admitted")
}

func TestRequestSkill(t *testing.T) {
	conv := &skill.Admitted{}
	p, f := requesting(t, &palette.Options{Admitted: conv})
	assert.Same(t, conv, p.Admitted(), "the conversation's own")
	res, err := p.Call(asAna(), palette.RequestSkill, []byte(`{"names":["note-taking","clock-zones","ghost","Bad Name","note-taking"]}`))
	require.NoError(t, err)
	assert.Equal(t, `{"admitted":["note-taking"],"rejected":[`+
		`{"name":"clock-zones","reason":"not in this agent's catalog"},`+
		`{"name":"ghost","reason":"unknown skill"},`+
		`{"name":"an unknown name","reason":"unknown skill"}]}`, res.Text())
	assert.Contains(t, conv.Preamble(), "<name>note-taking</name>", "attached: it rides the preamble from now on")
	assert.NotContains(t, conv.Preamble(), "clock-zones")
	require.Len(t, f.dynamic, 1)
	assert.Equal(t, palette.RequestSkill, f.dynamic[0].d.Spec().Name)

	res, err = p.Call(asAna(), palette.RequestSkill, []byte(`{"names":["note-taking","notes-review"]}`))
	require.NoError(t, err)
	assert.Equal(t, `{"admitted":["note-taking","notes-review"],"rejected":[]}`, res.Text(), "already attached reads as admitted")
	assert.Nil(t, offered(t, p, palette.RequestSkill), "nothing left to attach: not offered")
	_, err = p.Call(asAna(), palette.RequestSkill, []byte(`{"names":["notes-review"]}`))
	assert.Equal(t, tool.CodeUnknownTool, tool.CodeOf(err))
}

func TestReadOnlyPaletteSweepsRequestToolsKeepsRequestSkill(t *testing.T) {
	p, f := requesting(t, &palette.Options{ReadOnly: true})
	assert.Equal(t, []string{"request_tools"}, p.Swept(), "request_tools can admit any tool: swept like a mutating one")
	assert.Equal(t, []string{"a_read", "e_clock", "request_skill"}, names(p.Offer(asAna())))

	res, err := p.Call(asAna(), palette.RequestTools, []byte(`{"names":["a_read"]}`))
	assert.Equal(t, tool.CodeUnknownTool, tool.CodeOf(err), "request_tools cannot be reached")
	assert.Contains(t, res.Text(), "(3 tools available)")
	assert.Empty(t, f.dynamic, "it never reached the caller")

	res, err = p.Call(asAna(), palette.RequestSkill, []byte(`{"names":["note-taking"]}`))
	require.NoError(t, err)
	assert.Equal(t, `{"admitted":["note-taking"],"rejected":[]}`, res.Text())
	require.Len(t, f.dynamic, 1)
	assert.True(t, f.dynamic[0].readOnly, "passed on with the read-only mark")

	// The second line of defence: request_tools' Dynamic says it mutates,
	// so a caller that refuses mutating tools under the read-only mark (the
	// call service; the fake here) refuses it however it is reached.
	q, fq := requesting(t, nil)
	_, err = q.Call(asAna(), palette.RequestTools, []byte(`{"names":["a_read"]}`))
	require.NoError(t, err)
	require.Len(t, fq.dynamic, 1)
	rt := fq.dynamic[0].d
	assert.False(t, rt.Spec().ReadOnly)
	_, err = fq.CallDynamic(tool.WithReadOnly(asAna()), rt, []byte(`{"names":["b_write"]}`))
	assert.Equal(t, tool.CodeUnknownTool, tool.CodeOf(err))
	assert.NotContains(t, names(q.Tools()), "b_write")
}

func TestNewRefusesAMetaToolNameInTheRegistry(t *testing.T) {
	reg, err := toolimpl.NewRegistry([]*tool.Spec{{Name: "request_skill", Kind: tool.KindRead, InputSchema: []byte(tool.NoInputSchema)}, {Name: "request_tools", Kind: tool.KindRead, InputSchema: []byte(tool.NoInputSchema)}}, nil, (&fixture{}).dispatch, nil)
	require.NoError(t, err)
	_, err = palette.New(reg, reg.Tools(), palette.All(), &palette.Options{Requestable: palette.All()})
	assert.ErrorContains(t, err, `a tool named "request_tools"`)
	_, err = palette.New(reg, reg.Tools(), palette.All(), &palette.Options{RequestableSkills: skill.Patterns{"*"}})
	assert.ErrorContains(t, err, `a tool named "request_skill"`)
	_, err = palette.New(reg, reg.Tools(), palette.All(), nil)
	assert.NoError(t, err, "without the meta-tools, the names are free")
}

func TestConcurrentRequests(t *testing.T) {
	p, _ := requesting(t, nil)
	var wg sync.WaitGroup
	for _, name := range []string{"b_write", "a_read", "f_act"} {
		wg.Go(func() {
			_, err := p.Call(asAna(), palette.RequestTools, []byte(`{"names":["`+name+`"]}`))
			if err != nil {
				// Once b_write is in, the catalog is empty: request_tools
				// is gone.
				assert.Equal(t, tool.CodeUnknownTool, tool.CodeOf(err))
			}
		})
		wg.Go(func() {
			_, err := p.Call(asAna(), palette.RequestSkill, []byte(`{"names":["note-taking"]}`))
			assert.NoError(t, err)
		})
		wg.Go(func() { assert.Contains(t, names(p.Offer(asAna())), "a_read") })
	}
	wg.Wait()
	assert.Equal(t, []string{"a_read", "b_write", "e_clock", "request_skill"}, names(p.Offer(asAna())))
}

// A call asks the caller for its offer at most once: the offer runs the
// policy over every tool and lists the dynamic ones.
func TestCallsAskTheCallerForItsOfferOnce(t *testing.T) {
	p, f := requesting(t, nil)
	f.extra = []*tool.Spec{{Name: "crm_find", Group: "crm", Kind: tool.KindRead, ReadOnly: true, InputSchema: []byte(tool.NoInputSchema)}}
	require.NoError(t, p.Add("e_clock"))
	cases := []struct {
		name, tool, args string
		want             int64
	}{
		{"a registry tool", "a_read", `{}`, 0},
		{"a registry tool outside the palette", "f_act", `{}`, 1},
		{"a dynamic tool outside the palette", "crm_find", `{}`, 1},
		{"an unknown name", "nope", `{}`, 1},
		{"request_tools", palette.RequestTools, `{"names":["b_write"]}`, 1},
	}
	for _, c := range cases {
		before := f.offers.Load()
		_, _ = p.Call(asAna(), c.tool, []byte(c.args))
		assert.Equal(t, c.want, f.offers.Load()-before, c.name)
	}
}
