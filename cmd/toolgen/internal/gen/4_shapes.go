package gen

import (
	"go/token"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/problem"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/shape"
)

// deriveShapes is the shapes phase: it maps every tool's input and output
// type to the JSON shape its codecs follow, or reports why a type cannot
// travel as JSON (package shape). Types are derived once per direction.
func deriveShapes(fset *token.FileSet, m *model) []*problem.Error {
	var errs []*problem.Error
	d := shape.NewDeriver(fset)
	for _, t := range m.tools {
		if t.input != nil {
			s, es := d.Derive(t.input, shape.In, t.inputPos)
			errs = append(errs, es...)
			t.inShape = s
		}
		if t.output != nil {
			s, es := d.Derive(t.output, shape.Out, t.callPos)
			errs = append(errs, es...)
			t.outShape = s
		}
	}
	return append(errs, deriveSecrets(m)...)
}

// deriveSecrets completes the shapes phase: the JSON Pointers of every
// tool's secret input members, or the problems of the secrets in
// recursive types.
func deriveSecrets(m *model) []*problem.Error {
	var errs []*problem.Error
	for _, t := range m.tools {
		if t.inShape == nil {
			continue
		}
		ptrs, es := shape.SecretPointers(t.inShape)
		errs = append(errs, es...)
		t.secrets = ptrs
	}
	return errs
}
