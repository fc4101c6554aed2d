// Package exit is a bootstrap fixture whose init exits the program.
package exit

import (
	"fmt"
	"os"
)

func init() {
	fmt.Fprintln(os.Stderr, "exit: no configuration")
	os.Exit(3)
}

// Input is an input.
type Input struct {
	X int `json:"x"`
}
