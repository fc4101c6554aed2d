package gen

import (
	"go/token"
	"go/types"
	"runtime"
	"slices"
	"strings"
	"sync"

	"golang.org/x/tools/go/packages"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/problem"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/shape"
	"github.com/toolgen-go/toolgen/runtime/jsontree"
)

// outputKind says how a tool's result reaches the model.
type outputKind uint8

const (
	outText       outputKind = iota // a string: plain text
	outJSON                         // any other shape: its JSON text, no output schema
	outStructured                   // a struct or pointer to struct: structured output with a schema
)

// toolModel is one tool as toolgen understands it: its directives, its Go
// types and where it was declared.
type toolModel struct {
	directives
	description string
	groupDesc   string // the group's //tool:groupdoc text (2_directives_groups.go); "" when undescribed

	pkg      *packages.Package
	obj      *types.TypeName // the tool type
	pos      token.Position  // of the type's name
	pointer  bool            // Call has a pointer receiver
	hasAvail bool            // the type has Available() error

	hasOffered bool     // the type has Offered(context.Context) bool (3_model_hooks.go)
	hasLogArgs bool     // the type has LogArgs(In) string (3_model_hooks.go)
	secrets    []string // JSON Pointers of the input's secret members (4_shapes.go)

	input     *types.Named // nil for Call(ctx)
	inputPos  token.Position
	output    types.Type
	outKind   outputKind
	outStruct *types.Named // the named struct behind a structured output
	callPos   token.Position

	inShape  *shape.Shape
	outShape *shape.Shape

	inNode, outNode *jsontree.Node // published schemas; outNode nil unless structured
}

// model is the result of the model phase, completed by the shapes and
// schemas phases: every tool, checked, sorted by name.
type model struct {
	tools  []*toolModel  // sorted by name
	skills []*skillModel // sorted by name (5_skills.go)
}

// buildModel runs the directives, model and shapes phases over the loaded
// packages: every type with //tool: directives, its declaration and Call
// method checked, and the shapes of its input and output types. Generate
// calls the three phases one by one; this is for callers that want the
// model alone.
func buildModel(l *loaded) (*model, []*problem.Error) {
	decls, errs := findDirectives(l)
	_, es := findGroupDocs(l)
	errs = append(errs, es...)
	m, es := newModel(l, decls)
	errs = append(errs, es...)
	return m, append(errs, deriveShapes(l.fset, m)...)
}

// newModel is the model phase: it checks each declared tool's type and
// its Call, Available, Offered and LogArgs methods, and refuses a name
// declared twice.
func newModel(l *loaded, decls []declared) (*model, []*problem.Error) {
	m := &model{}
	var errs []*problem.Error
	keep := keepsNames(l)
	// Each tool is checked on its own, GOMAXPROCS at once; the tools and
	// problems are taken in the declarations' order.
	tools := make([]*toolModel, len(decls))
	toolErrs := make([][]*problem.Error, len(decls))
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(runtime.GOMAXPROCS(0), len(decls)) {
		wg.Go(func() {
			for i := range next {
				tools[i], toolErrs[i] = newTool(l, decls[i], keep[decls[i].pkg.PkgPath])
			}
		})
	}
	for i := range decls {
		next <- i
	}
	close(next)
	wg.Wait()
	for i, t := range tools {
		errs = append(errs, toolErrs[i]...)
		if t != nil {
			m.tools = append(m.tools, t)
		}
	}
	errs = append(errs, checkNames(m.tools)...)
	slices.SortFunc(m.tools, func(a, b *toolModel) int { return strings.Compare(a.name, b.name) })
	return m, errs
}

// checkNames reports every tool name declared twice, and two names with
// one Go field (3_model_names.go), at both declarations.
func checkNames(tools []*toolModel) []*problem.Error {
	errs := duplicateNames("tool", tools, func(t *toolModel) (string, token.Position) { return t.name, t.namePos })
	return append(errs, checkFields(tools)...)
}

