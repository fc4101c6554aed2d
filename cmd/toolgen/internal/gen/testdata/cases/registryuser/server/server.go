// Package server uses the registry: it declares no tools, so toolgen,
// run with ./... from the case's root, skips it.
package server

import (
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gen/testdata/cases/registryuser/want"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gen/testdata/cases/registryuser/want/toolstools"
)

// New builds the registry.
func New() (any, error) { return want.New([]want.Tools{toolstools.Tools{}}) }
