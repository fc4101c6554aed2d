//go:build toolgen

package weather

// The JSON Schema hooks of this package's types. invopop/jsonschema calls
// them while toolgen's bootstrap program reflects the tools' schemas; that
// program builds with the toolgen build tag, so these hooks, and the
// invopop/jsonschema package they import, stay out of every program that
// only serves the generated registry.

import "github.com/invopop/jsonschema"

// JSONSchema describes the two forms UnmarshalJSON accepts to the model,
// in words and examples; without it invopop/jsonschema would describe the
// struct's Go fields. It publishes no constraint (no type, no oneOf):
// UnmarshalJSON enforces them, and toolgen only publishes keywords that its
// generated decoders check themselves.
func (Place) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{
		Description: `A city's name in English, such as "Lisbon", or coordinates in degrees: ` +
			`{"lat": 38.72, "lon": -9.14} with lat from -90 to 90 (north positive) and lon from -180 to 180 (east positive).`,
		Examples: []any{"Lisbon", map[string]any{"lat": 38.72, "lon": -9.14}},
	}
}