// duplicateNames reports, at both places, every name of items given twice
// ("duplicate tool name", what being "tool"); of names given more than
// twice, each repeat with the first. key returns an item's name ("" for
// none) and where it is given.
func duplicateNames[T any](what string, items []T, key func(T) (string, token.Position)) []*problem.Error {
	var errs []*problem.Error
	first := map[string]token.Position{}
	for _, it := range items {
		name, pos := key(it)
		if name == "" {
			continue
		}
		if o, dup := first[name]; dup {
			msg := "duplicate " + what + " name " + problem.Quote(name)
			errs = append(errs, &problem.Error{Pos: o, Msg: msg, Other: pos}, &problem.Error{Pos: pos, Msg: msg, Other: o})
			continue
		}
		first[name] = pos
	}
	return errs
}

// newTool checks one annotated type declaration. keepName says its
// package keeps the identifiers its descriptions start with
// (//tool:keepnames).
func newTool(l *loaded, decl declared, keepName bool) (*toolModel, []*problem.Error) {
	p, ts, doc, d := decl.pkg, decl.spec, decl.doc, decl.directives
	var errs []*problem.Error
	pos := l.fset.Position(ts.Name.Pos())
	t := &toolModel{directives: d, pkg: p, pos: pos, description: toolDescription(doc, ts.Name.Name, keepName)}
	if t.group == "" {
		t.group = p.Name
	}
	if p.Name == "main" {
		errs = append(errs, problem.Errorf(pos, "tool %s is in package main, which cannot be imported; move it to an importable package", ts.Name.Name))
		return nil, errs
	}
	if !ts.Name.IsExported() {
		errs = append(errs, problem.Errorf(pos, "tool type %s is unexported; the generated registry must name it: export it", ts.Name.Name))
		return nil, errs
	}
	if ts.TypeParams != nil {
		errs = append(errs, problem.Errorf(pos, "tool type %s is generic; declare a tool as a non-generic type", ts.Name.Name))
		return nil, errs
	}
	if ts.Assign.IsValid() {
		errs = append(errs, problem.Errorf(pos, "tool type %s is an alias; put the directives on the type it names", ts.Name.Name))
		return nil, errs
	}
	obj, _ := p.TypesInfo.Defs[ts.Name].(*types.TypeName)
	if obj == nil {
		return nil, append(errs, problem.Errorf(pos, "cannot resolve type %s", ts.Name.Name))
	}
	t.obj = obj
	if t.description == "" {
		errs = append(errs, problem.Errorf(pos, "tool %s has no description: write a doc comment that tells the model what it does", ts.Name.Name))
	}
	named := obj.Type().(*types.Named)
	if types.IsInterface(named) {
		return nil, append(errs, problem.Errorf(pos, "tool type %s is an interface; a tool is a concrete type with a Call method", ts.Name.Name))
	}
	errs = append(errs, t.checkCall(l, named)...)
	errs = append(errs, t.checkAvailable(l, named)...)
	errs = append(errs, t.checkHooks(l, named)...)
	return t, errs
}

const callShape = "func (T) Call(ctx context.Context, in In) (Out, error) or func (T) Call(ctx context.Context) (Out, error)"

