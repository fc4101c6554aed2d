// Package unset is a golden case: value-typed tools New refuses when they
// are left unset, and tools whose zero value is ready.
package unset

import "context"

// In is the argument of every tool here.
type In struct {
	Text string `json:"text"`
}

// Greets in a set language; a comparable tool type, checked as a whole.
//
//tool:name unset_greet
type Greet struct {
	Greeting string
	Times    int
}

// Call greets.
func (g Greet) Call(ctx context.Context, in In) (string, error) {
	return g.Greeting + " " + in.Text, nil
}

// Filters words; not comparable (a slice and a func), checked field by field.
//
//tool:name unset_filter
type Filter struct {
	Words []string
	Keep  func(string) bool
	Opts  struct{ Strict bool }
}

// Call filters.
func (f Filter) Call(ctx context.Context, in In) (string, error) { return in.Text, nil }

// Echoes its argument; a struct with no fields needs no setting.
//
//tool:name unset_echo
type Echo struct{}

// Call echoes.
func (Echo) Call(ctx context.Context, in In) (string, error) { return in.Text, nil }

// Upper-cases its argument; its zero value is ready (a nil Map means the
// identity).
//
//tool:name unset_upper
//tool:zerovalue
type Upper struct {
	Map func(string) string
}

// Call maps.
func (u Upper) Call(ctx context.Context, in In) (string, error) {
	if u.Map == nil {
		return in.Text, nil
	}
	return u.Map(in.Text), nil
}
