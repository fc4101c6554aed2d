package gen

import (
	"go/token"
	"go/types"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/problem"
)

// This file checks the optional methods a tool type may have for the call
// service, beside Available (3_model.go); 9_render_hooks.go writes what
// the generated package does with them:
//
//   - Offered(ctx context.Context) bool decides, per call, whether the
//     tool is offered to the caller ctx carries (a tool an anonymous
//     caller must not see). Its spec gets DecidesOffer, and the generated
//     package an offered method, a switch on the tool index that New
//     passes to the runtime (toolimpl.NewRegistry's offered).
//   - LogArgs(in In) string, In the input type of Call, gives the form of
//     the arguments that records keep (without the text of a note, say).
//     Its spec gets LogsArgs, and dispatch, in toolimpl.ModeLog, encodes what
//     it returns instead of running the tool.
//
// A method of either name with another signature is refused at the
// method, as Available is, rather than silently ignored: the author meant
// it to be called.

// checkHooks records the Offered and LogArgs methods of the tool type
// named, or refuses them.
func (t *toolModel) checkHooks(l *loaded, named *types.Named) []*problem.Error {
	var errs []*problem.Error
	if fn, pos, ok := t.hookMethod(l, named, "Offered"); ok {
		sig := fn.Type().(*types.Signature)
		switch {
		case sig.Variadic() || sig.Params().Len() != 1 || !isContext(sig.Params().At(0).Type()) ||
			sig.Results().Len() != 1 || !types.Identical(sig.Results().At(0).Type(), types.Typ[types.Bool]):
			errs = append(errs, problem.Errorf(pos, "%s.Offered must be func(context.Context) bool: it decides, per call, whether the tool is offered", named.Obj().Name()))
		default:
			es := t.sameReceiver(named, "Offered", pos)
			t.hasOffered = len(es) == 0
			errs = append(errs, es...)
		}
	}
	if fn, pos, ok := t.hookMethod(l, named, "LogArgs"); ok {
		es := t.checkLogArgs(named, fn.Type().(*types.Signature), pos)
		if len(es) == 0 {
			es = t.sameReceiver(named, "LogArgs", pos)
		}
		t.hasLogArgs = len(es) == 0
		errs = append(errs, es...)
	}
	return errs
}

// hookMethod is the method of the given name of named or *named, and its
// position.
func (t *toolModel) hookMethod(l *loaded, named *types.Named, name string) (*types.Func, token.Position, bool) {
	sel := types.NewMethodSet(types.NewPointer(named)).Lookup(named.Obj().Pkg(), name)
	if sel == nil {
		return nil, token.Position{}, false
	}
	fn := sel.Obj().(*types.Func)
	return fn, l.fset.Position(fn.Pos()), true
}

// sameReceiver refuses a pointer-receiver method on a tool whose Call has
// a value receiver: the Tools field holds a value.
func (t *toolModel) sameReceiver(named *types.Named, name string, pos token.Position) []*problem.Error {
	if !t.pointer && types.NewMethodSet(named).Lookup(named.Obj().Pkg(), name) == nil {
		return []*problem.Error{problem.Errorf(pos, "%s.%s has a pointer receiver but Call has a value receiver; use the same receiver for both", named.Obj().Name(), name)}
	}
	return nil
}

// checkLogArgs checks the signature of a LogArgs method: it takes the
// input of Call, exactly, and returns a string.
func (t *toolModel) checkLogArgs(named *types.Named, sig *types.Signature, pos token.Position) []*problem.Error {
	name := named.Obj().Name()
	call := types.NewMethodSet(types.NewPointer(named)).Lookup(named.Obj().Pkg(), "Call")
	if ps := callParams(call); ps != nil && ps.Len() == 1 && isContext(ps.At(0).Type()) {
		return []*problem.Error{problem.Errorf(pos, "%s.LogArgs: the tool's Call takes no input, so there are no arguments to log; remove LogArgs", name)}
	}
	if t.input == nil {
		return nil // Call or its input is refused already
	}
	in := types.TypeString(t.input, qualifier(t.pkg.Types))
	if sig.Variadic() || sig.Params().Len() != 1 || !types.Identical(sig.Params().At(0).Type(), t.input) ||
		sig.Results().Len() != 1 || !types.Identical(sig.Results().At(0).Type(), types.Typ[types.String]) {
		return []*problem.Error{problem.Errorf(pos, "%s.LogArgs must be func(in %s) string, taking the input of Call: it gives the form of the arguments that records keep", name, in)}
	}
	return nil
}

// callParams are the parameters of the Call method sel, or nil.
func callParams(sel *types.Selection) *types.Tuple {
	if sel == nil {
		return nil
	}
	return sel.Obj().Type().(*types.Signature).Params()
}
