package demo

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/toolgen-go/toolgen/runtime/tool"
)

// barWidth is the number of cells of a Bar.
const barWidth = 20

// Bar draws the progress a tool reports (tool.Progress) as a line of
// text, one call at a time: it is a tool.ProgressListener. On a terminal
// it redraws the line at every report; elsewhere (a file, a test's
// buffer) it writes the last state once, when End is called, so that
// the output does not depend on how fast the tool ran. It is safe for
// concurrent use.
type Bar struct {
	w    io.Writer
	live bool

	mu   sync.Mutex
	line string // the line drawn (live) or to draw; "" when none
}

// NewBar returns a Bar writing to w, redrawing in place when w is a
// terminal.
func NewBar(w io.Writer) *Bar { return &Bar{w: w, live: isTerminal(w)} }

// Progress draws r.
func (b *Bar) Progress(_ context.Context, r tool.ProgressReport) {
	line := barLine(r)
	b.mu.Lock()
	defer b.mu.Unlock()
	b.line = line
	if b.live {
		fmt.Fprintf(b.w, "\r%s\x1b[K", line)
	}
}

// End ends the call's line, if its tool reported anything.
func (b *Bar) End() {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch {
	case b.line == "":
	case b.live:
		fmt.Fprintln(b.w)
	default:
		fmt.Fprintln(b.w, b.line)
	}
	b.line = ""
}

// barLine is r as a line: cells filled in proportion, the percentage and
// the message; without a total, the work done and the message.
func barLine(r tool.ProgressReport) string {
	if r.Total <= 0 {
		return fmt.Sprintf("  [%s] %g  %s", strings.Repeat("~", barWidth), r.Done, r.Message)
	}
	frac := min(max(r.Done/r.Total, 0), 1)
	filled := int(frac * barWidth)
	return fmt.Sprintf("  [%s%s] %3.0f%%  %s", strings.Repeat("#", filled), strings.Repeat("-", barWidth-filled), frac*100, r.Message)
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
