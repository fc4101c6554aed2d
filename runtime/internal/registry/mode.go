package registry

import (
	"context"
	"strconv"

	"github.com/toolgen-go/toolgen/runtime/codec"
)

// Mode says how far a dispatched call goes.
type Mode uint8

const (
	// ModeCall decodes the arguments, runs the tool and encodes its output.
	ModeCall Mode = iota + 1
	// ModeCheck decodes and validates the arguments only; it runs nothing
	// and writes nothing.
	ModeCheck
	// ModeLog decodes the arguments and, for a tool with a LogArgs method
	// (Spec.LogsArgs), encodes what LogArgs returns as a JSON string and
	// returns OutputText; it runs nothing. A tool without LogArgs writes
	// nothing and returns 0.
	ModeLog
)

// String returns "call", "check" or "log", or "Mode(N)".
func (m Mode) String() string {
	switch m {
	case ModeCall:
		return "call"
	case ModeCheck:
		return "check"
	case ModeLog:
		return "log"
	}
	return "Mode(" + strconv.Itoa(int(m)) + ")"
}

// Output says what a dispatched call wrote to its encoder.
type Output uint8

const (
	// OutputText: the encoder holds plain text; Result.Content is the text.
	OutputText Output = iota + 1
	// OutputJSON: the encoder holds JSON text that has no output schema.
	OutputJSON
	// OutputStructured: the encoder holds a JSON object matching the tool's
	// OutputSchema; Result.Structured is set.
	OutputStructured
)

// String returns "text", "json" or "structured", or "Output(N)".
func (o Output) String() string {
	switch o {
	case OutputText:
		return "text"
	case OutputJSON:
		return "json"
	case OutputStructured:
		return "structured"
	}
	return "Output(" + strconv.Itoa(int(o)) + ")"
}

// Dispatch is generated: a switch on i, the index in the table of the
// tool to run (a constant per tool), that decodes the arguments from in
// (already Reset by the registry with the call's arguments and limits)
// and, in ModeCall, runs the tool and encodes its output to out (already
// Reset). Decoding failures are returned through toolimpl.InvalidArguments; the
// tool's own error is returned as is. In ModeCheck the Output is ignored.
// The registry calls it only with the index of a tool the table holds and
// the registry serves.
type Dispatch func(ctx context.Context, i int, mode Mode, in *codec.Decoder, out *codec.Encoder) (Output, error)

// Offered is generated: a switch on i, the index in the table of a tool
// whose Spec.DecidesOffer is set, that returns what the tool's Offered
// method returns for ctx.
type Offered func(ctx context.Context, i int) bool
