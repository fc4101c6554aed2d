// Command app serves the registry through package server, which imports
// the generated package: toolgen, run with ./... from the case's root,
// skips it too.
package main

import (
	"fmt"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gen/testdata/cases/registryuser/server"
)

func main() { fmt.Println(server.New()) }
