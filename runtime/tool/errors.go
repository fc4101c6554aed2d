package tool

import (
	"errors"
	"fmt"
	"strconv"
)

// Code classifies the failure of a call.
type Code uint8

const (
	// CodeUnknownTool: no offered tool has the requested name.
	CodeUnknownTool Code = iota + 1
	// CodeInvalidArguments: the arguments do not decode into the tool's input.
	CodeInvalidArguments
	// CodeNeedsConfirmation: the tool proposes a change that a person must
	// confirm; nothing was run.
	CodeNeedsConfirmation
	// CodeFailed: the tool (or the encoding of its output) returned an error.
	CodeFailed
	// CodePanic: the tool, its decoder or its encoder panicked.
	CodePanic
	// CodeTimeout: the tool's Spec.Timeout, or the call's deadline, passed:
	// before the call started (nothing was run), while the tool ran (it
	// may still complete: its outcome is unknown), or the tool failed
	// after its Spec.Timeout passed.
	CodeTimeout
	// CodeOutputTooLarge: the tool's output exceeds the registry's cap.
	CodeOutputTooLarge
	// CodeCancelled: the call's context was cancelled, before the call
	// started (nothing was run), while the tool ran and the tool stopped
	// (it returned an error once its context was done: the Cause), or
	// while the tool ran and it did not stop by its deadline (its outcome
	// is unknown: the Cause wraps ErrAbandoned).
	CodeCancelled
	// CodeBusy: too many abandoned runs of the tool are still running (see
	// Runner); nothing was run.
	CodeBusy
	// CodeRefused: the call service refused the call (its kill switch, a
	// rate limit, the cap on calls per turn, a record it could not write);
	// nothing was run.
	CodeRefused
	// CodeUnknownProposal: no proposal with that ID is open to the caller
	// (it never existed, or the caller may not confirm it).
	CodeUnknownProposal
	// CodeProposalExpired: the proposal expired before it was confirmed;
	// nothing was run.
	CodeProposalExpired
	// CodeProposalRejected: the proposal was rejected (or cancelled);
	// nothing was run.
	CodeProposalRejected
	// CodeAlreadyConfirmed: the proposal, or the call with this call ID,
	// already ran; the result is the recorded outcome, and nothing was run
	// again.
	CodeAlreadyConfirmed
	// CodeOutcomeUnknown: the run started and never finished (the process
	// died, or the tool was abandoned at its deadline): it may or may not
	// have done its work, and it is never run again.
	CodeOutcomeUnknown
	// CodeNotProposal: a proposal was asked of a tool that proposes
	// nothing (its kind is not propose).
	CodeNotProposal
	// CodeCallIDReused: the call's call ID names an earlier call of
	// another tool, or with other arguments; nothing was run. A call ID
	// names one call: give each call its own.
	CodeCallIDReused
)

// ParseCode returns the code whose String is s.
func ParseCode(s string) (Code, error) {
	for c := CodeUnknownTool; c <= CodeCallIDReused; c++ {
		if c.String() == s {
			return c, nil
		}
	}
	return 0, fmt.Errorf("unknown tool error code %q", s)
}

// Reserved reports whether c is reserved to the runtime: every code but
// CodeFailed and CodeInvalidArguments. A tool that returns an *Error with
// a reserved code has failed: the registry reports CodeFailed, keeping
// the tool's error as the cause.
func (c Code) Reserved() bool { return c != CodeFailed && c != CodeInvalidArguments }

// String returns the code's snake_case name, or "Code(N)" for a value that
// is not a code.
func (c Code) String() string {
	switch c {
	case CodeUnknownTool:
		return "unknown_tool"
	case CodeInvalidArguments:
		return "invalid_arguments"
	case CodeNeedsConfirmation:
		return "needs_confirmation"
	case CodeFailed:
		return "failed"
	case CodePanic:
		return "panic"
	case CodeTimeout:
		return "timeout"
	case CodeOutputTooLarge:
		return "output_too_large"
	case CodeCancelled:
		return "cancelled"
	case CodeBusy:
		return "busy"
	case CodeRefused:
		return "refused"
	case CodeUnknownProposal:
		return "unknown_proposal"
	case CodeProposalExpired:
		return "proposal_expired"
	case CodeProposalRejected:
		return "proposal_rejected"
	case CodeAlreadyConfirmed:
		return "already_confirmed"
	case CodeOutcomeUnknown:
		return "outcome_unknown"
	case CodeNotProposal:
		return "not_proposal"
	case CodeCallIDReused:
		return "call_id_reused"
	}
	return "Code(" + strconv.Itoa(int(c)) + ")"
}

// Error is every failure Call reports. Error returns only Message, which is
// safe to show a model; Cause holds the real error for logs and is what
// Unwrap returns.
type Error struct {
	// Code classifies the failure.
	Code Code
	// Tool is the name of the tool called; empty when no tool was found.
	Tool string
	// Message is written for the model.
	Message string
	// Cause is the underlying error, for logs; nil when there is none.
	Cause error
}

