package gen

import (
	"context"
	"maps"
	"path/filepath"
	"strings"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/problem"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/schema"
	"github.com/toolgen-go/toolgen/runtime/jsontree"
)

// reflectSchemas derives the schema of every tool's input and structured
// output type, statically when it can (6_schemas_static.go), else with the
// bootstrap program, and records the published schemas on the tools.
// scan, when not nil, lets the program's results for unchanged packages
// come from the cache.
func reflectSchemas(ctx context.Context, l *loaded, m *model, opts *Options, scan *bootstrapScan, timer *phaseTimer) []*problem.Error {
	comments, errs := schemaComments(l)
	timer.done("comments")
	var reqs []schemaRequest
	var dirs []string
	for _, t := range m.tools {
		r := schemaRequest{Tool: t.name, Pos: t.pos}
		if t.input != nil {
			r.Input = &bootstrapType{PkgPath: t.input.Obj().Pkg().Path(), Name: t.input.Obj().Name()}
		}
		if t.outKind == outStructured {
			r.Output = &bootstrapType{PkgPath: t.outStruct.Obj().Pkg().Path(), Name: t.outStruct.Obj().Name()}
		}
		reqs = append(reqs, r)
		if len(t.pkg.GoFiles) > 0 {
			dirs = append(dirs, filepath.Dir(t.pkg.GoFiles[0]))
		}
	}
	dir := commonDir(dirs)
	if l.module != nil && !within(l.module.Dir, dir) {
		dir = l.module.Dir
	}
	got, es := runBootstrap(ctx, bootstrapConfig{Dir: dir, Comments: comments, BuildFlags: opts.BuildFlags, Env: opts.Env, Identity: opts.Identity, scan: scan, timer: timer, static: staticSchemas(l, comments)}, reqs)
	errs = append(errs, es...)
	if len(errs) > 0 {
		return errs
	}
	empty, err := jsontree.Parse([]byte(emptyInput))
	if err != nil {
		return []*problem.Error{{Msg: "toolgen bug: " + err.Error()}}
	}
	defer timer.done("schemas")
	for _, t := range m.tools {
		s := got[t.name]
		t.inNode, t.outNode = s.Input, s.Output
		if t.input == nil || t.inNode == nil {
			t.inNode = empty
			continue
		}
		// An input's own doc comment is not published as the root's
		// description (schema.InputRoot says why); an output's is: output
		// schemas are not part of the provider declarations sent with
		// every request, and the result type's doc says what the result
		// is, which a tool's description often does not. The bootstrap
		// reflects a type once: the input may be the output's node.
		t.inNode = t.inNode.Clone()
		schema.InputRoot(t.inNode, comments, t.input.Obj().Pkg().Path(), t.input.Obj().Name())
	}
	return nil
}

// commonDir is the deepest directory holding every dir.
func commonDir(dirs []string) string {
	if len(dirs) == 0 {
		return ""
	}
	common := dirs[0]
	for _, d := range dirs[1:] {
		for !within(common, d) {
			parent := filepath.Dir(common)
			if parent == common {
				return common
			}
			common = parent
		}
	}
	return common
}

// within reports whether path is dir or below it.
func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// schemaComments is the CommentMap of l's packages after the comment-map
// step (documented in package schema): descriptions reach the model
// without the line breaks of the source, and without the Go identifier
// they start with unless the package keeps it (//tool:keepnames).
func schemaComments(l *loaded) (map[string]string, []*problem.Error) {
	comments := map[string]string{}
	var errs []*problem.Error
	keep := keepsNames(l)
	for _, p := range l.pkgs {
		pkg := map[string]string{}
		if err := schema.AddComments(pkg, l.fset, p.PkgPath, p.Syntax); err != nil {
			errs = append(errs, &problem.Error{Msg: err.Error()})
		}
		schema.ReflowComments(pkg)
		if !keep[p.PkgPath] {
			schema.DropNames(pkg)
		}
		maps.Copy(comments, pkg)
	}
	return comments, errs
}
