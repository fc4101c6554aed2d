package gen

import (
	"context"
	"fmt"
	"go/ast"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/problem"
	"golang.org/x/tools/go/packages"
)

// loadMode is the smallest go/packages mode that gives toolgen what it
// reads: syntax and comments of the tools packages, their types (imported
// packages come from export data, not source), their direct imports (to
// refuse an import of the generated package), the module, and the export
// data files of the imported packages (which the export data cache keeps).
const loadMode = packages.NeedName | packages.NeedFiles | packages.NeedSyntax |
	packages.NeedTypes | packages.NeedTypesInfo | packages.NeedImports | packages.NeedModule |
	packages.NeedExportFile

// loaded is the result of the load phase.
type loaded struct {
	fset *token.FileSet
	pkgs []*packages.Package // the tools packages, in go list order (TypesInfo: read Defs only, which the cached load records alone)
	// outPath is the import path of the output directory ("" when it is
	// outside the main module).
	outPath string
	module  *packages.Module
	cached  bool // the packages came from the scan's listing and the export data cache
	// reads records the files the phases read besides the packages' files
	// (1_load_reads.go): read such a file with reads.read, never os.ReadFile.
	reads *fileReads
}

// load loads and type-checks the packages matched by the patterns. It
// refuses to go on while they do not compile, listing the compiler's errors
// with their positions, or while a pattern matches no package. The output
// package is left out: it may be stale, and stale generated code must
// never stop its own regeneration. So are the registry's users, the
// packages that import the output package (directly or through other
// packages) and declare no tools: a pattern such as ./... run from the
// module root matches them too, and they are not tools packages. A package
// that declares tools and imports the output package is refused: the
// registry imports it, so it cannot import the registry.
//
// With a scan (nil: none) and cached, the packages come from its listing
// and the export data cache when they can (1_load_cached.go), once the
// scan ends; else from go/packages, at once, which then stores the export
// data the next run reads.
func load(ctx context.Context, opts *Options, scan *bootstrapScan, cached bool) (*loaded, []*problem.Error) {
	var ec *exportCache
	if cached && exportCacheUsed(opts) {
		ec = openExportCache(opts, scan)
		fset := token.NewFileSet()
		if pkgs, ok := ec.load(ctx, opts, fset); ok {
			l, errs := sortLoaded(opts, fset, pkgs)
			if l != nil {
				l.cached = true
			}
			return l, errs
		}
	}
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
		return nil, []*problem.Error{{Msg: fmt.Sprintf("loading %s: %v", strings.Join(opts.Patterns, " "), err)}}
	}
	l, errs := sortLoaded(opts, fset, pkgs)
	if len(errs) == 0 && scan != nil {
		if ec == nil {
			ec = openExportCache(opts, scan)
		}
		ec.store(l.pkgs)
	}
	return l, errs
}

// sortLoaded is the load's result from the packages go/packages (or the
// cached load) gives for the patterns: the tools packages, or the
// problems that stop the run.
func sortLoaded(opts *Options, fset *token.FileSet, pkgs []*packages.Package) (*loaded, []*problem.Error) {
	l := &loaded{fset: fset, reads: &fileReads{}}
	outDir := filepath.Clean(opts.outDir())
	isOutput := func(p *packages.Package) bool {
		return len(p.GoFiles) > 0 && filepath.Dir(p.GoFiles[0]) == outDir
	}
	for _, p := range pkgs {
		if l.module == nil && p.Module != nil {
			l.module = p.Module
		}
		if isOutput(p) {
			l.outPath = p.PkgPath
		}
	}
	if l.module != nil && l.outPath == "" {
		if rel, err := filepath.Rel(l.module.Dir, outDir); err == nil && !strings.HasPrefix(rel, "..") {
			l.outPath = filepath.ToSlash(filepath.Join(l.module.Path, rel))
		}
	}
	var errs, refused []*problem.Error
	noPackage := unmatchedPatterns(opts, pkgs)
	chains := map[string][]string{}
	for _, p := range pkgs {
		if isOutput(p) {
			continue // the output package: stale or not, it is not input
		}
		if len(p.GoFiles) == 0 && len(p.CompiledGoFiles) == 0 && len(p.Errors) > 0 {
			noPackage = append(noPackage, noPackageError(opts, p))
			continue
		}
		if via := outputChain(p, l.outPath, chains); via != nil {
			if declaresTools(p) {
				refused = append(refused, registryImportError(fset, p, via))
			}
			continue // a user of the registry, not a tools package
		}
		errs = append(errs, packageErrors(p.Errors)...)
		l.pkgs = append(l.pkgs, p)
	}
	switch {
	case len(noPackage) > 0 || len(refused) > 0:
		return nil, append(noPackage, refused...)
	case len(errs) > 0:
		errs = append(errs, &problem.Error{Msg: "the tools packages do not compile; fix the errors above and run toolgen again"})
		return nil, errs
	}
	return l, nil
}

// outputChain returns the import paths from p to the output package
// (outPath last) when p imports it, directly or through other packages,
// and nil when it does not. memo holds the answers by package ID (an empty
// chain for "does not").
func outputChain(p *packages.Package, outPath string, memo map[string][]string) []string {
	if outPath == "" {
		return nil
	}
	if c, ok := memo[p.ID]; ok {
		return nilIfEmpty(c)
	}
	memo[p.ID] = []string{} // go forbids import cycles; this only guards the walk
	paths := make([]string, 0, len(p.Imports))
	for path := range p.Imports {
		paths = append(paths, path)
	}
	slices.Sort(paths) // the same chain on every run
	var chain []string
	for _, path := range paths {
		if path == outPath {
			chain = []string{outPath}
			break
		}
	}
	for _, path := range paths {
		if chain != nil {
			break
		}
		if c := outputChain(p.Imports[path], outPath, memo); c != nil {
			chain = append([]string{path}, c...)
		}
	}
	if chain != nil {
		memo[p.ID] = chain
	}
	return chain
}

