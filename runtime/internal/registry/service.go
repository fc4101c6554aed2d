package registry

import (
	"bytes"
	"context"
	"fmt"
	"strconv"

	"github.com/toolgen-go/toolgen/runtime/internal/run"
	"github.com/toolgen-go/toolgen/runtime/internal/toolerr"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// What only the call service may do with a registry. These are functions,
// not methods of Static, on purpose: a host holds the registry as a
// tool.Registry, and a type assertion to an interface with a method of
// these names would reach an exported method; it cannot reach a function
// of an internal package.

// RunProposed runs the named tool whatever its kind, propose included, and
// returns what Call returns for the other kinds. It is the one way a
// propose tool runs: the call service calls it once a person has confirmed
// the proposal, with the arguments that were proposed.
func RunProposed(ctx context.Context, s *Static, name string, args []byte) (tool.Result, error) {
	res, _, err := RunConfirmed(ctx, s, name, args, nil)
	return res, err
}

// RunConfirmed is RunProposed, reporting also whether the tool was
// entered: started is false only when nothing ran, the run refused
// before the tool was called (the name unknown, the context already
// done, the tool busy). Once the tool was entered, started is true
// whatever the outcome (a failure, a panic, a cancellation the tool
// honoured, a run abandoned at its deadline): the call service settles a
// confirmed proposal only then, and otherwise gives it back its pending
// state. onStart, when set, is called as the tool is entered, on the
// run's goroutine.
func RunConfirmed(ctx context.Context, s *Static, name string, args []byte, onStart func()) (res tool.Result, started bool, err error) {
	i := s.find(name)
	if i < 0 {
		res, err = failure(nil, toolerr.UnknownTool(s.tools, name))
		return res, false, err
	}
	return s.runEnded(ctx, i, args, nil, false, onStart)
}

// SelfOffered reports whether the tool at position i of Tools offers itself
// to the caller ctx carries: what its Offered method returns, or true
// when it has none (Spec.DecidesOffer unset). A panic in Offered counts as
// declining.
func SelfOffered(ctx context.Context, s *Static, i int) bool { return s.selfOffered(ctx, i) }

// selfOffered is SelfOffered.
func (s *Static) selfOffered(ctx context.Context, i int) (ok bool) {
	if !s.tools[i].DecidesOffer || s.offered == nil {
		return true
	}
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return s.offered(ctx, s.id(i))
}

// LogArgs decodes the arguments of the named tool and returns the form of
// them its LogArgs method gives (Spec.LogsArgs), as a JSON string, with
// own set; for a tool without LogArgs it returns nil and false, and
// decodes nothing. It runs nothing else of the tool and fails as Check
// does, and with CodeOutputTooLarge when the form exceeds the registry's
// output cap.
func LogArgs(ctx context.Context, s *Static, name string, args []byte) (form []byte, own bool, err error) {
	i := s.find(name)
	if i < 0 {
		return nil, false, toolerr.UnknownTool(s.tools, name)
	}
	if !s.tools[i].LogsArgs {
		return nil, false, nil
	}
	spec := s.tools[i]
	c, mayAbandon := s.start(ctx, i, ModeLog, args)
	ended, runErr := s.exec(ctx, c, args, mayAbandon, 0)
	switch {
	case ended == run.Abandoned || ended == run.Crashed:
		return nil, false, toolerr.Of(spec.Name, runErr)
	case runErr != nil:
		s.release(c)
		return nil, false, toolerr.Of(spec.Name, runErr)
	}
	if e := s.logFormError(c, spec); e != nil {
		s.release(c)
		return nil, false, e
	}
	form = bytes.Clone(c.out.Bytes())
	s.release(c)
	return form, true, nil
}

// logFormError returns the failure of a ModeLog run that returned but
// whose form is no JSON string under the cap; nil when the form is good.
func (s *Static) logFormError(c *codecs, spec *tool.Spec) *tool.Error {
	switch {
	case c.out.TooLarge():
		// The encoder dropped the form when it passed the cap: Bytes is
		// empty, which is no JSON string.
		return &tool.Error{
			Code:    tool.CodeOutputTooLarge,
			Tool:    spec.Name,
			Message: "the log form of the tool's arguments exceeds " + strconv.Itoa(s.opts.MaxOutputBytes) + " bytes",
			Cause:   fmt.Errorf("log form of tool %s: more than the cap of %d bytes", spec.Name, s.opts.MaxOutputBytes),
		}
	case c.out.Err() != nil:
		return &tool.Error{Code: tool.CodeFailed, Tool: spec.Name, Message: "the tool failed",
			Cause: fmt.Errorf("log form of tool %s: %w", spec.Name, c.out.Err())}
	case c.output != OutputText || c.out.Len() == 0:
		return &tool.Error{Code: tool.CodeFailed, Tool: spec.Name, Message: "the tool failed",
			Cause: fmt.Errorf("log form of tool %s: dispatch returned %s and %d bytes, not a JSON string", spec.Name, c.output, c.out.Len())}
	}
	return nil
}
