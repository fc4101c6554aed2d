// Package pkg is a fixture of the link checker: it names pkg/present.txt,
// docs/ok.md, github.com/toolgen-go/toolgen/docs, pkg/*.txt, pkg/..., and
// pkg/sub.Thing, testdata/present.txt (relative to the package), tools/list
// (a method, not a path), encoding/json (not of this module); and pkg/absent.go,
// testdata/nothing-here.
//
// See [the docs](../docs/gone.md) and [these](../docs/ok.md#a-section).
package pkg

//go:generate echo pkg/absent-in-a-directive.go

type T struct {
	// F's doc names pkg/thing.go.
	F int
}

// C's doc names github.com/toolgen-go/toolgen/pkg/missing.
const C = 1

func f() {
	// Not a doc comment: pkg/absent-in-code.go.
}
