// Package tools holds the two tools the call-path benchmarks of the bench
// module measure: a small input (two fields) and a medium one (twelve
// fields with a nested struct, a slice of structs, optional pointers, a
// time.Time, a map, an enum and bounds). The registry generated from them
// is in ../generated; the same shapes, written for easyjson and for the
// other comparison paths, are in ../easy and ../compare.
package tools

//go:generate go run github.com/toolgen-go/toolgen/cmd/toolgen -out ../generated .

import (
	"context"
	"time"
)

// Looks up orders matching a query.
//
//tool:name small
//tool:readonly
type SmallTool struct{}

// SmallInput is the small benchmark input.
type SmallInput struct {
	// Words to look for.
	Query string `json:"query" jsonschema:"minLength=1,maxLength=200"`
	// How many results to return.
	Limit int `json:"limit,omitempty" jsonschema:"minimum=1,maximum=50"`
}

// SmallOutput is the small benchmark output.
type SmallOutput struct {
	// The query, as received.
	Query string `json:"query"`
	// The limit in force.
	Limit int `json:"limit"`
}

// Call echoes its input.
func (SmallTool) Call(ctx context.Context, in SmallInput) (SmallOutput, error) {
	return Small(in), nil
}

// Small is SmallTool's logic, shared by every benchmarked path.
func Small(in SmallInput) SmallOutput {
	limit := in.Limit
	if limit == 0 {
		limit = 10
	}
	return SmallOutput{Query: in.Query, Limit: limit}
}

// Places an order.
//
//tool:name medium
//tool:kind action
type MediumTool struct{}

// Person is the owner of an order.
type Person struct {
	// Display name.
	Name string `json:"name" jsonschema:"minLength=1,maxLength=100"`
	// Email address.
	Email string `json:"email,omitempty" jsonschema:"maxLength=254"`
}

// Item is one line of an order.
type Item struct {
	// Stock keeping unit.
	SKU string `json:"sku" jsonschema:"minLength=1,maxLength=32"`
	// How many.
	Qty int `json:"qty" jsonschema:"minimum=1,maximum=1000"`
	// Unit price.
	Price float64 `json:"price" jsonschema:"minimum=0"`
}

// MediumInput is the medium benchmark input: twelve properties.
type MediumInput struct {
	// Title of the order.
	Title string `json:"title" jsonschema:"minLength=1,maxLength=200"`
	// Priority, 1 to 5.
	Priority int `json:"priority" jsonschema:"minimum=1,maximum=5"`
	// Status of the order.
	Status string `json:"status" jsonschema:"enum=open,enum=pending,enum=closed"`
	// Who owns the order.
	Owner Person `json:"owner"`
	// The order's lines.
	Items []Item `json:"items" jsonschema:"minItems=1,maxItems=50"`
	// Tags.
	Tags []string `json:"tags,omitempty" jsonschema:"maxItems=10,uniqueItems=true"`
	// Free-form labels.
	Labels map[string]string `json:"labels,omitempty"`
	// When the order was placed.
	Created time.Time `json:"created"`
	// When the order is due, if ever.
	Due *time.Time `json:"due,omitempty"`
	// Spending cap.
	Budget *float64 `json:"budget,omitempty" jsonschema:"minimum=0,maximum=1000000"`
	// Whether to notify the owner.
	Notify *bool `json:"notify,omitempty"`
	// Discount, 0 to 1.
	Discount float64 `json:"discount" jsonschema:"minimum=0,maximum=1"`
}

// MediumOutput is the medium benchmark output.
type MediumOutput struct {
	// The order's ID.
	ID string `json:"id"`
	// Number of lines.
	Lines int `json:"lines"`
	// Total price after the discount.
	Total float64 `json:"total"`
	// Whether the total is within the budget.
	WithinBudget bool `json:"within_budget"`
}

// Call prices the order.
func (MediumTool) Call(ctx context.Context, in MediumInput) (MediumOutput, error) {
	return Medium(&in), nil
}

// Medium is MediumTool's logic, shared by every benchmarked path.
func Medium(in *MediumInput) MediumOutput {
	total := 0.0
	for _, it := range in.Items {
		total += float64(it.Qty) * it.Price
	}
	total *= 1 - in.Discount
	within := in.Budget == nil || total <= *in.Budget
	return MediumOutput{ID: "o-42", Lines: len(in.Items), Total: total, WithinBudget: within}
}
