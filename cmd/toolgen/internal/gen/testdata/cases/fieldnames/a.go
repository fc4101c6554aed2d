// Package fieldnames declares tool names that the generated Tools struct
// cannot tell apart.
package fieldnames

import "context"

// ListA lists todos.
//
//tool:name todo-list
type ListA struct{}

// Call runs it.
func (ListA) Call(ctx context.Context) (string, error) { return "", nil }

// Underscore has no letter in its name.
//
//tool:name _
type Underscore struct{}

// Call runs it.
func (Underscore) Call(ctx context.Context) (string, error) { return "", nil }

// Lives has a name whose camel form starts with a digit.
//
//tool:name _9lives
type Lives struct{}

// Call runs it.
func (Lives) Call(ctx context.Context) (string, error) { return "", nil }
