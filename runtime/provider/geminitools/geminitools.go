// Package geminitools hands the function declarations of a
// provider.Definitions to google.golang.org/genai, and runs the function
// calls a response asks for through a tool.Caller: the call service, or a
// bare registry (a tool.Registry is one).
//
//	defs, err := provider.NewDefinitions(reg)
//	...
//	offer, err := defs.Subset(caller.Offer(ctx)) // the tools offered to this caller
//	...
//	tools, err := geminitools.Tools(offer)
//	...
//	resp, err := client.Models.GenerateContent(ctx, "gemini-2.5-flash", contents,
//		&genai.GenerateContentConfig{Tools: tools})
//	...
//	var parts []*genai.Part
//	for _, call := range resp.FunctionCalls() {
//		part, err := geminitools.Call(ctx, caller, call) // err is for logs
//		parts = append(parts, part)
//	}
//	contents = append(contents, resp.Candidates[0].Content, genai.NewContentFromParts(parts, genai.RoleUser))
//
// A declaration of a tool without arguments has neither Parameters nor
// ParametersJsonSchema. One in the parametersJsonSchema form carries the
// precomputed schema bytes as a json.RawMessage; one in the parameters form
// is decoded into the SDK's *genai.Schema, the only type the SDK takes
// there. Either way the SDK turns the whole request into a map[string]any
// before sending it, so what it sends is the precomputed bytes exactly when
// they are already in that form: members sorted, numbers as float64s. provider.Gemini writes
// them so, and the tests check that the "tools" member of the request the
// SDK sends is provider.Definitions.Gemini, byte for byte.
//
// Gemini has no native tool search (provider.NativeSearch reports false):
// a deferred tool (//tool:defer) is declared here as any other, and a
// palette that wants to load tools lazily offers its own request_tools
// tool instead.
package geminitools

import (
	"context"
	"encoding/json"
	"fmt"

	"google.golang.org/genai"

	"github.com/toolgen-go/toolgen/runtime/jsonlex"
	"github.com/toolgen-go/toolgen/runtime/jsontree"
	"github.com/toolgen-go/toolgen/runtime/provider"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// Tools returns the function declarations of defs as one genai.Tool, or no
// tool when defs holds no tool.
func Tools(defs *provider.Definitions) ([]*genai.Tool, error) {
	tools := defs.Tools()
	if len(tools) == 0 {
		return nil, nil
	}
	decls := make([]*genai.FunctionDeclaration, len(tools))
	for i := range tools {
		d, err := Declaration(tools[i].Gemini)
		if err != nil {
			return nil, err
		}
		decls[i] = d
	}
	return []*genai.Tool{{FunctionDeclarations: decls}}, nil
}

// Declaration returns one Gemini definition (provider.Gemini's result) as
// the SDK's function declaration.
func Declaration(p provider.Projection) (*genai.FunctionDeclaration, error) {
	n, err := jsontree.Parse(p.JSON)
	if err != nil {
		return nil, fmt.Errorf("gemini function declaration: %w", err)
	}
	name := n.Get("name")
	if name == nil || name.Kind != jsonlex.String {
		return nil, fmt.Errorf("gemini function declaration: no name in %.80s", p.JSON)
	}
	d := &genai.FunctionDeclaration{Name: name.Text}
	if desc := n.Get("description"); desc != nil {
		d.Description = desc.Text
	}
	if p.Form == provider.FormNone {
		// A tool without arguments: no Parameters, no ParametersJsonSchema.
		for _, f := range []provider.GeminiForm{provider.FormParameters, provider.FormJSONSchema} {
			if n.Get(string(f)) != nil {
				return nil, fmt.Errorf("gemini function declaration %s: a %q member, but no parameters were expected", d.Name, f)
			}
		}
		return d, nil
	}
	params := n.Get(string(p.Form))
	switch {
	case params == nil:
		return nil, fmt.Errorf("gemini function declaration %s: no %q member", d.Name, p.Form)
	case p.Form == provider.FormJSONSchema:
		d.ParametersJsonSchema = json.RawMessage(params.Compact())
	case p.Form == provider.FormParameters:
		var s genai.Schema
		if err := json.Unmarshal(params.Compact(), &s); err != nil {
			return nil, fmt.Errorf("gemini function declaration %s: parameters: %w", d.Name, err)
		}
		d.Parameters = &s
	default:
		return nil, fmt.Errorf("gemini function declaration %s: unknown form %q", d.Name, p.Form)
	}
	return d, nil
}

// Call runs the function a function call asks for through caller and
// returns the function response part to send back, whatever happened: the
// tool's output under "output" (a structured output as its JSON object,
// any other output as a string), or, on failure (invalid arguments, an
// unknown tool, a tool that needs confirmation...), the caller's message
// for the model under "error", so that it can correct the call. The error
// is returned too, for logs. When the call has an ID (it is optional, and
// not every model or endpoint sets one), it goes into the call's context
// as the call ID (tool.WithCallID), so that a call service runs a call it
// has already run only once; the response part carries the same ID.
//
// The SDK hands the arguments over as a map; Call encodes them back to
// JSON for the caller's decoder.
func Call(ctx context.Context, caller tool.Caller, call *genai.FunctionCall) (*genai.Part, error) {
	var args []byte // empty means {}
	if call.Args != nil {
		b, err := json.Marshal(call.Args)
		if err != nil {
			return nil, fmt.Errorf("gemini function call %s: encode arguments: %w", call.Name, err)
		}
		args = b
	}
	res, err := caller.Call(tool.WithCallID(ctx, call.ID), call.Name, args)
	var response map[string]any
	switch {
	case res.IsError:
		response = map[string]any{"error": res.Text()}
	case res.Structured: // a JSON object
		response = map[string]any{"output": json.RawMessage(res.Content)}
	default:
		response = map[string]any{"output": res.Text()}
	}
	part := genai.NewPartFromFunctionResponse(call.Name, response)
	part.FunctionResponse.ID = call.ID
	return part, err
}
