// Package easy is the easyjson comparison path of the call-path benchmarks:
// the benchmark inputs and outputs of ../tools written again for easyjson
// (whose generated methods would otherwise change how toolgen treats the
// tools' own types), decoded by the committed easyjson output in
// easyjson_gen.go, and checked by hand against the same schema keywords
// the toolgen-generated decoder enforces.
//
// easyjson refuses unknown fields (-disallow_unknown_fields) and missing
// required fields (the ",required" tag option). Unlike toolgen's decoder it
// lets duplicate member names and invalid UTF-8 through, and it stops at the
// first problem instead of listing all of them.
package easy

//go:generate go run github.com/mailru/easyjson/easyjson@v0.9.2 -disallow_unknown_fields -output_filename easyjson_gen.go types.go

import (
	"errors"
	"time"
	"unicode/utf8"
)

// SmallInput mirrors tools.SmallInput.
//
//easyjson:json
type SmallInput struct {
	Query string `json:"query,required"`
	Limit int    `json:"limit,omitempty"`
}

// SmallOutput mirrors tools.SmallOutput.
//
//easyjson:json
type SmallOutput struct {
	Query string `json:"query"`
	Limit int    `json:"limit"`
}

// Person mirrors tools.Person.
type Person struct {
	Name  string `json:"name,required"`
	Email string `json:"email,omitempty"`
}

// Item mirrors tools.Item.
type Item struct {
	SKU   string  `json:"sku,required"`
	Qty   int     `json:"qty,required"`
	Price float64 `json:"price,required"`
}

// MediumInput mirrors tools.MediumInput.
//
//easyjson:json
type MediumInput struct {
	Title    string            `json:"title,required"`
	Priority int               `json:"priority,required"`
	Status   string            `json:"status,required"`
	Owner    Person            `json:"owner,required"`
	Items    []Item            `json:"items,required"`
	Tags     []string          `json:"tags,omitempty"`
	Labels   map[string]string `json:"labels,omitempty"`
	Created  time.Time         `json:"created,required"`
	Due      *time.Time        `json:"due,omitempty"`
	Budget   *float64          `json:"budget,omitempty"`
	Notify   *bool             `json:"notify,omitempty"`
	Discount float64           `json:"discount,required"`
}

// MediumOutput mirrors tools.MediumOutput.
//
//easyjson:json
type MediumOutput struct {
	ID           string  `json:"id"`
	Lines        int     `json:"lines"`
	Total        float64 `json:"total"`
	WithinBudget bool    `json:"within_budget"`
}

// errInvalid is what the hand-written checks return; like easyjson they
// stop at the first problem.
var errInvalid = errors.New("invalid arguments")

// runes reports whether s has between lo and hi characters.
func runes(s string, lo, hi int) bool {
	n := utf8.RuneCountInString(s)
	return n >= lo && n <= hi
}

// Check enforces the schema keywords of tools.SmallInput that easyjson does
// not: minLength, maxLength, minimum, maximum.
func (in *SmallInput) Check() error {
	if !runes(in.Query, 1, 200) || in.Limit != 0 && (in.Limit < 1 || in.Limit > 50) {
		return errInvalid
	}
	return nil
}

// Check enforces the schema keywords of tools.MediumInput that easyjson
// does not: lengths, bounds, the enum, minItems, maxItems and uniqueItems.
// (The RFC 3339 format of the times is checked by time.Time's
// UnmarshalJSON.)
func (in *MediumInput) Check() error {
	switch {
	case !runes(in.Title, 1, 200),
		in.Priority < 1 || in.Priority > 5,
		in.Status != "open" && in.Status != "pending" && in.Status != "closed",
		!runes(in.Owner.Name, 1, 100),
		!runes(in.Owner.Email, 0, 254),
		len(in.Items) < 1 || len(in.Items) > 50,
		len(in.Tags) > 10,
		in.Budget != nil && (*in.Budget < 0 || *in.Budget > 1e6),
		in.Discount < 0 || in.Discount > 1:
		return errInvalid
	}
	for i := range in.Items {
		it := &in.Items[i]
		if !runes(it.SKU, 1, 32) || it.Qty < 1 || it.Qty > 1000 || it.Price < 0 {
			return errInvalid
		}
	}
	for i := range in.Tags {
		for j := i + 1; j < len(in.Tags); j++ {
			if in.Tags[i] == in.Tags[j] {
				return errInvalid
			}
		}
	}
	return nil
}

// Small is tools.Small for this package's types.
func Small(in *SmallInput) SmallOutput {
	limit := in.Limit
	if limit == 0 {
		limit = 10
	}
	return SmallOutput{Query: in.Query, Limit: limit}
}

// Medium is tools.Medium for this package's types.
func Medium(in *MediumInput) MediumOutput {
	total := 0.0
	for _, it := range in.Items {
		total += float64(it.Qty) * it.Price
	}
	total *= 1 - in.Discount
	within := in.Budget == nil || total <= *in.Budget
	return MediumOutput{ID: "o-42", Lines: len(in.Items), Total: total, WithinBudget: within}
}
