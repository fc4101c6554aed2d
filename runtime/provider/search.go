package provider

import (
	"fmt"
	"slices"
	"strings"

	"github.com/toolgen-go/toolgen/runtime/internal/toolerr"
	"github.com/toolgen-go/toolgen/runtime/jsonlex"
	"github.com/toolgen-go/toolgen/runtime/jsontree"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// Deferred is a deferred tool's definitions for a provider's native tool
// search (tool.Spec.Defer): the tool's own definitions with
// "defer_loading":true added as their last member. toolgen computes them
// at generation time, as it does the others.
type Deferred struct {
	// Anthropic is the Messages API tool:
	// {"name":N,"description":D,"input_schema":S,"defer_loading":true}.
	Anthropic []byte
	// OpenAIResponses is the Responses API function, as it sits in its
	// group's namespace (or at the top level when the tool has no group):
	// {"type":"function","name":N,...,"strict":S,"defer_loading":true}.
	OpenAIResponses []byte
}

// deferredDefs computes the deferred definitions from p's.
func deferredDefs(name string, p *Precomputed) (*Deferred, error) {
	a, err := withDeferLoading(ProviderAnthropic, name, p.Anthropic.JSON)
	if err != nil {
		return nil, err
	}
	o, err := withDeferLoading(ProviderOpenAI, name, p.OpenAIResponses.JSON)
	if err != nil {
		return nil, err
	}
	return &Deferred{Anthropic: a, OpenAIResponses: o}, nil
}

// withDeferLoading returns def, a compact JSON object, with
// "defer_loading":true appended.
func withDeferLoading(provider, name string, def []byte) ([]byte, error) {
	n, err := jsontree.Parse(def)
	if err == nil && n.Kind != jsonlex.Object {
		err = fmt.Errorf("not a JSON object")
	}
	if err != nil {
		return nil, &Error{Provider: provider, Tool: name, Msg: "invalid definition", Err: err}
	}
	if n.Get("defer_loading") != nil {
		return nil, &Error{Provider: provider, Tool: name, Msg: "the definition already has defer_loading"}
	}
	n.Members = append(n.Members, jsontree.Member{Key: "defer_loading", Value: boolean(true)})
	return n.Compact(), nil
}

// NativeSearch reports whether the provider (ProviderOpenAI,
// ProviderAnthropic or ProviderGemini) loads deferred tools itself through
// a tool search tool, so that a palette can offer it a Search's arrays.
// Gemini has none: there a palette falls back to a request_tools tool of
// its own, and sends the plain arrays. For OpenAI only the Responses API
// has tool search; Chat Completions takes the plain array.
func NativeSearch(provider string) bool {
	return provider == ProviderOpenAI || provider == ProviderAnthropic
}

// SearchTool is the tool search tool a Search appends to its Anthropic
// array: the Messages API has two.
type SearchTool string

const (
	// SearchBM25 is tool_search_tool_bm25_20251119: the model searches
	// the deferred tools with natural-language queries.
	SearchBM25 SearchTool = "tool_search_tool_bm25_20251119"
	// SearchRegex is tool_search_tool_regex_20251119: the model searches
	// them with regular expressions over names and descriptions.
	SearchRegex SearchTool = "tool_search_tool_regex_20251119"
)

// name is the tool search tool's name, which a Messages API tool_use or
// server_tool_use block calls it by.
func (t SearchTool) name() string {
	switch t {
	case SearchBM25:
		return "tool_search_tool_bm25"
	case SearchRegex:
		return "tool_search_tool_regex"
	}
	return ""
}

// openAIToolSearch is the Responses API's hosted tool search tool.
const openAIToolSearch = `{"type":"tool_search"}`

// Search holds the "tools" arrays of a Definitions in the form for the providers'
// native tool search, where the provider loads deferred tools
// (tool.Spec.Defer) only when the model searches for them:
//
//   - Anthropic (Messages API): every tool, in the Definitions' order, a
//     deferred one with "defer_loading":true, then the tool search tool
//     ({"type":"tool_search_tool_bm25_20251119","name":"tool_search_tool_bm25"}
//     or the regex one);
//   - OpenAI (Responses API): the tools that are not deferred, as in the
//     plain array, then, sorted by name, one namespace per group of
//     deferred tools, {"type":"namespace","name":GROUP,"description":
//     GROUP_DESCRIPTION,"tools":[...]} holding the group's deferred
//     functions with "defer_loading":true, then {"type":"tool_search"}. A
//     deferred tool without a group (a spec whose Group is "", which
//     toolgen never writes) is a top-level function with
//     "defer_loading":true.
//
// The model calls a function of a namespace by the namespace and the
// function's name, which is the registry's name of the tool:
// ResponsesName maps the pair back, and refuses a pair the array does not
// hold. With no deferred tool, both arrays are the Definitions' plain arrays,
// without a search tool. Gemini has no native tool search (NativeSearch).
//
// Like a Definitions, a Search is immutable and safe for concurrent use, and the
// slices it returns are shared: callers must not modify them.
type Search struct {
	defs            *Definitions
	anthropic       []byte
	anthropicItems  [][]byte
	openAIResponses []byte
	openAIItems     [][]byte
	deferred        int
}

// namespace is one group of deferred tools in the OpenAI array.
type namespace struct {
	name, description string
	tools             []*Tool
}

// NewSearch returns the native tool search form of defs' arrays (a
// registry's Definitions, or the Subset of one request's offer), with st as the Anthropic tool
// search tool. It fails when a deferred tool's group
// has no description (OpenAI requires one for a namespace: toolgen refuses
// it at generation time), when two tools of a group describe it
// differently, when a group's name is not a valid namespace name
// (^[a-zA-Z0-9_-]{1,64}$) or is also the name of a top-level function, and
// when a tool has the name of the Anthropic tool search tool. Its cost is
// the copy of the definitions' bytes and a few allocations per group:
// 0.66 ms for 1,000 tools, half of them deferred in ten groups
// (BenchmarkNewSearch).
func NewSearch(defs *Definitions, st SearchTool) (*Search, error) {
	if st.name() == "" {
		return nil, fmt.Errorf("provider search: unknown tool search tool %q; want %s or %s", string(st), SearchBM25, SearchRegex)
	}
	s := &Search{defs: defs}
	tools := defs.Tools()
	var spaces []*namespace
	byName := map[string]*namespace{}
	topLevel := map[string]bool{}
	for i := range tools {
		t := &tools[i]
		if t.Spec.Name == st.name() {
			return nil, fmt.Errorf("provider search: tool %s has the name of the Anthropic tool search tool", t.Spec.Name)
		}
		if !t.Spec.Defer || t.Deferred == nil {
			topLevel[t.Spec.Name] = true
			continue
		}
		s.deferred++
		g := t.Spec.Group
		if g == "" {
			topLevel[t.Spec.Name] = true
			continue
		}
		ns := byName[g]
		if ns == nil {
			if !openAINamePattern.MatchString(g) {
				return nil, fmt.Errorf("provider search: tool %s: its group %q is not a valid namespace name (%s)", t.Spec.Name, g, openAINamePattern)
			}
			if t.Spec.GroupDescription == "" {
				return nil, fmt.Errorf("provider search: tool %s is deferred but its group %s has no description, which an OpenAI namespace requires: write //tool:groupdoc %s TEXT in a package doc comment", t.Spec.Name, g, g)
			}
			ns = &namespace{name: g, description: t.Spec.GroupDescription}
			byName[g] = ns
			spaces = append(spaces, ns)
		} else if t.Spec.GroupDescription != ns.description {
			return nil, fmt.Errorf("provider search: tools %s and %s of group %s describe it differently", ns.tools[0].Spec.Name, t.Spec.Name, g)
		}
		ns.tools = append(ns.tools, t)
	}
	for _, ns := range spaces {
		if topLevel[ns.name] {
			return nil, fmt.Errorf("provider search: group %s is both a namespace and the name of a top-level function", ns.name)
		}
	}
	if s.deferred == 0 {
		s.anthropic, s.openAIResponses = defs.Anthropic(), defs.OpenAIResponses()
		s.anthropicItems = make([][]byte, len(tools))
		s.openAIItems = make([][]byte, len(tools))
		for i := range tools {
			s.anthropicItems[i], s.openAIItems[i] = tools[i].Anthropic.JSON, tools[i].OpenAIResponses.JSON
		}
		return s, nil
	}
	slices.SortFunc(spaces, func(a, b *namespace) int { return strings.Compare(a.name, b.name) })
	s.anthropic, s.anthropicItems = s.joinAnthropic(st)
	s.openAIResponses, s.openAIItems = s.joinOpenAI(spaces)
	return s, nil
}

// joinAnthropic writes the Anthropic array and returns it with its items.
func (s *Search) joinAnthropic(search SearchTool) ([]byte, [][]byte) {
	tools := s.defs.Tools()
	items := make([][]byte, 0, len(tools)+1)
	for i := range tools {
		if d := tools[i].Deferred; d != nil && tools[i].Spec.Defer {
			items = append(items, d.Anthropic)
		} else {
			items = append(items, tools[i].Anthropic.JSON)
		}
	}
	items = append(items, fmt.Appendf(nil, `{"type":%q,"name":%q}`, string(search), search.name()))
	return joinItems(items)
}

// joinOpenAI writes the OpenAI Responses array and returns it with its
// items.
func (s *Search) joinOpenAI(spaces []*namespace) ([]byte, [][]byte) {
	tools := s.defs.Tools()
	items := make([][]byte, 0, len(tools)+len(spaces)+1)
	for i := range tools {
		t := &tools[i]
		switch {
		case t.Deferred == nil || !t.Spec.Defer:
			items = append(items, t.OpenAIResponses.JSON)
		case t.Spec.Group == "":
			items = append(items, t.Deferred.OpenAIResponses)
		}
	}
	for _, ns := range spaces {
		head := object(
			jsontree.Member{Key: "type", Value: str("namespace")},
			jsontree.Member{Key: "name", Value: str(ns.name)},
			jsontree.Member{Key: "description", Value: str(ns.description)},
		).Compact()
		b := append(head[:len(head)-1:len(head)-1], `,"tools":[`...)
		for i, t := range ns.tools {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, t.Deferred.OpenAIResponses...)
		}
		items = append(items, append(b, "]}"...))
	}
	items = append(items, []byte(openAIToolSearch))
	return joinItems(items)
}

