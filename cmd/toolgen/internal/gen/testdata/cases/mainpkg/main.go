// Command mainpkg declares a tool in package main.
package main

import "context"

// Tool cannot be imported.
//
//tool:name in_main
type Tool struct{}

// Call runs it.
func (Tool) Call(ctx context.Context) (string, error) { return "", nil }

func main() {}
