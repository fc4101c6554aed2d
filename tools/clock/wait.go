package clock

import (
	"context"
	"fmt"
	"time"

	"github.com/toolgen-go/toolgen/runtime/tool"
)

// Waits the given number of seconds, then tells the time it finished: for
// pacing, such as giving something time to happen before checking on it
// again. It reports how long it has waited while it waits, and stops early
// when the call is cancelled.
//
//tool:name clock_wait
//tool:readonly
//tool:idempotent
//tool:title Wait
//tool:verb Waiting
//tool:timeout 70s
//tool:zerovalue
type WaitTool struct {
	Clock func() time.Time // the time reported when the wait ends; nil means time.Now
	Step  time.Duration    // how often it reports its progress; zero means DefaultWaitStep
}

// DefaultWaitStep is how often clock_wait reports its progress when its
// Step is zero.
const DefaultWaitStep = 100 * time.Millisecond

// WaitInput holds the arguments of clock_wait.
type WaitInput struct {
	// How long to wait, in seconds.
	Seconds float64 `json:"seconds" jsonschema:"minimum=0.1,maximum=60"`
}

// Waited is the result of clock_wait.
type Waited struct {
	// How long it waited, in seconds.
	Seconds float64 `json:"seconds"`
	// When the wait ended, by the clock.
	Until time.Time `json:"until"`
}

// Call waits in.Seconds, one Step at a time, reporting after each step how
// long it has waited (tool.Progress: seconds waited of seconds to wait).
// When ctx is done it stops at once and returns an error that wraps the
// context's: the call ends as cancelled (or timed out), never as done.
func (t WaitTool) Call(ctx context.Context, in WaitInput) (Waited, error) {
	total := time.Duration(in.Seconds * float64(time.Second))
	step := t.Step
	if step <= 0 {
		step = DefaultWaitStep
	}
	timer := time.NewTimer(0)
	<-timer.C
	for waited := time.Duration(0); waited < total; {
		next := min(waited+step, total)
		timer.Reset(next - waited)
		select {
		case <-ctx.Done():
			timer.Stop()
			return Waited{}, fmt.Errorf("clock_wait: stopped after %s of %s: %w", waited, total, context.Cause(ctx))
		case <-timer.C:
		}
		waited = next
		if tool.ProgressWanted(ctx) { // the message costs a string: only for a listener
			tool.Progress(ctx, waited.Seconds(), total.Seconds(), fmt.Sprintf("waited %.1f s of %.1f s", waited.Seconds(), total.Seconds()))
		}
	}
	return Waited{Seconds: total.Seconds(), Until: readClock(t.Clock)}, nil
}