func nilIfEmpty(c []string) []string {
	if len(c) == 0 {
		return nil
	}
	return c
}

// declaresTools reports whether a package has a type declaration whose
// doc comment holds //tool: lines, as the directives phase finds them.
// It reads syntax only: a package that imports a stale or missing output
// package may not type-check.
func declaresTools(p *packages.Package) bool {
	for _, f := range p.Syntax {
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, spec := range gd.Specs {
				doc := spec.(*ast.TypeSpec).Doc
				if doc == nil && len(gd.Specs) == 1 {
					doc = gd.Doc
				}
				if hasDirectives(doc) {
					return true
				}
			}
		}
	}
	return false
}

// registryImportError refuses a tools package that imports the output
// package (via: the chain of imports, the output package last), at the
// import that starts the chain.
func registryImportError(fset *token.FileSet, p *packages.Package, via []string) *problem.Error {
	var pos token.Position
	for _, f := range p.Syntax {
		for _, imp := range f.Imports {
			if path, err := strconv.Unquote(imp.Path.Value); err == nil && path == via[0] && pos.Filename == "" {
				pos = fset.Position(imp.Pos())
			}
		}
	}
	out := via[len(via)-1]
	through := ""
	if len(via) > 1 {
		through = " through " + strings.Join(via[:len(via)-1], ", ")
	}
	return problem.Errorf(pos, "package %s declares tools and imports the package generated from them, %s%s: "+
		"a package cannot both hold tools and use the registry built from them; "+
		"move the code that uses the registry to another package, "+
		"or, if these tools are not meant for this registry, leave the package out of the patterns (for example ./tools/... rather than ./...)",
		p.PkgPath, out, through)
}

// noPackageError says which pattern matched no package: go list reports
// such a pattern as a package without files and with an error.
func noPackageError(opts *Options, p *packages.Package) *problem.Error {
	pattern := p.ID
	for _, pat := range opts.Patterns {
		if pat == p.ID || cleanLocal(pat) == p.ID {
			pattern = pat
			break
		}
	}
	reason := ""
	if isLocal(pattern) {
		if _, err := os.Stat(filepath.Join(opts.Dir, patternBase(pattern))); os.IsNotExist(err) {
			reason = "there is no such directory"
		}
	}
	if reason == "" && len(p.Errors) > 0 {
		// go list's own words, with paths relative to the directory
		// patterns are relative to (it writes them absolute).
		reason = strings.ReplaceAll(p.Errors[0].Msg, opts.Dir+string(filepath.Separator), "")
	}
	return &problem.Error{Msg: fmt.Sprintf("pattern %s matches no package: %s", pattern, reason)}
}

// unmatchedPatterns reports the patterns with "..." that match no package:
// go list matches them with nothing and only warns.
func unmatchedPatterns(opts *Options, pkgs []*packages.Package) []*problem.Error {
	var errs []*problem.Error
	for _, pat := range opts.Patterns {
		if !strings.Contains(pat, "...") {
			continue // go list reports it as a package with an error
		}
		matched := false
		for _, p := range pkgs {
			switch {
			case p.ID == pat:
				matched = true // an error package: reported with the others
			case isLocal(pat):
				base := filepath.Join(opts.Dir, patternBase(pat))
				for _, f := range p.GoFiles {
					matched = matched || within(base, filepath.Dir(f))
				}
			default:
				matched = matched || strings.HasPrefix(p.PkgPath, strings.TrimSuffix(patternBase(pat), "/"))
			}
		}
		if !matched {
			errs = append(errs, &problem.Error{Msg: fmt.Sprintf("pattern %s matches no package: no directory at or below %s holds Go files for this build", pat, patternBase(pat))})
		}
	}
	return errs
}

// isLocal reports whether a pattern names directories rather than import
// paths, as the go command tells them apart.
func isLocal(pattern string) bool {
	return pattern == "." || pattern == ".." || strings.HasPrefix(pattern, "./") || strings.HasPrefix(pattern, "../") || filepath.IsAbs(pattern)
}

// cleanLocal is a local pattern as go list spells the package it reports
// for it ("./nonexist/" becomes "./nonexist").
func cleanLocal(pattern string) string {
	if !isLocal(pattern) {
		return pattern
	}
	c := path.Clean(filepath.ToSlash(pattern))
	if !strings.HasPrefix(c, ".") && !path.IsAbs(c) {
		c = "./" + c
	}
	return c
}

// patternBase is the part of a pattern before its first "...", the
// directory (or import path prefix) it starts from.
func patternBase(pattern string) string {
	base, _, _ := strings.Cut(pattern, "...")
	if base == "" {
		return "."
	}
	return base
}

// packageErrors turns a package's errors into problems. The go command
// repeats the type checker's errors in one unpositioned error; when there
// are positioned ones, that copy is dropped.
func packageErrors(list []packages.Error) []*problem.Error {
	var out, unpositioned []*problem.Error
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
func packageError(e packages.Error) *problem.Error {
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
	return &problem.Error{Pos: pos, Msg: e.Msg}
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

// release drops the syntax trees and the type-checker's records of the
// tools packages, once the phases that read them (directives, model,
// schemas' comments) are done: planning and rendering read the types
// only, and at catalog scale the trees are hundreds of megabytes held
// through render for nothing. The packages' types stay.
func (l *loaded) release() {
	for _, p := range l.pkgs {
		p.Syntax, p.TypesInfo = nil, nil
	}
}
