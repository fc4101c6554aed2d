package gen

import (
	"fmt"
	"go/format"
	"strings"
	"testing"

	"github.com/dave/jennifer/jen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// dispatchSource is the formatted source of the dispatch of a set of n
// tools, whose codec package is example.com/out/internal/xcodec.
func dispatchSource(t *testing.T, n int) string {
	t.Helper()
	var tools []*toolModel
	fields := map[*toolModel]string{}
	for i := range n {
		tm := &toolModel{pointer: i%2 == 0}
		tm.name = fmt.Sprintf("t%04d", i)
		tools = append(tools, tm)
		fields[tm] = fmt.Sprintf("T%04d", i)
	}
	f := jen.NewFilePathName("example.com/out/xtools", "xtools")
	f.Add(dispatchFunc(tools, fields, "example.com/out/internal/xcodec"))
	src, perr := printFile("tools_gen.go", f)
	require.Nil(t, perr)
	out, err := format.Source(src)
	require.NoError(t, err)
	return string(out)
}

// Up to dispatchChunk tools, dispatch is one switch; beyond, it switches
// on i/dispatchChunk to methods of dispatchChunk tools each, every tool's
// case in the method of its chunk, once, and each method ends as dispatch
// does for an index it does not hold.
func TestDispatchChunks(t *testing.T) {
	one := dispatchSource(t, dispatchChunk)
	assert.Equal(t, 1, strings.Count(one, "func (t *Tools) dispatch"), "one method")
	assert.NotContains(t, one, "i / ")

	n := 2*dispatchChunk + 3
	src := dispatchSource(t, n)
	assert.Contains(t, src, fmt.Sprintf("switch i / %d {", dispatchChunk))
	for c := range 3 {
		assert.Contains(t, src, fmt.Sprintf("\tcase %d:\n\t\treturn t.dispatch%d(ctx, i, mode, d, e)\n", c, c))
	}
	assert.Equal(t, 4, strings.Count(src, "func (t *Tools) dispatch"), "dispatch and three chunks")
	assert.Equal(t, 4, strings.Count(src, `fmt.Errorf("no tool %d in this set", i)`))
	methods := strings.Split(src, "func (t *Tools) dispatch")[2:]
	for i := range n {
		c := i / dispatchChunk
		ref := fmt.Sprintf("xcodec.CallT%04d(", i)
		assert.Equal(t, 1, strings.Count(src, ref), "tool %d once", i)
		assert.Contains(t, methods[c], fmt.Sprintf("case toolT%04d:\n\t\treturn %s", i, ref), "tool %d in chunk %d", i, c)
	}
	assert.Contains(t, methods[2], "return xcodec.CallT0514(ctx, t.T0514, mode, d, e)")
	assert.Contains(t, methods[2], "return xcodec.CallT0513(ctx, &t.T0513, mode, d, e)")
}
