// want package:`\) tools tags}$`

// Package tags writes jsonschema tags invopop drops, or that no argument
// could satisfy.
package tags

import "context"

// Names is a named slice: invopop refers to its definition.
type Names []string

// In has one mistake of each class, then correct tags.
type In struct {
	Query string   `json:"query" jsonschema:"minLenght=1"`           // want `^tags.In.Query: unknown jsonschema key "minLenght", which invopop drops; did you mean minLength\?$`
	Name  string   `json:"name" jsonschema:"minimum=3"`              // want `^tags.In.Name: jsonschema key minimum does not apply to string, and invopop drops it: it applies to numbers and slices of numbers$`
	Count int      `json:"count" jsonschema:"pattern=^a$"`           // want `^tags.In.Count: jsonschema key pattern does not apply to int`
	Level int      `json:"level" jsonschema:"enum=a"`                // want `^tags.In.Level: jsonschema "enum=a": not a number; invopop drops it$`
	Short string   `json:"short" jsonschema:"minLength=-5"`          // want `^tags.In.Short: jsonschema "minLength=-5": not a non-negative integer; invopop drops it$`
	Huge  float64  `json:"huge" jsonschema:"maximum=1e400"`          // want `^tags.In.Huge: jsonschema "maximum=1e400": out of the range of float64; invopop drops it$`
	Range int      `json:"range" jsonschema:"minimum=10,maximum=1"`  // want `^tags.In.Range: jsonschema "minimum=10" and "maximum=1" contradict: no argument could ever be valid$`
	Items []string `json:"items" jsonschema:"minItems=5,maxItems=2"` // want `^tags.In.Items: jsonschema "minItems=5" and "maxItems=2" contradict`
	Pick  int      `json:"pick" jsonschema:"maximum=5,enum=9"`       // want `^tags.In.Pick: jsonschema "enum=9" is above "maximum=5": no argument could ever be that value$`
	Names Names    `json:"names" jsonschema:"minItems=1"`            // want `^tags.In.Names: jsonschema key minItems has no effect on a field of named type Names`
	Uniq  []int    `json:"uniq" jsonschema:"uniqueItems"`            // want `^tags.In.Uniq: jsonschema key uniqueItems needs a value, or invopop drops it: write uniqueItems=true$`

	Scores []int             `json:"scores" jsonschema:"minimum=0,maximum=100"`
	Attrs  map[string]string `json:"attrs" jsonschema:"minProperties=1"`
	Sort   string            `json:"sort" jsonschema:"enum=asc,enum=desc,default=asc,required"`
}

// Tool has them.
//
//tool:name tags
type Tool struct{}

// Call runs it.
func (Tool) Call(ctx context.Context, in In) (string, error) { return "", nil }
