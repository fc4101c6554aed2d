package gen

import (
	"go/types"
	"strings"

	"github.com/dave/jennifer/jen"
)

// importNames tells f the name of every package the tools packages
// import, and of the tools packages themselves, so that each is imported
// without an alias when its name is the last element of its path (as
// goimports writes it). jennifer adds an alias only where two packages
// share a name.
func importNames(f *jen.File, l *loaded) {
	seen := map[*types.Package]bool{}
	var walk func(p *types.Package)
	walk = func(p *types.Package) {
		if p == nil || seen[p] {
			return
		}
		seen[p] = true
		if p.Name() == importBase(p.Path()) {
			f.ImportName(p.Path(), p.Name())
		} else {
			f.ImportAlias(p.Path(), p.Name())
		}
		for _, q := range p.Imports() {
			walk(q)
		}
	}
	for _, p := range l.pkgs {
		walk(p.Types)
	}
}

// importBase is the last element of an import path, without a major
// version suffix (example.com/x/v2 is x).
func importBase(path string) string {
	elems := strings.Split(path, "/")
	last := elems[len(elems)-1]
	if len(elems) > 1 && len(last) > 1 && last[0] == 'v' && strings.Trim(last[1:], "0123456789") == "" {
		last = elems[len(elems)-2]
	}
	return last
}
