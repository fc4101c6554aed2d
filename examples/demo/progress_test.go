package demo

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/toolgen-go/toolgen/runtime/tool"
)

func TestBar(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	b := NewBar(&out)
	b.End()
	assert.Empty(t, out.String(), "nothing reported, nothing drawn")

	ctx := context.Background()
	b.Progress(ctx, tool.ProgressReport{Done: 1, Total: 4, Message: "one of four"})
	b.Progress(ctx, tool.ProgressReport{Done: 2, Total: 4, Message: "two of four"})
	assert.Empty(t, out.String(), "not a terminal: drawn once, at the end")
	b.End()
	b.Progress(ctx, tool.ProgressReport{Done: 7, Message: "no total"})
	b.Progress(ctx, tool.ProgressReport{Done: 9, Total: 4, Message: "past the total"})
	b.End()
	assert.Equal(t, "  [##########----------]  50%  two of four\n"+
		"  [####################] 100%  past the total\n", out.String())
	assert.Equal(t, "  [~~~~~~~~~~~~~~~~~~~~] 7  no total", barLine(tool.ProgressReport{Done: 7, Message: "no total"}))
}
