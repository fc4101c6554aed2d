// want package:`\) tools hammer}$`

// Package spaced writes directives with a space after //.
package spaced

import "context"

// want +5 `^directive written as "// tool:name", which toolgen does not see: write //tool:name with no space after // \(gofmt then keeps directives at the end of the doc comment\)$`

// Stats counts the open todos. Its only directive has a space: it is not
// a tool, and says so.
//
// tool:name todo_stats
type Stats struct{}

// Call runs it.
func (Stats) Call(ctx context.Context) (string, error) { return "", nil }

// want +6 `^directive written as "// tool:name", which toolgen does not see`
// want +7 `^directive written as "//\\ttool:kind", which toolgen does not see: write //tool:kind`

// List has a space on its name line (no "missing //tool:name" then) and a
// tab on its kind line.
//
// tool:name todo_list
//
//	tool:kind read
//
//tool:readonly
type List struct{}

// Call runs it.
func (List) Call(ctx context.Context) (string, error) { return "", nil }

// Hammer mentions a tool: a hammer. A line of prose may start with
// tool: and is left alone.
//
//tool:name hammer
type Hammer struct{}

// Call runs it.
func (Hammer) Call(ctx context.Context) (string, error) { return "", nil }
