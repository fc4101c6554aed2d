// Command mainpkg declares a tool where no registry can import it.
package main

import "context"

// Tool is in package main.
//
//tool:name in_main
type Tool struct{} // want `^tool Tool is in package main, which cannot be imported; move it to an importable package$`

// Call runs it.
func (Tool) Call(ctx context.Context) (string, error) { return "", nil }

func main() {}
