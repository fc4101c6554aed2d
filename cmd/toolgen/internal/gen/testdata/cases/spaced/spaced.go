// Package spaced writes directives with a space after //.
package spaced

import "context"

// Stats counts the open todos. Its only directive has a space: without
// the check, the tool would silently not exist.
//
// tool:name todo_stats
type Stats struct{}

// Call runs it.
func (Stats) Call(ctx context.Context) (string, error) { return "", nil }

// List lists the todos. Its name line has a space, its readonly line not.
//
// tool:name todo_list
//
//tool:readonly
type List struct{}

// Call runs it.
func (List) Call(ctx context.Context) (string, error) { return "", nil }

// Hammer is prose that mentions a tool: a hammer. Its comment says
// tool: at the start of a line, which is not a directive, and is left alone.
//
//tool:name hammer
type Hammer struct{}

// Call runs it.
func (Hammer) Call(ctx context.Context) (string, error) { return "", nil }
