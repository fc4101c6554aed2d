package provider

import (
	"github.com/toolgen-go/toolgen/runtime/jsontree"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// Anthropic returns spec's Messages API tool:
//
//	{"name":N,"description":D,"input_schema":S}
//
// with the input schema exactly as published. It fails when the schema has
// anyOf, oneOf or allOf at the top level, which the API refuses.
func Anthropic(spec *tool.Spec) (Projection, error) {
	root, err := inputSchema(ProviderAnthropic, spec, anthropicNamePattern)
	if err != nil {
		return Projection{}, err
	}
	for _, k := range []string{"anyOf", "oneOf", "allOf"} {
		if root.Get(k) != nil {
			return Projection{}, &Error{Provider: ProviderAnthropic, Tool: spec.Name, Msg: "the input schema has " + k + " at the top level, which the Messages API refuses"}
		}
	}
	def := object(
		jsontree.Member{Key: "name", Value: str(spec.Name)},
		jsontree.Member{Key: "description", Value: description(spec)},
		jsontree.Member{Key: "input_schema", Value: root},
	)
	return Projection{JSON: def.Compact()}, nil
}