// joinItems writes items as a JSON array into one buffer and returns it
// with each item as a capped slice of it.
func joinItems(items [][]byte) ([]byte, [][]byte) {
	n := 2
	for _, it := range items {
		n += len(it) + 1
	}
	buf := make([]byte, 0, n)
	buf = append(buf, '[')
	out := make([][]byte, len(items))
	for i, it := range items {
		if i > 0 {
			buf = append(buf, ',')
		}
		start := len(buf)
		buf = append(buf, it...)
		out[i] = buf[start:len(buf):len(buf)]
	}
	buf = append(buf, ']')
	return buf[:len(buf):len(buf)], out
}

// Definitions returns the Definitions the Search was made from.
func (s *Search) Definitions() *Definitions { return s.defs }

// Deferred returns the number of deferred tools.
func (s *Search) Deferred() int { return s.deferred }

// Anthropic returns the "tools" array of a Messages API request that
// offers tool search.
func (s *Search) Anthropic() []byte { return s.anthropic }

// AnthropicItems returns the items of the Anthropic array, one per
// tool, the tool search tool last (when a tool is deferred).
func (s *Search) AnthropicItems() [][]byte { return s.anthropicItems }

// OpenAIResponses returns the "tools" array of a Responses API request
// that offers tool search.
func (s *Search) OpenAIResponses() []byte { return s.openAIResponses }

