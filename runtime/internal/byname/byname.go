// Package byname finds a tool's spec by name in a slice of specs sorted
// by name: the one binary search of runtime/palette and runtime/mcpclient,
// which keep such slices (an offer, a remote server's listing).
package byname

import (
	"slices"
	"strings"

	"github.com/toolgen-go/toolgen/runtime/tool"
)

// Find returns the spec named name in sorted, a slice sorted by name
// without duplicates (as tool.Registry.Tools and tool.Caller.Offer return
// specs), and whether it is there. It allocates nothing.
func Find(sorted []*tool.Spec, name string) (*tool.Spec, bool) {
	i, ok := slices.BinarySearchFunc(sorted, name, func(s *tool.Spec, n string) int { return strings.Compare(s.Name, n) })
	if !ok {
		return nil, false
	}
	return sorted[i], true
}
