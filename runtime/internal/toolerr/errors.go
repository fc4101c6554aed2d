// Package toolerr maps what goes wrong in a tool call to the *tool.Error
// the call reports: the same mapping for the registry's tools, the
// dynamic tools, the call service and the layers in front of it (a
// palette, the provider adapters' tool search). It is internal: a host
// reads the *tool.Error, and never builds one this way.
package toolerr

import (
	"errors"
	"fmt"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// Of maps the error of a call of the named tool to the *tool.Error its
// caller reports: a *tool.Error passes through with Tool filled in, a
// *tool.ModelError gives its Message (CodeFailed), anything else is "the
// tool failed" (CodeFailed) with the error kept as the cause. A
// registry's call reports its failures so, and so does a dynamic tool's.
func Of(name string, err error) *tool.Error {
	var te *tool.Error
	if errors.As(err, &te) {
		e := *te
		e.Tool = name
		return &e
	}
	var me *tool.ModelError
	if errors.As(err, &me) {
		return &tool.Error{Code: tool.CodeFailed, Tool: name, Message: me.Message, Cause: err}
	}
	return &tool.Error{Code: tool.CodeFailed, Tool: name, Message: "the tool failed", Cause: err}
}

// Returned maps the error a tool's own code returned (the generated
// dispatch's, or a dynamic toolkit's call): a *tool.Error whose code is
// reserved to the runtime (Code.Reserved) can only have come from the
// tool, which has then failed ("the tool failed", CodeFailed, the error
// kept as the cause); any other error passes through. name is the tool's.
func Returned(name string, err error) error {
	var te *tool.Error
	if !errors.As(err, &te) || !te.Code.Reserved() {
		return err
	}
	return &tool.Error{
		Code:    tool.CodeFailed,
		Tool:    name,
		Message: "the tool failed",
		Cause:   fmt.Errorf("tool %s returned an error with the code %s, which is reserved to the runtime: %w", name, te.Code, err),
	}
}

// InvalidArguments turns a decoding failure into the *tool.Error a call
// reports for it; generated code calls it (through runtime/toolimpl) with
// the decoder's Err after decoding. A *codec.ArgumentsError (found with
// errors.As) becomes CodeInvalidArguments with its text, which lists
// every problem, as the Message. A *tool.ModelError keeps its Message
// (validation written for the model); any other error is reported as
// "invalid arguments" with the error kept as the Cause.
// InvalidArguments(nil) is nil.
func InvalidArguments(err error) error {
	if err == nil {
		return nil
	}
	e := &tool.Error{Code: tool.CodeInvalidArguments, Message: "invalid arguments", Cause: err}
	var ae *codec.ArgumentsError
	var me *tool.ModelError
	switch {
	case errors.As(err, &ae):
		e.Message = ae.Error()
	case errors.As(err, &me):
		e.Message = me.Message
	}
	return e
}
