package provider_test

import (
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/jsonlex"
	"github.com/toolgen-go/toolgen/runtime/jsontree"
	"github.com/toolgen-go/toolgen/runtime/provider"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// The rules below restate each provider's documentation independently of
// the projection code, and every definition of the sample tools and of the
// synthetic specs must satisfy them.

// OpenAI: function names, and the keywords strict mode supports (Structured
// Outputs, "Supported schemas").
var (
	openAIName    = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
	strictAllowed = set("type", "properties", "required", "additionalProperties", "items", "enum", "const",
		"anyOf", "$ref", "$defs", "definitions", "description", "title", "pattern", "format",
		"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minItems", "maxItems")
	// strictRejected are keywords strict mode refuses; listed on their own
	// so that widening strictAllowed by mistake cannot let them through.
	strictRejected = []string{"minLength", "maxLength", "uniqueItems", "default", "examples",
		"patternProperties", "propertyNames", "minProperties", "maxProperties", "allOf", "oneOf", "not",
		"if", "then", "else", "dependentRequired", "dependentSchemas", "unevaluatedProperties",
		"unevaluatedItems", "contains", "prefixItems", "contentEncoding"}
	strictFormats = set("date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid")
)

// Anthropic: tool names.
var anthropicName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// Gemini: function names, and the fields of the OpenAPI Schema subset.
var (
	geminiName   = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$`)
	geminiFields = set("type", "format", "title", "description", "nullable", "enum", "maxItems", "minItems",
		"properties", "required", "minProperties", "maxProperties", "minLength", "maxLength", "pattern",
		"example", "anyOf", "propertyOrdering", "default", "items", "minimum", "maximum")
	geminiTypes   = set("STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT", "NULL")
	geminiFormats = map[string]map[string]bool{
		"STRING": set("date-time", "enum"), "INTEGER": set("int32", "int64"), "NUMBER": set("float", "double"),
	}
)

func set(keys ...string) map[string]bool {
	m := make(map[string]bool, len(keys))
	for _, k := range keys {
		m[k] = true
	}
	return m
}

// ruleSpecs returns the sample tools' specs and the synthetic ones.
func ruleSpecs(t *testing.T) []*tool.Spec {
	specs := slices.Clone(sampleRegistry(t).Tools())
	for _, c := range syntheticSchemas {
		specs = append(specs, &tool.Spec{Name: c.name, Description: "A synthetic tool.", InputSchema: []byte(c.schema)})
	}
	return specs
}

func TestOpenAIRules(t *testing.T) {
	t.Parallel()
	for _, spec := range ruleSpecs(t) {
		t.Run(spec.Name, func(t *testing.T) {
			t.Parallel()
			chat, err := provider.OpenAIChat(spec)
			require.NoError(t, err)
			resp, err := provider.OpenAIResponses(spec)
			require.NoError(t, err)

			c := parse(t, chat.JSON)
			assert.Equal(t, []string{"type", "function"}, keys(c))
			assert.Equal(t, "function", c.Get("type").Text)
			fn := c.Get("function")
			assert.Equal(t, []string{"name", "description", "parameters", "strict"}, keys(fn))
			r := parse(t, resp.JSON)
			assert.Equal(t, []string{"type", "name", "description", "parameters", "strict"}, keys(r))
			assert.Equal(t, "function", r.Get("type").Text)
			assert.Equal(t, string(fn.Get("parameters").Compact()), string(r.Get("parameters").Compact()), "both APIs get the same parameters")

			assert.Regexp(t, openAIName, fn.Get("name").Text)
			assert.Equal(t, spec.Description, fn.Get("description").Text)
			require.Equal(t, jsonlex.Bool, fn.Get("strict").Kind)
			assert.Equal(t, chat.Strict, fn.Get("strict").Bool)
			params := fn.Get("parameters")
			assert.Equal(t, "object", params.Get("type").Text, "the root is an object schema")
			assert.Nil(t, params.Get("anyOf"), "the root is not anyOf")

			if !chat.Strict {
				assert.NotEmpty(t, chat.Reason, "a non-strict definition says why")
				assert.Empty(t, chat.Dropped)
				assert.Equal(t, string(spec.InputSchema), string(params.Compact()), "a non-strict definition sends the schema as published")
				return
			}
			assert.Empty(t, chat.Reason)
			orig := parse(t, spec.InputSchema)
			walkSchemas(params, "", func(n *jsontree.Node, ptr string) {
				if n.Kind != jsonlex.Object {
					t.Errorf("%s: the schema %s is not an object", ptr, n.Compact())
					return
				}
				for _, m := range n.Members {
					assert.True(t, strictAllowed[m.Key], "%s: keyword %q is outside the strict subset", ptr, m.Key)
				}
				for _, k := range strictRejected {
					assert.Nil(t, n.Get(k), "%s: strict mode rejects %q", ptr, k)
				}
				if n.Get("$ref") != nil {
					assert.Len(t, n.Members, 1, "%s: strict mode refuses keywords beside $ref", ptr)
					return
				}
				if f := n.Get("format"); f != nil {
					assert.True(t, strictFormats[f.Text], "%s: format %q is not supported", ptr, f.Text)
				}
				assert.True(t, n.Get("type") != nil || n.Get("anyOf") != nil || n.Get("enum") != nil || n.Get("const") != nil,
					"%s: every schema is typed: %s", ptr, n.Compact())
				if !typeIncludes(n, "object") {
					return
				}
				ap := n.Get("additionalProperties")
				if assert.NotNil(t, ap, "%s: every object sets additionalProperties", ptr) {
					assert.Equal(t, `false`, string(ap.Compact()), "%s: additionalProperties is false", ptr)
				}
				props := n.Get("properties")
				require.NotNil(t, props, "%s: every object lists its properties", ptr)
				req := n.Get("required")
				require.NotNil(t, req, "%s: every object has required", ptr)
				assert.Equal(t, keys(props), strs(req), "%s: every property is required", ptr)
				// A property that was optional accepts null now.
				if o := view(orig, ptr); o != nil {
					origReq := strs(o.Get("required"))
					for _, pm := range props.Members {
						if !slices.Contains(origReq, pm.Key) {
							assert.True(t, acceptsNull(pm.Value), "%s/properties/%s was optional and must accept null: %s", ptr, pm.Key, pm.Value.Compact())
						}
					}
				}
			})
		})
	}
}

func TestAnthropicRules(t *testing.T) {
	t.Parallel()
	for _, spec := range ruleSpecs(t) {
		t.Run(spec.Name, func(t *testing.T) {
			t.Parallel()
			p, err := provider.Anthropic(spec)
			require.NoError(t, err)
			assert.Empty(t, p.Reason)
			assert.Empty(t, p.Dropped)
			d := parse(t, p.JSON)
			assert.Equal(t, []string{"name", "description", "input_schema"}, keys(d))
			assert.Regexp(t, anthropicName, d.Get("name").Text)
			in := d.Get("input_schema")
			assert.Equal(t, string(spec.InputSchema), string(in.Compact()), "the input schema is sent as published")
			assert.Equal(t, "object", in.Get("type").Text, "the root is an object schema")
			for _, k := range []string{"anyOf", "oneOf", "allOf"} {
				assert.Nil(t, in.Get(k), "no %s at the top level", k)
			}
		})
	}
}

func TestGeminiRules(t *testing.T) {
	t.Parallel()
	for _, spec := range ruleSpecs(t) {
		t.Run(spec.Name, func(t *testing.T) {
			t.Parallel()
			p, err := provider.Gemini(spec)
			require.NoError(t, err)

			// The bytes are those encoding/json writes for the same value
			// held in a map[string]any, as the Go SDK sends it.
			var v any
			require.NoError(t, json.Unmarshal(p.JSON, &v))
			again, err := json.Marshal(v)
			require.NoError(t, err)
			assert.Equal(t, string(again), string(p.JSON), "members sorted, numbers as float64s")

			d := parse(t, p.JSON)
			assert.Regexp(t, geminiName, d.Get("name").Text)
			orig := parse(t, spec.InputSchema)

			// A tool without arguments (no properties, no other property
			// allowed, nothing else but annotations) is declared without
			// parameters, which are optional: Gemini has refused an OBJECT
			// without properties.
			if takesNoArguments(orig) {
				assert.Equal(t, provider.FormNone, p.Form)
				assert.Equal(t, []string{"description", "name"}, keys(d))
				assert.Empty(t, p.Reason)
				return
			}
			assert.NotEqual(t, provider.FormNone, p.Form, "a tool that may take arguments has parameters")
			assert.Equal(t, []string{"description", "name", string(p.Form)}, keys(d))
			params := d.Get(string(p.Form))

			if p.Form == provider.FormJSONSchema {
				assert.NotEmpty(t, p.Reason, "a fallback says why")
				for _, d := range p.Dropped {
					assert.True(t, strings.HasSuffix(d, "/anyOf"), "only an anyOf beside a wrapped $ref is dropped: %s", d)
				}
				assert.Equal(t, "object", params.Get("type").Text)
				if props := params.Get("properties"); props != nil && len(props.Members) > 1 {
					assert.Equal(t, keys(orig.Get("properties")), strs(params.Get("propertyOrdering")), "propertyOrdering keeps the declared order")
				}
				assert.Empty(t, refSiblings(params), "beside $ref, only $ keywords")
				if len(refSiblings(orig)) > 0 {
					return // references inlined or wrapped: TestGeminiRefsAlone pins the bytes
				}
				// Without propertyOrdering, it is the input schema.
				walkSchemas(params, "", func(n *jsontree.Node, _ string) {
					n.Members = slices.DeleteFunc(n.Members, func(m jsontree.Member) bool { return m.Key == "propertyOrdering" })
				})
				var got, want any
				require.NoError(t, json.Unmarshal(params.Compact(), &got))
				require.NoError(t, json.Unmarshal(spec.InputSchema, &want))
				assert.Equal(t, want, got)
				return
			}
			require.Equal(t, provider.FormParameters, p.Form)
			assert.Empty(t, p.Reason)
			assert.Equal(t, "OBJECT", params.Get("type").Text, "the root is an object schema")
			if props := orig.Get("properties"); len(props.Members) > 1 {
				assert.Equal(t, keys(props), strs(params.Get("propertyOrdering")), "propertyOrdering keeps the declared order")
			}
			walkSchemas(params, "", func(n *jsontree.Node, ptr string) {
				require.Equal(t, jsonlex.Object, n.Kind, ptr)
				for _, m := range n.Members {
					assert.True(t, geminiFields[m.Key], "%s: %q is not a field of the OpenAPI Schema subset", ptr, m.Key)
				}
				typ := n.Get("type")
				if n.Get("anyOf") == nil || typ != nil {
					if assert.NotNil(t, typ, "%s: a type", ptr) && assert.Equal(t, jsonlex.String, typ.Kind, "%s: a single type", ptr) {
						assert.True(t, geminiTypes[typ.Text], "%s: type %q", ptr, typ.Text)
					}
				}
				if e := n.Get("enum"); e != nil {
					for _, it := range e.Items {
						assert.Equal(t, jsonlex.String, it.Kind, "%s: enums are strings", ptr)
					}
				}
				if f := n.Get("format"); f != nil && typ != nil {
					assert.True(t, geminiFormats[typ.Text][f.Text], "%s: format %q on %s", ptr, f.Text, typ.Text)
				}
				if order := n.Get("propertyOrdering"); order != nil {
					assert.ElementsMatch(t, keys(n.Get("properties")), strs(order), "%s: propertyOrdering names the properties", ptr)
				}
			})
		})
	}
}

// takesNoArguments reports whether the object schema n accepts only {}:
// no properties, "additionalProperties":false, and besides those only
// annotations (and an empty "required").
func takesNoArguments(n *jsontree.Node) bool {
	closed := false
	for _, m := range n.Members {
		switch m.Key {
		case "type", "$schema", "$id", "$comment", "$defs", "definitions", "title", "description", "default", "examples":
		case "properties":
			if len(m.Value.Members) > 0 {
				return false
			}
		case "required":
			if len(m.Value.Items) > 0 {
				return false
			}
		case "additionalProperties":
			closed = m.Value.Kind == jsonlex.Bool && !m.Value.Bool
		default:
			return false
		}
	}
	return closed
}

// walkSchemas calls f for n and every schema under it (in properties,
// items, anyOf, oneOf, allOf, $defs), with its JSON Pointer, parents first.
func walkSchemas(n *jsontree.Node, ptr string, f func(n *jsontree.Node, ptr string)) {
	f(n, ptr)
	if n.Kind != jsonlex.Object {
		return
	}
	for _, m := range n.Members {
		at := ptr + "/" + m.Key
		switch m.Key {
		case "properties", "$defs", "definitions":
			for _, pm := range m.Value.Members {
				walkSchemas(pm.Value, at+"/"+pm.Key, f)
			}
		case "items", "additionalProperties":
			if m.Value.Kind == jsonlex.Object {
				walkSchemas(m.Value, at, f)
			}
		case "anyOf", "oneOf", "allOf":
			for i, it := range m.Value.Items {
				walkSchemas(it, at+"/"+strconv.Itoa(i), f)
			}
		}
	}
}

// view returns the schema at the pointer ptr in root, made only of
// properties and $defs steps, following $refs; nil when there is none.
func view(root *jsontree.Node, ptr string) *jsontree.Node {
	n := root.Resolve(root)
	toks := splitPointer(ptr)
	for i := 0; i < len(toks); i += 2 {
		if i+1 >= len(toks) || n == nil {
			return nil
		}
		switch toks[i] {
		case "properties", "$defs", "definitions":
			n = n.Get(toks[i]).Get(toks[i+1]).Resolve(root)
		default:
			return nil
		}
	}
	return n
}

func splitPointer(ptr string) []string {
	if ptr == "" {
		return nil
	}
	return strings.Split(ptr[1:], "/")
}

// typeIncludes reports whether n's type is name or a list holding it.
func typeIncludes(n *jsontree.Node, name string) bool {
	t := n.Get("type")
	switch {
	case t == nil:
		return false
	case t.Kind == jsonlex.String:
		return t.Text == name
	}
	return slices.Contains(strs(t), name)
}

// acceptsNull reports whether the schema n admits null on its face: a
// type list with null, or an anyOf with {"type":"null"}.
func acceptsNull(n *jsontree.Node) bool {
	if typeIncludes(n, "null") {
		return true
	}
	if alt := n.Get("anyOf"); alt != nil {
		for _, it := range alt.Items {
			if typeIncludes(it, "null") {
				return true
			}
		}
	}
	return false
}

func parse(t *testing.T, b []byte) *jsontree.Node {
	t.Helper()
	n, err := jsontree.Parse(b)
	require.NoError(t, err)
	require.Equal(t, string(b), string(n.Compact()), "compact JSON as encoding/json writes it")
	return n
}

func keys(n *jsontree.Node) []string {
	out := []string{}
	if n == nil {
		return out
	}
	for _, m := range n.Members {
		out = append(out, m.Key)
	}
	return out
}

func strs(n *jsontree.Node) []string {
	out := []string{}
	if n == nil {
		return out
	}
	for _, it := range n.Items {
		out = append(out, it.Text)
	}
	return out
}

// Native tool search (Search). OpenAI's Responses API: the tools array
// holds functions, namespaces ({"type":"namespace","name","description",
// "tools"}: a name as a function's, a description the model reads, only
// functions inside, never a namespace) and one {"type":"tool_search"};
// "defer_loading" goes on the functions, never on a namespace. Anthropic's
// Messages API: tools with "defer_loading":true, and one tool search tool
// of a documented type and name, never deferred, so that at least one
// tool is loaded.
var anthropicSearchTools = map[string]string{
	"tool_search_tool_regex_20251119": "tool_search_tool_regex",
	"tool_search_tool_bm25_20251119":  "tool_search_tool_bm25",
}

// searchSpecs returns the rule specs, every other synthetic one deferred in
// one of two described groups and one deferred without a group, sorted by
// name.
func searchSpecs(t *testing.T) []tool.Spec {
	var out []tool.Spec
	for i, s := range ruleSpecs(t) {
		spec := *s
		if spec.Package == "" { // synthetic
			spec.Kind = tool.KindRead
			switch i % 3 {
			case 0:
				spec.Group, spec.GroupDescription, spec.Defer = "synthetic_a", "Synthetic tools, first group.", true
			case 1:
				spec.Group, spec.GroupDescription, spec.Defer = "synthetic_b", "Synthetic tools, second group.", true
			default:
				spec.Defer = true
			}
		}
		out = append(out, spec)
	}
	slices.SortFunc(out, func(a, b tool.Spec) int { return strings.Compare(a.Name, b.Name) })
	return out
}

func TestSearchRules(t *testing.T) {
	t.Parallel()
	specs := searchSpecs(t)
	defs, err := provider.NewDefinitions(staticOf(t, specs...))
	require.NoError(t, err)
	byName := map[string]*tool.Spec{}
	deferred := 0
	for i := range specs {
		byName[specs[i].Name] = &specs[i]
		if specs[i].Defer {
			deferred++
		}
	}
	require.Greater(t, deferred, 2)
	for _, st := range []provider.SearchTool{provider.SearchBM25, provider.SearchRegex} {
		search, err := provider.NewSearch(defs, st)
		require.NoError(t, err)

		t.Run("openai/"+string(st), func(t *testing.T) {
			t.Parallel()
			arr := parse(t, search.OpenAIResponses())
			require.Equal(t, jsonlex.Array, arr.Kind)
			seen := map[string]int{}
			topLevel := map[string]bool{}
			namespaces := map[string]bool{}
			// checkFunction checks one function against its spec's plain
			// definition.
			checkFunction := func(fn *jsontree.Node, namespace string) {
				name := fn.Get("name").Text
				spec := byName[name]
				require.NotNil(t, spec, "%s: a function of the registry", name)
				seen[name]++
				plain, err := provider.OpenAIResponses(spec)
				require.NoError(t, err)
				want := []string{"type", "name", "description", "parameters", "strict"}
				if spec.Defer {
					want = append(want, "defer_loading")
					require.Equal(t, jsonlex.Bool, fn.Get("defer_loading").Kind)
					assert.True(t, fn.Get("defer_loading").Bool, name)
				}
				assert.Equal(t, want, keys(fn), name)
				assert.Equal(t, "function", fn.Get("type").Text)
				assert.Regexp(t, openAIName, name)
				without := parse(t, fn.Compact())
				without.Members = slices.DeleteFunc(without.Members, func(m jsontree.Member) bool { return m.Key == "defer_loading" })
				assert.Equal(t, string(plain.JSON), string(without.Compact()), "%s: the plain definition, flagged", name)
				if namespace != "" {
					assert.True(t, spec.Defer, "%s: only deferred functions are namespaced", name)
					assert.Equal(t, spec.Group, namespace, "%s: in its group's namespace", name)
				} else {
					topLevel[name] = true
					assert.True(t, !spec.Defer || spec.Group == "", "%s: a deferred tool with a group is in its namespace", name)
				}
			}
			for i, it := range arr.Items {
				require.Equal(t, jsonlex.Object, it.Kind)
				switch typ := it.Get("type").Text; typ {
				case "tool_search":
					assert.Equal(t, len(arr.Items)-1, i, "the tool search tool is last")
					assert.Equal(t, []string{"type"}, keys(it), "hosted search: nothing else")
				case "function":
					checkFunction(it, "")
				case "namespace":
					assert.Equal(t, []string{"type", "name", "description", "tools"}, keys(it))
					name := it.Get("name").Text
					assert.Regexp(t, openAIName, name)
					assert.False(t, namespaces[name], "%s: one namespace per name", name)
					namespaces[name] = true
					require.Equal(t, jsonlex.String, it.Get("description").Kind)
					assert.NotEmpty(t, it.Get("description").Text, "%s: a namespace needs a description", name)
					tools := it.Get("tools")
					require.Equal(t, jsonlex.Array, tools.Kind)
					assert.NotEmpty(t, tools.Items)
					for _, fn := range tools.Items {
						require.Equal(t, "function", fn.Get("type").Text, "%s: only functions inside a namespace, never a namespace", name)
						checkFunction(fn, name)
						assert.Equal(t, byName[fn.Get("name").Text].GroupDescription, it.Get("description").Text)
					}
				default:
					t.Errorf("item %d: type %q is not a function, a namespace or the tool search tool", i, typ)
				}
			}
			assert.Equal(t, "tool_search", arr.Items[len(arr.Items)-1].Get("type").Text)
			for name := range namespaces {
				assert.False(t, topLevel[name], "%s: a namespace and a function of one name", name)
			}
			for name := range byName {
				assert.Equal(t, 1, seen[name], "%s: offered once", name)
			}
		})

		t.Run("anthropic/"+string(st), func(t *testing.T) {
			t.Parallel()
			arr := parse(t, search.Anthropic())
			require.Equal(t, jsonlex.Array, arr.Kind)
			require.Len(t, arr.Items, len(specs)+1)
			loaded := 0
			for i, it := range arr.Items[:len(specs)] {
				spec := &specs[i]
				plain, err := provider.Anthropic(spec)
				require.NoError(t, err)
				want := []string{"name", "description", "input_schema"}
				if spec.Defer {
					want = append(want, "defer_loading")
					assert.True(t, it.Get("defer_loading").Bool, spec.Name)
				} else {
					loaded++
				}
				assert.Equal(t, want, keys(it), spec.Name)
				assert.Regexp(t, anthropicName, it.Get("name").Text)
				without := parse(t, it.Compact())
				without.Members = slices.DeleteFunc(without.Members, func(m jsontree.Member) bool { return m.Key == "defer_loading" })
				assert.Equal(t, string(plain.JSON), string(without.Compact()), spec.Name)
			}
			last := arr.Items[len(specs)]
			assert.Equal(t, []string{"type", "name"}, keys(last), "the search tool is never deferred")
			assert.Equal(t, anthropicSearchTools[last.Get("type").Text], last.Get("name").Text)
			assert.Equal(t, string(st), last.Get("type").Text)
			assert.Positive(t, loaded, "the sample tools that are not deferred are loaded at once")
		})
	}
}