// Error returns the message meant for the model.
func (e *Error) Error() string {
	if e.Message == "" {
		return "tool call failed: " + e.Code.String()
	}
	return e.Message
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Cause }

// CodeOf returns the Code of the first *Error in err's chain, or 0 when
// there is none.
func CodeOf(err error) Code {
	if err == nil {
		return 0 // without the errors.As, te does not escape: no allocation
	}
	var te *Error
	if errors.As(err, &te) {
		return te.Code
	}
	return 0
}

// ModelError is an error a tool returns whose message is written for the
// model. Call finds it with errors.As anywhere in the chain the tool returns
// and sends its Message; every other tool error reaches the model only as
// "the tool failed".
type ModelError struct {
	// Message is written for the model.
	Message string
	// Cause is the underlying error, for logs; nil when there is none.
	Cause error
}

// Error returns the message meant for the model.
func (e *ModelError) Error() string { return e.Message }

// Unwrap returns the cause.
func (e *ModelError) Unwrap() error { return e.Cause }

// Errorf returns a *ModelError whose Message is the formatted text. As in
// fmt.Errorf, %w verbs keep their operands as the cause for logs (errors.Is
// and errors.As see them), but their text stays out of the Message: a
// wrapped error may hold a connection string, a path or a secret, and the
// model reads the Message. In the Message each %w operand is written as
// "[error withheld]", unless it is itself a *ModelError (written for the model),
// whose Message is used. To show an error's text on purpose, format it
// with %v (or return a *ModelError with the Message you choose).
//
//	tool.Errorf("no note %d: %w", id, err) // Message: "no note 7: [error withheld]"; Cause: err
func Errorf(format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	me := &ModelError{Message: err.Error()}
	switch w := err.(type) {
	case interface{ Unwrap() error }:
		me.Cause = w.Unwrap()
	case interface{ Unwrap() []error }:
		me.Cause = err
	}
	if me.Cause != nil {
		me.Message = withholdWrapped(format, args)
	}
	return me
}

// withheldText stands for a wrapped error's text in the Message of Errorf.
const withheldText = "[error withheld]"

// withheld formats as withheldText whatever verb formats it.
type withheld struct{}

func (withheld) Format(f fmt.State, _ rune) { _, _ = f.Write([]byte(withheldText)) }

// withholdWrapped formats format with every %w operand replaced: by the
// Message of a *ModelError, else by withheldText. The verbs' argument indexes
// follow fmt's rules (explicit [n] indexes, * widths and precisions).
func withholdWrapped(format string, args []any) string {
	safe := make([]any, len(args))
	copy(safe, args)
	var b []byte
	arg := 0
	for i := 0; i < len(format); i++ {
		c := format[i]
		b = append(b, c)
		if c != '%' {
			continue
		}
		// Flags, argument indexes, widths and precisions, up to the verb.
	verb:
		for i+1 < len(format) {
			i++
			c = format[i]
			switch {
			case c == '[':
				end := i + 1
				for end < len(format) && format[end] != ']' {
					end++
				}
				if n, err := strconv.Atoi(format[i+1 : min(end, len(format))]); err == nil && n >= 1 {
					arg = n - 1
				}
				b = append(b, format[i:min(end+1, len(format))]...)
				i = min(end, len(format)-1)
				continue
			case c == '*':
				arg++
			case c == '+' || c == '-' || c == '#' || c == ' ' || c == '0' || c == '.' || (c >= '1' && c <= '9'):
			default: // the verb
				if c == 'w' {
					c = 'v'
					if arg < len(safe) {
						var me *ModelError
						if e, ok := safe[arg].(error); ok && errors.As(e, &me) {
							safe[arg] = me.Message
						} else {
							safe[arg] = withheld{}
						}
					}
				}
				if c != '%' {
					arg++
				}
				b = append(b, c)
				break verb
			}
			b = append(b, c)
		}
	}
	return fmt.Sprintf(string(b), safe...)
}

// Sentinels in the Cause chain of a call's *Error, which errors.Is finds.
var (
	// ErrAbandoned: the call's run was abandoned. The tool had not
	// returned when the call's context was done, and goes on running; its
	// outcome is unknown: an action may yet complete.
	ErrAbandoned = errors.New("the run was abandoned: the tool had not returned when its context was done, and goes on running")
	// ErrNotRun: the call was refused before anything ran (its context
	// was already done, or the tool was busy).
	ErrNotRun = errors.New("nothing was run")
)

// PanicError is the Cause of a CodePanic *Error: the value a tool, its
// decoder or its encoder panicked with, and the stack where it did.
type PanicError struct {
	// Value is the value passed to panic.
	Value any
	// Stack is the goroutine's stack at the recovery, as debug.Stack
	// formats it.
	Stack []byte
}

// Error returns the panic value and the stack, for logs.
func (e *PanicError) Error() string {
	return fmt.Sprintf("panic: %v\n\n%s", e.Value, e.Stack)
}

// Unwrap returns the panic value when it is an error (a runtime.Error, say).
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}
