package gen

import (
	"context"
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/packages"
)

// loadMode is the smallest go/packages mode that gives toolgen what it
// reads: syntax and comments of the tools packages, their types (imported
// packages come from export data, not source), their direct imports (to
// refuse an import of the generated package) and the module.
const loadMode = packages.NeedName | packages.NeedFiles | packages.NeedSyntax |
	packages.NeedTypes | packages.NeedTypesInfo | packages.NeedImports | packages.NeedModule

// loaded is the result of the load phase.
type loaded struct {
	fset *token.FileSet
	pkgs []*packages.Package // the tools packages, in go list order
	// outPath is the import path of the output directory ("" when it is
	// outside the main module).
	outPath string
	module  *packages.Module
}

// load loads and type-checks the packages matched by the patterns. It
// refuses to go on while they do not compile, listing the compiler's errors
// with their positions. The output package is left out: it may be stale,
// and stale generated code must never stop its own regeneration.
func load(ctx context.Context, opts *Options) (*loaded, []*Error) {
	fset := token.NewFileSet()
	cfg := &packages.Config{
		Context:    ctx,
		Mode:       loadMode,
		Dir:        opts.Dir,
		Fset:       fset,
		BuildFlags: opts.BuildFlags,
		Env:        opts.Env,
		Tests:      false,
	}
	pkgs, err := packages.Load(cfg, opts.Patterns...)
	if err != nil {
		return nil, []*Error{{Msg: fmt.Sprintf("loading %s: %v", strings.Join(opts.Patterns, " "), err)}}
	}
	l := &loaded{fset: fset}
	outDir := filepath.Clean(opts.outDir())
	var errs []*Error
	for _, p := range pkgs {
		if l.module == nil && p.Module != nil {
			l.module = p.Module
		}
		if len(p.GoFiles) > 0 && filepath.Dir(p.GoFiles[0]) == outDir {
			l.outPath = p.PkgPath
			continue // the output package: stale or not, it is not input
		}
		errs = append(errs, packageErrors(p.Errors)...)
		l.pkgs = append(l.pkgs, p)
	}
	if l.module != nil && l.outPath == "" {
		if rel, err := filepath.Rel(l.module.Dir, outDir); err == nil && !strings.HasPrefix(rel, "..") {
			l.outPath = filepath.ToSlash(filepath.Join(l.module.Path, rel))
		}
	}
	if len(errs) > 0 {
		errs = append(errs, &Error{Msg: "the tools packages do not compile; fix the errors above and run toolgen again"})
		return nil, errs
	}
	return l, nil
}

// packageErrors turns a package's errors into problems. The go command
// repeats the type checker's errors in one unpositioned error; when there
// are positioned ones, that copy is dropped.
func packageErrors(list []packages.Error) []*Error {
	var out, unpositioned []*Error
	for _, e := range list {
		pe := packageError(e)
		if pe.Pos.Filename == "" {
			unpositioned = append(unpositioned, pe)
		} else {
			out = append(out, pe)
		}
	}
	if len(out) == 0 {
		return unpositioned
	}
	return out
}

// packageError turns a go list or type-checker error into a positioned
// problem.
func packageError(e packages.Error) *Error {
	pos := token.Position{}
	if e.Pos != "" && e.Pos != "-" {
		// Pos is "file:line:col" or "file:line" or "file".
		parts := strings.Split(e.Pos, ":")
		pos.Filename = parts[0]
		if len(parts) > 1 {
			fmt.Sscan(parts[1], &pos.Line)
		}
		if len(parts) > 2 {
			fmt.Sscan(parts[2], &pos.Column)
		}
	}
	return &Error{Pos: pos, Msg: e.Msg}
}

// outDir is the output directory as an absolute path.
func (o *Options) outDir() string {
	if filepath.IsAbs(o.Output) {
		return o.Output
	}
	return filepath.Join(o.Dir, o.Output)
}

// workDir returns dir or, when empty, the process's working directory.
func workDir(dir string) (string, error) {
	if dir == "" {
		return os.Getwd()
	}
	return filepath.Abs(dir)
}
