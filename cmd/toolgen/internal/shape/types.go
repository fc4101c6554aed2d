package shape

import "go/types"

// The Go types the phases ask about, in the words of their messages.

// IsTime reports whether t is time.Time.
func IsTime(t types.Type) bool { return IsNamed(t, "time", "Time") }

// IsNamed reports whether t is the named type pkg.name (pkg a path).
func IsNamed(t types.Type, pkg, name string) bool {
	n, ok := t.(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == pkg && n.Obj().Name() == name
}

// HasJSONMethods reports whether t (or *t) marshals itself.
func HasJSONMethods(t types.Type) bool {
	return HasMethod(t, "MarshalJSON") || HasMethod(t, "MarshalText")
}

// HasMethod reports whether *t (or t, a pointer) has the method name.
func HasMethod(t types.Type, name string) bool {
	if _, ok := t.(*types.Pointer); !ok {
		t = types.NewPointer(t)
	}
	// A lookup of the one name, not the whole method set: the same
	// answer (a field of that name, an ambiguous selector or a pointer to
	// an interface finds no method) without building every method.
	obj, _, _ := types.LookupFieldOrMethod(t, false, nil, name)
	_, ok := obj.(*types.Func)
	return ok
}

// TypeString prints a type for messages: package name, not path.
func TypeString(t types.Type) string {
	return types.TypeString(t, func(p *types.Package) string { return p.Name() })
}
