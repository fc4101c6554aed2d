package codecplan

import (
	"fmt"
	"go/types"
	"sync"
	"testing"
)

// A layout's names are given on first use, and render asks for them while
// the planner of the next unit gives new ones: its methods are called
// concurrently. Each package keeps one name, and no two packages share
// one. (Without the layout's lock, go test -race reports the race, and
// the runtime may stop on concurrent map writes.)
func TestLayoutConcurrent(t *testing.T) {
	l := NewLayout("example.com/reg", nil)
	var pkgs []*types.Package
	for i := range 64 {
		pkgs = append(pkgs, types.NewPackage(fmt.Sprintf("example.com/m%d/x", i), "x"))
	}
	got := make([][]string, 4)
	var wg sync.WaitGroup
	for w := range got {
		wg.Go(func() {
			for i := range pkgs {
				p := pkgs[(i*(w+1))%len(pkgs)]
				got[w] = append(got[w], p.Path()+" "+l.Unit(p))
			}
		})
	}
	wg.Wait()
	names := map[string]string{}
	for _, g := range got {
		for _, s := range g {
			var path, unit string
			fmt.Sscan(s, &path, &unit)
			if prev, ok := names[path]; ok && prev != unit {
				t.Fatalf("package %s named %s and %s", path, prev, unit)
			}
			names[path] = unit
		}
	}
	seen := map[string]string{}
	for path, unit := range names {
		if other, ok := seen[unit]; ok {
			t.Fatalf("packages %s and %s share the codec package %s", path, other, unit)
		}
		seen[unit] = path
	}
	if len(names) != len(pkgs) {
		t.Fatalf("%d packages named, want %d", len(names), len(pkgs))
	}
}
