// Command toolgen turns Go types annotated with //tool: directives into a
// static, compile-checked tool registry for LLM agents.
//
// A tool is an ordinary Go type with directives in its doc comment and a
// Call method:
//
//	// SearchNotes finds notes whose title or body contains the query.
//	//
//	//tool:name notes_search
//	//tool:readonly
//	type SearchNotes struct{ Store *notes.Store }
//
//	func (t *SearchNotes) Call(ctx context.Context, in SearchInput) (SearchOutput, error)
//
// One go:generate line beside the tools writes the registry package:
//
//	//go:generate go tool toolgen -out ../generated ./...
//
// (with `go get -tool github.com/toolgen-go/toolgen/cmd/toolgen`), or
// `go run github.com/toolgen-go/toolgen/cmd/toolgen` without the tool
// directive. The output directory then holds registry_gen.go (specs,
// schemas, the Tools struct, New and typed dispatch), codec_gen.go (the
// decoders and encoders) and tools.json (what the model sees, indented for
// review).
//
// Usage:
//
//	toolgen [-out dir] [-pkg name] [-tags list] [-check] [-v] [-version] [packages]
//
// The flags:
//
//	-out dir      output directory of the generated package (default "generated")
//	-pkg name     output package name (default: the output directory's base name)
//	-tags list    comma-separated build tags for loading the packages
//	-check        write nothing; exit 1 when the generated files are stale (for CI)
//	-v            print the files written
//	-version      print toolgen's module version (from the build information)
//
// toolgen loads the packages (default "."), checks every declaration and
// reports every problem in one run as path:line:col: message. It exits 0 on
// success, 1 when there are problems (or, with -check, when the generated
// files are stale) and 2 on a usage error. Files are written only when their
// content changes.
//
// Schemas are reflected by github.com/invopop/jsonschema at generation time:
// toolgen builds and runs a small program that imports the tools packages,
// so their init functions run then.
package main

import (
	"context"
	"os"
	"os/signal"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
