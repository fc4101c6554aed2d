package gen

import (
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/problem"
	"github.com/toolgen-go/toolgen/runtime/provider"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// The providers phase: the definitions each provider's API takes, derived
// once at generation time (9_render_providers.go writes them into the
// generated providers package).

// projectTools computes every tool's definitions for the providers
// (OpenAI, Anthropic, Gemini) at generation time, from exactly the
// description and input schema the registry publishes. A tool that a
// provider cannot be offered fails generation at its declaration.
func projectTools(tools []*toolModel) (map[*toolModel]*provider.Precomputed, []*problem.Error) {
	out := map[*toolModel]*provider.Precomputed{}
	var errs []*problem.Error
	for _, t := range tools {
		p, err := provider.Compute(&tool.Spec{Name: t.name, Group: t.group, GroupDescription: t.groupDesc, Description: t.description, InputSchema: t.inNode.Compact(), Defer: t.deferred})
		if err != nil {
			errs = append(errs, problem.Errorf(t.pos, "%v", err))
			continue
		}
		out[t] = p
	}
	return out, errs
}