// OpenAIResponsesItems returns the items of the OpenAI Responses array:
// functions, namespaces, and the tool search tool last (when a tool is
// deferred).
func (s *Search) OpenAIResponsesItems() [][]byte { return s.openAIItems }

// ResponsesName returns the registry's name of the function a Responses
// API function_call names by namespace and name: name itself when the
// OpenAI array offers it there (namespace "" for a top-level function).
// It reports false for a pair the array does not hold, such as a function
// called in a namespace that is not its group's, or a namespace for a
// tool that is not deferred.
func (s *Search) ResponsesName(namespace, name string) (string, bool) {
	t, ok := s.defs.Lookup(name)
	if !ok {
		return "", false
	}
	namespaced := s.deferred > 0 && t.Deferred != nil && t.Spec.Defer && t.Spec.Group != ""
	if namespace == "" && !namespaced || namespaced && namespace == t.Spec.Group {
		return t.Spec.Name, true
	}
	return "", false
}

// UnknownResponsesCall is the error for a namespace and name pair
// ResponsesName refuses: the registry's unknown-tool error
// (toolerr.UnknownTool), for the qualified name namespace.name, with names
// of the Search's tools suggested.
func (s *Search) UnknownResponsesCall(namespace, name string) *tool.Error {
	tools := s.defs.Tools()
	specs := make([]*tool.Spec, len(tools))
	for i := range tools {
		specs[i] = tools[i].Spec
	}
	q := name
	if namespace != "" {
		q = namespace + "." + name
	}
	return toolerr.UnknownTool(specs, q)
}
