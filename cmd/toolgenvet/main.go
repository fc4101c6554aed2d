// Command toolgenvet runs toolgen's checks in go vet: the problems toolgen
// would refuse to generate with (//tool: directives, declarations, Call
// signatures, unsupported types, duplicate tool names), reported by go vet
// at toolgen's positions and in its words, without running toolgen.
//
// Install it as a tool of your module and hand it to go vet:
//
//	go get -tool github.com/toolgen-go/toolgen/cmd/toolgenvet
//	go vet -vettool=$(go tool -n toolgenvet) ./...
//
// or build it once:
//
//	go build -o bin/toolgenvet github.com/toolgen-go/toolgen/cmd/toolgenvet
//	go vet -vettool=bin/toolgenvet ./...
//
// -vettool replaces go vet's own analyzers, so run plain go vet as well. A
// misspelt directive comes with a fix: -fix -diff shows it, and -fix
// alone applies it (//tool:readnoly becomes //tool:readonly).
// toolgen itself remains the complete check: see the analyzer's
// documentation (github.com/toolgen-go/toolgen/cmd/toolgen/analyzer) for
// what only toolgen reports.
package main

import (
	"golang.org/x/tools/go/analysis/unitchecker"

	"github.com/toolgen-go/toolgen/cmd/toolgen/analyzer"
)

func main() { unitchecker.Main(analyzer.Analyzer) }
