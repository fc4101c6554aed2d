package provider

import (
	"fmt"
	"slices"
	"strings"

	"github.com/toolgen-go/toolgen/runtime/tool"
)

// Tool is one tool and its definition for every provider.
type Tool struct {
	// Spec is the tool's spec, shared with the registry.
	Spec *tool.Spec
	// OpenAIChat is the Chat Completions function tool.
	OpenAIChat Projection
	// OpenAIResponses is the Responses API function tool.
	OpenAIResponses Projection
	// Anthropic is the Messages API tool.
	Anthropic Projection
	// Gemini is the function declaration.
	Gemini Projection
}

// Name returns the tool's name, as every provider's definition spells it.
func (t *Tool) Name() string { return t.Spec.Name }

// Set holds the definitions of a registry's tools for every provider,
// computed once: each method returns the value of a request's "tools"
// member as precomputed bytes, without allocating. A Set is a snapshot of
// the registry's tools when it was built, and is safe for concurrent use.
// The slices it returns are shared: callers must not modify them.
type Set struct {
	tools           []Tool
	openAIChat      []byte
	openAIResponses []byte
	anthropic       []byte
	gemini          []byte
}

// NewSet computes the definitions of every tool reg offers, in the order
// of reg.Tools (sorted by name). It fails with an *Error when a tool
// cannot be offered to one of the providers.
func NewSet(reg tool.Registry) (*Set, error) {
	return NewSetFrom(reg, nil)
}

// Precomputed is one tool's definitions as toolgen computed them at
// generation time, with the description and input schema they were
// computed from. Generated provider packages hold one per tool.
type Precomputed struct {
	Description     string
	InputSchema     string
	OpenAIChat      Projection
	OpenAIResponses Projection
	Anthropic       Projection
	Gemini          Projection
}

// NewSetFrom is NewSet with definitions computed ahead of time: for each
// tool reg offers, pre returns toolgen's precomputed definitions, which
// are used as they are when they were computed from the spec's description
// and input schema, so starting costs nothing per tool. A tool pre does
// not know, or whose spec differs, is projected here as NewSet does. pre
// may be nil.
func NewSetFrom(reg tool.Registry, pre func(name string) (*Precomputed, bool)) (*Set, error) {
	specs := reg.Tools()
	s := &Set{tools: make([]Tool, len(specs))}
	for i, spec := range specs {
		t := &s.tools[i]
		t.Spec = spec
		if pre != nil {
			if p, ok := pre(spec.Name); ok && p.Description == spec.Description && p.InputSchema == string(spec.InputSchema) {
				t.OpenAIChat, t.OpenAIResponses, t.Anthropic, t.Gemini = p.OpenAIChat, p.OpenAIResponses, p.Anthropic, p.Gemini
				continue
			}
		}
		p, err := Compute(spec)
		if err != nil {
			return nil, fmt.Errorf("new provider set: %w", err)
		}
		t.OpenAIChat, t.OpenAIResponses, t.Anthropic, t.Gemini = p.OpenAIChat, p.OpenAIResponses, p.Anthropic, p.Gemini
	}
	s.openAIChat = joinArray(s.tools, func(t *Tool) []byte { return t.OpenAIChat.JSON })
	s.openAIResponses = joinArray(s.tools, func(t *Tool) []byte { return t.OpenAIResponses.JSON })
	s.anthropic = joinArray(s.tools, func(t *Tool) []byte { return t.Anthropic.JSON })
	decls := joinArray(s.tools, func(t *Tool) []byte { return t.Gemini.JSON })
	s.gemini = []byte("[]")
	if len(s.tools) > 0 {
		s.gemini = slices.Concat([]byte(`[{"functionDeclarations":`), decls, []byte(`}]`))
	}
	return s, nil
}

// Compute projects one tool for every provider: what toolgen runs at
// generation time and NewSet at start-up.
func Compute(spec *tool.Spec) (*Precomputed, error) {
	p := &Precomputed{Description: spec.Description, InputSchema: string(spec.InputSchema)}
	var err error
	if p.OpenAIChat, err = OpenAIChat(spec); err != nil {
		return nil, err
	}
	if p.OpenAIResponses, err = OpenAIResponses(spec); err != nil {
		return nil, err
	}
	if p.Anthropic, err = Anthropic(spec); err != nil {
		return nil, err
	}
	if p.Gemini, err = Gemini(spec); err != nil {
		return nil, err
	}
	return p, nil
}

// joinArray writes the definitions def picks as a JSON array.
func joinArray(tools []Tool, def func(*Tool) []byte) []byte {
	n := 2
	for i := range tools {
		n += len(def(&tools[i])) + 1
	}
	b := make([]byte, 0, n)
	b = append(b, '[')
	for i := range tools {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, def(&tools[i])...)
	}
	return append(b, ']')
}

// Len returns the number of tools.
func (s *Set) Len() int { return len(s.tools) }

// Tools returns every tool and its definitions, sorted by name. The slice
// is shared: callers must not modify it.
func (s *Set) Tools() []Tool { return s.tools }

// Lookup returns the tool with the given name.
func (s *Set) Lookup(name string) (*Tool, bool) {
	i, ok := slices.BinarySearchFunc(s.tools, name, func(t Tool, name string) int { return strings.Compare(t.Spec.Name, name) })
	if !ok {
		return nil, false
	}
	return &s.tools[i], true
}

// OpenAIChat returns the "tools" array of a Chat Completions request:
// every tool's function definition.
func (s *Set) OpenAIChat() []byte { return s.openAIChat }

// OpenAIResponses returns the "tools" array of a Responses API request.
func (s *Set) OpenAIResponses() []byte { return s.openAIResponses }

// Anthropic returns the "tools" array of a Messages API request.
func (s *Set) Anthropic() []byte { return s.anthropic }

// Gemini returns the "tools" array of a generateContent request: one tool
// holding every function declaration, [{"functionDeclarations":[...]}],
// or [] when there are no tools.
func (s *Set) Gemini() []byte { return s.gemini }
