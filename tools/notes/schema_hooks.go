//go:build toolgen

package notes

// The JSON Schema hooks of this package's types. invopop/jsonschema calls
// them while toolgen's bootstrap program reflects the tools' schemas; that
// program builds with the toolgen build tag, so these hooks, and the
// invopop/jsonschema package they import, stay out of every program that
// only serves the generated registry.

import "github.com/invopop/jsonschema"

// JSONSchemaExtend restricts the schema of every Priority to the values
// 1 to 5. invopop/jsonschema calls it wherever a Priority appears.
func (Priority) JSONSchemaExtend(s *jsonschema.Schema) {
	s.Enum = []any{1, 2, 3, 4, 5}
}

// JSONSchema describes a Color as the string its MarshalText writes;
// without it invopop/jsonschema would describe the struct's fields.
func (Color) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{
		Type:     "string",
		Pattern:  "^#[0-9a-fA-F]{6}$",
		Examples: []any{"#ff8800"},
	}
}