// checkCall checks the Call method and records its input and output types.
func (t *toolModel) checkCall(l *loaded, named *types.Named) []*problem.Error {
	name := named.Obj().Name()
	sel := types.NewMethodSet(types.NewPointer(named)).Lookup(named.Obj().Pkg(), "Call")
	if sel == nil {
		return []*problem.Error{problem.Errorf(t.pos, "tool type %s has no Call method; want %s", name, callShape)}
	}
	fn := sel.Obj().(*types.Func)
	t.callPos = l.fset.Position(fn.Pos())
	t.pointer = types.NewMethodSet(named).Lookup(named.Obj().Pkg(), "Call") == nil
	sig := fn.Type().(*types.Signature)
	bad := func(format string, args ...any) []*problem.Error {
		return []*problem.Error{problem.Errorf(t.callPos, "%s.Call: "+format+"; want %s", append([]any{name}, append(args, callShape)...)...)}
	}
	params, results := sig.Params(), sig.Results()
	if sig.Variadic() || params.Len() < 1 || params.Len() > 2 {
		return bad("wrong parameters")
	}
	if !isContext(params.At(0).Type()) {
		return bad("the first parameter must be context.Context")
	}
	if results.Len() != 2 || !isError(results.At(1).Type()) {
		return bad("the results must be (Out, error)")
	}
	var errs []*problem.Error
	if params.Len() == 2 {
		in := params.At(1).Type()
		t.inputPos = t.callPos
		switch n, ok := in.(*types.Named); {
		case !ok:
			if _, isPtr := in.(*types.Pointer); isPtr {
				errs = append(errs, bad("the input is a pointer; take the input struct by value")...)
			} else {
				errs = append(errs, bad("the input must be a named struct type, not %s", types.TypeString(in, qualifier(t.pkg.Types)))...)
			}
		case !isStructType(n):
			errs = append(errs, bad("the input type %s is not a struct", types.TypeString(in, qualifier(t.pkg.Types)))...)
		case !n.Obj().Exported():
			errs = append(errs, bad("the input type %s is unexported; the generated registry must name it: export it", n.Obj().Name())...)
		case n.TypeArgs().Len() > 0:
			errs = append(errs, bad("the input type %s is generic; use a non-generic struct", n.Obj().Name())...)
		case n.Obj().Pkg() != nil && n.Obj().Pkg().Name() == "main":
			errs = append(errs, bad("the input type %s is in package main, which cannot be imported", n.Obj().Name())...)
		default:
			t.input = n
			t.inputPos = l.fset.Position(n.Obj().Pos())
		}
	}
	out := results.At(0).Type()
	t.output = out
	t.outKind = outJSON
	base := out
	if p, ok := out.(*types.Pointer); ok {
		base = p.Elem()
	}
	if n, ok := base.(*types.Named); ok && isStructType(n) && !shape.HasJSONMethods(n) && !shape.IsTime(n) {
		t.outKind = outStructured
		t.outStruct = n
		switch {
		case !n.Obj().Exported():
			errs = append(errs, bad("the output type %s is unexported; the generated registry must name it: export it", n.Obj().Name())...)
		case n.TypeArgs().Len() > 0:
			errs = append(errs, bad("the output type %s is generic; use a non-generic struct", n.Obj().Name())...)
		}
	} else if isStructType(base) && !shape.IsTime(base) {
		errs = append(errs, bad("the output is an unnamed struct; declare a named, exported struct type for it")...)
	} else if b, ok := out.Underlying().(*types.Basic); ok && b.Kind() == types.String && !shape.HasJSONMethods(out) {
		t.outKind = outText
	}
	return errs
}

// checkAvailable records an Available() error method, and refuses a method
// of that name with another signature, which would otherwise be ignored.
func (t *toolModel) checkAvailable(l *loaded, named *types.Named) []*problem.Error {
	sel := types.NewMethodSet(types.NewPointer(named)).Lookup(named.Obj().Pkg(), "Available")
	if sel == nil {
		return nil
	}
	fn := sel.Obj().(*types.Func)
	sig := fn.Type().(*types.Signature)
	if sig.Params().Len() != 0 || sig.Results().Len() != 1 || !isError(sig.Results().At(0).Type()) {
		return []*problem.Error{problem.Errorf(l.fset.Position(fn.Pos()), "%s.Available must be func() error: it reports whether the tool can be offered", named.Obj().Name())}
	}
	if !t.pointer && types.NewMethodSet(named).Lookup(named.Obj().Pkg(), "Available") == nil {
		return []*problem.Error{problem.Errorf(l.fset.Position(fn.Pos()), "%s.Available has a pointer receiver but Call has a value receiver; use the same receiver for both", named.Obj().Name())}
	}
	t.hasAvail = true
	return nil
}

func isContext(t types.Type) bool { return shape.IsNamed(t, "context", "Context") }
func isError(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}

func isStructType(t types.Type) bool {
	_, ok := t.Underlying().(*types.Struct)
	return ok
}

// qualifier prints types relative to pkg, as the user wrote them.
func qualifier(pkg *types.Package) types.Qualifier {
	return func(other *types.Package) string {
		if other == pkg {
			return ""
		}
		return other.Name()
	}
}
