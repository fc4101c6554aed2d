// Package layout holds the module's architecture tests and nothing else:
// which packages may depend on which, measured with `go list -deps` (every
// package a program links, not only direct imports); and how big a file
// or a function may grow (size_test.go: no hand-written Go file of cmd/
// or runtime/ over 600 lines, no function over 80, no exceptions).
//
// The floors, from the bottom:
//
//   - runtime/: everything a program links (the registry runtime, the
//     codec, the MCP server, the provider projections and their SDK
//     adapters, the JSON tree they share). It imports nothing of this
//     module outside runtime/.
//   - cmd/ (cmd/toolgen with its internal/ packages, cmd/toolgenvet):
//     everything `go generate` and `go vet` run (loading packages,
//     directives, invopop reflection, rendering). Nothing outside cmd/toolgen
//     can import the generator: it lives under cmd/toolgen/internal.
//   - tools/, generated/, examples/: the sample tools, their generated
//     registry and the programs that serve it; they link runtime/ and never
//     the generator.
package layout
