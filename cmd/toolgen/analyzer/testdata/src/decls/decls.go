// want package:`\) tools undocumented no_call no_context too_many ptr_input not_struct named_input unexported no_error anon_out lower_out bad_avail ptr_avail}$`

// Package decls holds every declaration and method mistake.
package decls

import "context"

// In is an input.
type In struct {
	A string `json:"a"`
}

// Out is an output.
type Out struct {
	B string `json:"b"`
}

type lower struct{ A string }

// hidden is unexported.
//
//tool:name hidden
type hidden struct{} // want `^tool type hidden is unexported; the generated registry must name it: export it$`

//tool:name undocumented
type Undocumented struct{} // want `^tool Undocumented has no description: write a doc comment that tells the model what it does$`

// Call runs it.
func (Undocumented) Call(ctx context.Context, in In) (string, error) { return "", nil }

// Generic is generic.
//
//tool:name generic
type Generic[T any] struct{} // want `^tool type Generic is generic; declare a tool as a non-generic type$`

// Alias is an alias.
//
//tool:name alias
type Alias = In // want `^tool type Alias is an alias; put the directives on the type it names$`

// Iface is an interface.
//
//tool:name iface
type Iface interface{ M() } // want `^tool type Iface is an interface; a tool is a concrete type with a Call method$`

// NoCall has no Call method.
//
//tool:name no_call
type NoCall struct{} // want `^tool type NoCall has no Call method; want func \(T\) Call\(ctx context.Context, in In\) \(Out, error\) or func \(T\) Call\(ctx context.Context\) \(Out, error\)$`

// NoContext takes no context.
//
//tool:name no_context
type NoContext struct{}

// Call runs it.
func (NoContext) Call(in In) (string, error) { return "", nil } // want `^NoContext.Call: the first parameter must be context.Context; want func`

// TooMany takes three parameters.
//
//tool:name too_many
type TooMany struct{}

// Call runs it.
func (TooMany) Call(ctx context.Context, in In, x int) (string, error) { return "", nil } // want `^TooMany.Call: wrong parameters; want func`

// PtrInput takes a pointer.
//
//tool:name ptr_input
type PtrInput struct{}

// Call runs it.
func (PtrInput) Call(ctx context.Context, in *In) (string, error) { return "", nil } // want `^PtrInput.Call: the input is a pointer; take the input struct by value; want func`

// NotStruct takes a string.
//
//tool:name not_struct
type NotStruct struct{}

// Call runs it.
func (NotStruct) Call(ctx context.Context, in string) (string, error) { return "", nil } // want `^NotStruct.Call: the input must be a named struct type, not string; want func`

// Named is a named non-struct.
type Named int

// NamedInput takes a named int.
//
//tool:name named_input
type NamedInput struct{}

// Call runs it.
func (NamedInput) Call(ctx context.Context, in Named) (string, error) { return "", nil } // want `^NamedInput.Call: the input type Named is not a struct; want func`

// Unexported takes an unexported input.
//
//tool:name unexported
type Unexported struct{}

// Call runs it.
func (Unexported) Call(ctx context.Context, in lower) (string, error) { return "", nil } // want `^Unexported.Call: the input type lower is unexported; the generated registry must name it: export it; want func`

// NoError returns no error.
//
//tool:name no_error
type NoError struct{}

// Call runs it.
func (NoError) Call(ctx context.Context) string { return "" } // want `^NoError.Call: the results must be \(Out, error\); want func`

// AnonOut returns an unnamed struct.
//
//tool:name anon_out
type AnonOut struct{}

// Call runs it.
func (AnonOut) Call(ctx context.Context) (struct{ A int }, error) { return struct{ A int }{}, nil } // want `^AnonOut.Call: the output is an unnamed struct; declare a named, exported struct type for it; want func`

// LowerOut returns an unexported struct.
//
//tool:name lower_out
type LowerOut struct{}

// Call runs it.
func (LowerOut) Call(ctx context.Context) (lower, error) { return lower{}, nil } // want `^LowerOut.Call: the output type lower is unexported; the generated registry must name it: export it; want func` `^decls.lower: type decls.lower is unexported; the generated code must name it: export it$`

// BadAvail has a wrong Available.
//
//tool:name bad_avail
type BadAvail struct{}

// Call runs it.
func (BadAvail) Call(ctx context.Context) (Out, error) { return Out{}, nil }

// Available says whether it can run.
func (BadAvail) Available() bool { return true } // want `^BadAvail.Available must be func\(\) error: it reports whether the tool can be offered$`

// PtrAvail has a pointer Available and a value Call.
//
//tool:name ptr_avail
type PtrAvail struct{}

// Call runs it.
func (PtrAvail) Call(ctx context.Context) (Out, error) { return Out{}, nil }

// Available says whether it can run.
func (*PtrAvail) Available() error { return nil } // want `^PtrAvail.Available has a pointer receiver but Call has a value receiver; use the same receiver for both$`
