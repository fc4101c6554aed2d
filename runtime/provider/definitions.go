package provider

import (
	"bytes"
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
	// Deferred holds the tool's definitions for native tool search when
	// its spec is deferred (tool.Spec.Defer), nil otherwise (see Search).
	Deferred *Deferred
}

// Name returns the tool's name, as every provider's definition spells it.
func (t *Tool) Name() string { return t.Spec.Name }

// Definitions holds the definitions of a registry's tools for every
// provider, computed once: each method returns the value of a request's
// "tools" member as precomputed bytes, without allocating. A Definitions
// is a snapshot of the registry's tools when it was built, and is safe for
// concurrent use. The slices it returns are shared: callers must not
// modify them.
type Definitions struct {
	tools           []Tool
	openAIChat      []byte
	openAIResponses []byte
	anthropic       []byte
	gemini          []byte
}

// NewDefinitions computes the definitions of every tool reg offers, in the
// order of reg.Tools (sorted by name). It fails with an *Error when a tool
// cannot be offered to one of the providers.
func NewDefinitions(reg tool.Registry) (*Definitions, error) {
	return NewDefinitionsFrom(reg, nil)
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
	// Deferred is set when the tool is deferred (tool.Spec.Defer).
	Deferred *Deferred
}

// NewDefinitionsFrom is NewDefinitions with definitions computed ahead of
// time: for each tool reg offers, pre returns toolgen's precomputed
// definitions, which are used as they are when they were computed from the
// spec's description and input schema, and are deferred exactly when the
// spec is (Defer), so starting costs nothing per tool. A tool pre does not
// know, or whose spec differs, is projected here as NewDefinitions does.
// pre may be nil.
func NewDefinitionsFrom(reg tool.Registry, pre func(name string) (*Precomputed, bool)) (*Definitions, error) {
	specs := reg.Tools()
	d := &Definitions{tools: make([]Tool, len(specs))}
	for i, spec := range specs {
		t := &d.tools[i]
		t.Spec = spec
		if pre != nil {
			if p, ok := pre(spec.Name); ok && p.Description == spec.Description && p.InputSchema == string(spec.InputSchema) && (p.Deferred != nil) == spec.Defer {
				*t = p.tool(spec)
				continue
			}
		}
		p, err := Compute(spec)
		if err != nil {
			return nil, fmt.Errorf("new provider definitions: %w", err)
		}
		*t = p.tool(spec)
	}
	d.join()
	return d, nil
}

// tool is spec's Tool with p's definitions.
func (p *Precomputed) tool(spec *tool.Spec) Tool {
	return Tool{Spec: spec, OpenAIChat: p.OpenAIChat, OpenAIResponses: p.OpenAIResponses, Anthropic: p.Anthropic, Gemini: p.Gemini, Deferred: p.Deferred}
}

