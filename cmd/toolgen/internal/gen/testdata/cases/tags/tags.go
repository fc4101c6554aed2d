// Package tags writes jsonschema tags that invopop would drop silently, or
// that no argument could satisfy.
package tags

import "context"

// Names is a named slice: invopop refers to its definition.
type Names []string

// Inner is reached through a field of In.
type Inner struct {
	Deep string `json:"deep" jsonschema:"maxLenght=3"`
}

// Base is embedded in In.
type Base struct {
	ID string `json:"id"`
}

// In has a mistake in every tag but the last few.
type In struct {
	Base  `jsonschema:"description=ignored"`
	Query string   `json:"query" jsonschema:"minLenght=1"`
	Omit  string   `json:"omit" jsonschema:"omitempty"`
	Const string   `json:"const" jsonschema:"const=x"`
	Req   string   `json:"req" jsonschema:"required=true"`
	Name  string   `json:"name" jsonschema:"minimum=3"`
	Count int      `json:"count" jsonschema:"pattern=^a$"`
	Word  string   `json:"word" jsonschema:"minItems=1"`
	Level int      `json:"level" jsonschema:"enum=a"`
	Max   int      `json:"max" jsonschema:"maximum=abc"`
	Short string   `json:"short" jsonschema:"minLength=-5"`
	Huge  float64  `json:"huge" jsonschema:"maximum=1e400"`
	Step  int      `json:"step" jsonschema:"multipleOf=0"`
	Half  int      `json:"half" jsonschema:"enum=1.5"`
	Small uint8    `json:"small" jsonschema:"enum=300"`
	Flag  bool     `json:"flag" jsonschema:"default=yes"`
	Twice int      `json:"twice" jsonschema:"minimum=1,minimum=2"`
	Range int      `json:"range" jsonschema:"minimum=10,maximum=1"`
	Odd   int      `json:"odd" jsonschema:"exclusiveMinimum=1,exclusiveMaximum=2"`
	Ratio float64  `json:"ratio" jsonschema:"exclusiveMinimum=1,maximum=1"`
	Len   string   `json:"len" jsonschema:"minLength=5,maxLength=2"`
	Items []string `json:"items" jsonschema:"minItems=5,maxItems=2"`
	Pick  int      `json:"pick" jsonschema:"minimum=1,maximum=5,enum=1,enum=9"`
	Code  string   `json:"code" jsonschema:"maxLength=2,enum=ab,enum=abc"`
	Uniq  []int    `json:"uniq" jsonschema:"uniqueItems"`
	NotU  []int    `json:"not_u" jsonschema:"uniqueItems=false"`
	Names Names    `json:"names" jsonschema:"minItems=1"`
	Cells []int    `json:"cells" jsonschema:"minimum=5,maximum=1"`
	Late  string   `json:"late" jsonschema:"nullable,-"`
	Inner Inner    `json:"inner"`

	// Correct tags: no problem.
	Scores []int             `json:"scores" jsonschema:"minimum=0,maximum=100,uniqueItems=true"`
	Labels []string          `json:"labels" jsonschema:"minLength=1,pattern=^[a-z]+$,minItems=1"`
	Attrs  map[string]string `json:"attrs" jsonschema:"minProperties=1,maxProperties=5"`
	Sort   string            `json:"sort" jsonschema:"enum=asc,enum=desc,default=asc,description=Order\\, ascending or not"`
	Ptr    *int              `json:"ptr,omitempty" jsonschema:"minimum=1,maximum=1,nullable"`
}

// Out is an output type: its tags are checked too.
type Out struct {
	Total int `json:"total" jsonschema:"minimun=0"`
}

// Tool has them.
//
//tool:name tags
type Tool struct{}

// Call runs it.
func (Tool) Call(ctx context.Context, in In) (Out, error) { return Out{}, nil }
