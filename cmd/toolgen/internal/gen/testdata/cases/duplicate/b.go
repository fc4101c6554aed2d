package duplicate

import "context"

// Second is another tool with the same name.
//
//tool:name same_name
type Second struct{}

// Call runs it.
func (Second) Call(ctx context.Context) (string, error) { return "", nil }