// Compute projects one tool for every provider: what toolgen runs at
// generation time and NewDefinitions at start-up.
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
	if spec.Defer {
		if p.Deferred, err = deferredDefs(spec.Name, p); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// Subset returns the Definitions of the tools of offer, each with these
// definitions: what one request sends when the tools offered differ per
// caller, as a tool.Caller's Offer returns them.
//
//	offer, err := defs.Subset(caller.Offer(ctx))
//	...
//	body := offer.Anthropic() // or anthropictools.Tools(offer), ...
//
// offer must be sorted by name, without duplicates (as Offer and
// Registry.Tools return tools), and every tool of it must be one of these
// Definitions': the same *tool.Spec, or a spec of the same name,
// description and input schema. Anything else is an error: a tool these
// Definitions have no definition for, or a stale one, cannot be sent.
//
// Each tool's definitions are these bytes, shared, not recomputed, and the
// arrays are joined from them, so that two requests offering the same
// tools send the same bytes and a prompt cache keyed on the tools keeps
// hitting. Each Tool of the result is this one's, Spec included. When
// offer holds exactly these specs, Subset returns d itself, without
// allocating; otherwise it makes three allocations whatever the number of
// tools (the Definitions, its tools and one buffer for the four arrays),
// and its cost is the copy of the definitions' bytes: 0.64 ms for 1,000
// tools of 1.2 MB of definitions in all (BenchmarkSubset).
func (d *Definitions) Subset(offer []*tool.Spec) (*Definitions, error) {
	return d.SubsetWith(offer, nil)
}

// SubsetWith is Subset for an offer that mixes these Definitions' tools
// with tools they do not hold, such as dynamic tools (runtime/dynamic): a
// tool of offer that d holds (the same *tool.Spec, or a spec of the same
// name, description and input schema) gets d's precomputed definitions,
// and any other tool gets the definitions c projected for its version,
// computed once. offer must be sorted by name, without duplicates. With a
// nil c, SubsetWith is Subset.
//
// A tool that no provider can take (its name breaks a provider's pattern,
// its input schema is not an object schema) is an error wrapping the
// *Error that names the tool and the provider; the caller may leave the
// tool out of the offer and call SubsetWith again (the failure is cached,
// so asking again costs a lookup).
//
// Two calls with offers of the same versions return the same bytes.
func (d *Definitions) SubsetWith(offer []*tool.Spec, c *Cache) (*Definitions, error) {
	if len(offer) == len(d.tools) && d.sameSpecs(offer) {
		return d, nil
	}
	sub := &Definitions{tools: make([]Tool, len(offer))}
	j := 0
	for i, spec := range offer {
		if spec == nil {
			return nil, fmt.Errorf("provider definitions subset: tool %d of the offer is nil", i)
		}
		if i > 0 && offer[i-1].Name >= spec.Name {
			return nil, fmt.Errorf("provider definitions subset: offer not sorted by name: %q before %q", offer[i-1].Name, spec.Name)
		}
		// Both are sorted: the tool is at j or after.
		for j < len(d.tools) && d.tools[j].Spec.Name < spec.Name {
			j++
		}
		t, err := d.subsetTool(spec, j, c)
		if err != nil {
			return nil, fmt.Errorf("provider definitions subset: %w", err)
		}
		sub.tools[i] = t
	}
	sub.join()
	return sub, nil
}

// subsetTool returns the Tool of spec, a tool of an offer: d.tools[j] when
// it is that version of the tool, else c's definitions of spec; without a
// Cache, a tool d does not hold is an error.
func (d *Definitions) subsetTool(spec *tool.Spec, j int, c *Cache) (Tool, error) {
	held := j < len(d.tools) && d.tools[j].Spec.Name == spec.Name
	if held {
		if t := &d.tools[j]; t.Spec == spec || t.Spec.Description == spec.Description && bytes.Equal(t.Spec.InputSchema, spec.InputSchema) {
			return *t, nil
		}
	}
	switch {
	case c != nil:
		return c.Tool(spec)
	case held:
		return Tool{}, fmt.Errorf("tool %s of the offer differs from the definitions' (description or input schema)", spec.Name)
	default:
		return Tool{}, fmt.Errorf("tool %s of the offer is not in the definitions", spec.Name)
	}
}

// sameSpecs reports whether offer holds exactly d's specs, in order.
func (d *Definitions) sameSpecs(offer []*tool.Spec) bool {
	for i := range d.tools {
		if d.tools[i].Spec != offer[i] {
			return false
		}
	}
	return true
}

// Gemini's "tools" array holds one tool: the declarations are wrapped.
const (
	geminiHead = `[{"functionDeclarations":`
	geminiTail = `}]`
)

// join writes the four arrays of d.tools into one buffer, allocated once;
// each array is capped, so that an append by a caller cannot reach the
// next one.
func (d *Definitions) join() {
	gemini := len("[]")
	if len(d.tools) > 0 {
		gemini = len(geminiHead) + arraySize(d.tools, geminiDef) + len(geminiTail)
	}
	buf := make([]byte, 0, arraySize(d.tools, openAIChatDef)+arraySize(d.tools, openAIResponsesDef)+arraySize(d.tools, anthropicDef)+gemini)
	start := len(buf)
	buf = appendArray(buf, d.tools, openAIChatDef)
	d.openAIChat = buf[start:len(buf):len(buf)]
	start = len(buf)
	buf = appendArray(buf, d.tools, openAIResponsesDef)
	d.openAIResponses = buf[start:len(buf):len(buf)]
	start = len(buf)
	buf = appendArray(buf, d.tools, anthropicDef)
	d.anthropic = buf[start:len(buf):len(buf)]
	start = len(buf)
	if len(d.tools) == 0 {
		buf = append(buf, "[]"...)
	} else {
		buf = append(buf, geminiHead...)
		buf = appendArray(buf, d.tools, geminiDef)
		buf = append(buf, geminiTail...)
	}
	d.gemini = buf[start:len(buf):len(buf)]
}

// The definitions of a tool, one per array.
func openAIChatDef(t *Tool) []byte      { return t.OpenAIChat.JSON }
func openAIResponsesDef(t *Tool) []byte { return t.OpenAIResponses.JSON }
func anthropicDef(t *Tool) []byte       { return t.Anthropic.JSON }
func geminiDef(t *Tool) []byte          { return t.Gemini.JSON }

// arraySize returns the size of the JSON array of the definitions def
// picks.
func arraySize(tools []Tool, def func(*Tool) []byte) int {
	n := 2
	for i := range tools {
		n += len(def(&tools[i])) + 1
	}
	return n
}

// appendArray appends the definitions def picks to b as a JSON array.
func appendArray(b []byte, tools []Tool, def func(*Tool) []byte) []byte {
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
func (d *Definitions) Len() int { return len(d.tools) }

// Tools returns every tool and its definitions, sorted by name. The slice
// is shared: callers must not modify it.
func (d *Definitions) Tools() []Tool { return d.tools }

// Lookup returns the tool with the given name.
func (d *Definitions) Lookup(name string) (*Tool, bool) {
	i, ok := slices.BinarySearchFunc(d.tools, name, func(t Tool, name string) int { return strings.Compare(t.Spec.Name, name) })
	if !ok {
		return nil, false
	}
	return &d.tools[i], true
}

// OpenAIChat returns the "tools" array of a Chat Completions request:
// every tool's function definition.
func (d *Definitions) OpenAIChat() []byte { return d.openAIChat }

// OpenAIResponses returns the "tools" array of a Responses API request.
func (d *Definitions) OpenAIResponses() []byte { return d.openAIResponses }

// Anthropic returns the "tools" array of a Messages API request.
func (d *Definitions) Anthropic() []byte { return d.anthropic }

// Gemini returns the "tools" array of a generateContent request: one tool
// holding every function declaration, [{"functionDeclarations":[...]}],
// or [] when there are no tools.
func (d *Definitions) Gemini() []byte { return d.gemini }
