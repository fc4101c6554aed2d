// Package gen is toolgen's core: it turns Go packages holding annotated
// tool types into the files of a generated registry, in memory.
//
// Generate calls the phases in this order, each a function whose result
// is a plain value the next one takes. The files of this package are named
// by phase, so a directory listing reads in the order Generate runs them;
// the two phases with state of their own are packages:
//
//	0_generate.go        Generate, Write, Stale: the driver
//	0_generate_cache.go  the whole output cached by content (package cache: the store)
//	0_generate_recent.go whether the load starts beside the cache's scan (the recent record)
//	0_generate_skip.go   TOOLGEN_CACHE_SKIP: single cache layers off, for measurement
//	0_obsolete.go        Obsolete, Remove: the files an earlier run wrote and this one does not
//	0_check.go           Check: the door of go vet's analyzer (cmd/toolgen/analyzer),
//	                     the directive, model and shape phases on one package
//	1_load.go            load -> loaded: the type-checked tools packages
//	1_load_cached.go     the same from the scan's listing and cached export data
//	2_directives.go      findDirectives -> []declared: //tool: lines parsed,
//	                     a directive spaced as "// tool:" refused
//	2_directives_groups.go  findGroupDocs: the package docs' group descriptions,
//	                     which describeGroups gives the tools once modelled
//	3_model.go           newModel -> model: each tool's declaration and Call checked
//	3_model_hooks.go     the Offered and LogArgs methods checked
//	3_model_names.go     the Go field each tool name becomes, checked
//	4_shapes.go          deriveShapes: the JSON shape of each input and output
//	                     type (package shape: its Deriver, the jsonschema and
//	                     toolgen tags), the secrets' JSON Pointers
//	5_skills.go          loadSkills: the skill folders beside the tools packages,
//	5_skills_check.go    their SKILL.md front matter parsed (YAML, here only) and checked
//	6_schemas.go         reflectSchemas: the published schemas, with invopop/jsonschema's semantics
//	6_schemas_static.go  derived from go/types for the types that need no hook (package schema)
//	6_schemas_static_cache.go  those cached by content, per tools package
//	6_schemas_bootstrap.go  the others, by a generated program (package schema post-processes)
//	6_schemas_cache.go   its results cached by content, per tools package
//	                     (package cache: the store on disk)
//	7_codecs.go          planCodecs -> codecPlan: the decoders and encoders to write
//	                     (package codecplan: its Planner)
//	7_codecs_units.go    units: tools packages planned and rendered apart, each cached by a key
//	7_codecs_units_source.go  an unchanged unit's key found by the hash of its sources
//	8_providers.go       projectTools: the OpenAI, Anthropic and Gemini definitions
//	9_render.go          render -> []File: the model and plans printed with jennifer
//	                     (package gocode holds the Go expressions): registry_gen.go
//	                     here; beside it 9_render_codecs.go (the codec packages,
//	                     internal/<name>codec/codec_gen.go), 9_render_format.go (gofmt,
//	                     and a formatting failure named at its tool),
//	                     9_render_fresh.go (the freshness test: fresh_gen_test.go, and
//	                     fresh_<name>codec_gen_test.go per codec package),
//	                     9_render_guard.go (each codec package's a_guard_gen.go,
//	                     the stale-code guard),
//	                     9_render_hooks.go (the offered method, dispatch's ModeLog),
//	                     9_render_manifest.go (tools.json, what reviewers see),
//	                     9_render_providers.go (the providers package),
//	                     9_render_skills.go (the skill table), 9_render_units.go (a unit's
//	                     files, from the cache or printed), 9_render_zero.go
//	                     (New's unset checks)
//
// Every phase reports problems as *problem.Error. The shapes and schemas
// phases complete the model in place (each tool's shapes and schema
// trees). Generate collects every problem of a run before it returns, so
// a user fixes them all at once; cmd/toolgen prints them and writes the
// files.
package gen

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/problem"
)

// Options configure one run.
type Options struct {
	// Dir is the directory patterns and Output are relative to, and the
	// directory problems are reported relative to; "" means the working
	// directory.
	Dir string
	// Patterns select the tools packages, as go build takes them.
	Patterns []string
	// Output is the directory of the generated package.
	Output string
	// Package is the generated package's name; "" means the base name of
	// Output.
	Package string
	// BuildFlags are passed to the go command (for example -tags=x).
	BuildFlags []string
	// Env is the go command's environment; nil means the process's.
	Env []string
	// Cache is the directory of the bootstrap cache (see cmd/toolgen's
	// documentation); "" means no cache: every run builds and runs the
	// bootstrap program.
	Cache string
	// Identity identifies the toolgen build that runs (a hash of its
	// executable): it is part of every cache key, so that an upgrade
	// invalidates the cache. Without it the cache is not used.
	Identity string
	// Timings, when not nil, is called with the wall time of each phase
	// once the phase ends, in the order the phases run.
	Timings func(phase string, d time.Duration)

	// skip holds the cache layers TOOLGEN_CACHE_SKIP turns off, for
	// measurement (0_generate_skip.go).
	skip map[string]bool
}

// phaseTimer reports the wall time of consecutive phases to
// Options.Timings.
type phaseTimer struct {
	report func(phase string, d time.Duration)
	start  time.Time
}

func newPhaseTimer(report func(string, time.Duration)) *phaseTimer {
	return &phaseTimer{report: report, start: time.Now()}
}

// done reports the time since the previous phase ended as phase's. A
// nil timer reports nothing.
func (t *phaseTimer) done(phase string) {
	if t == nil || t.report == nil {
		return
	}
	now := time.Now()
	t.report(phase, now.Sub(t.start))
	t.start = now
}

// File is one generated file.
type File struct {
	Path string // absolute
	Data []byte
}

// Generate runs every phase and returns the generated files, or every
// problem found. It writes nothing.
func Generate(ctx context.Context, opts Options) ([]File, []*problem.Error) {
	dir, err := workDir(opts.Dir)
	if err != nil {
		return nil, []*problem.Error{{Msg: err.Error()}}
	}
	opts.Dir = dir
	if len(opts.Patterns) == 0 {
		opts.Patterns = []string{"."}
	}
	if opts.Output == "" {
		return nil, []*problem.Error{{Msg: "no output directory"}}
	}
	if opts.Package == "" {
		opts.Package = filepath.Base(opts.outDir())
	}
	if !token.IsIdentifier(opts.Package) || opts.Package == "_" {
		return nil, []*problem.Error{{Msg: fmt.Sprintf("the output package name %q is not a Go identifier; name it with -pkg", opts.Package)}}
	}
	opts.skip = cacheSkips()
	timer := newPhaseTimer(opts.Timings)
	scan := startBootstrapScan(ctx, &opts)
	defer scan.stop()
	// When a file changed since the last scan (0_generate_recent.go), the
	// load starts beside the scan; it is stopped if the cache answers.
	recent := openRecent(&opts)
	var early *pendingLoad
	if recent.likelyMiss() {
		early = startLoad(ctx, &opts, scan, recent.likelyListed())
		defer early.stop()
	}
	out := openOutputCache(&opts, scan)
	if in, err := scan.wait(); err == nil {
		recent.update(in, &opts)
	}
	if files, ok := out.get(); ok {
		timer.done("cache hit")
		return files, nil
	}
	if out != nil {
		timer.done("cache miss")
	}
	var l *loaded
	var errs []*problem.Error
	if early != nil {
		l, errs = early.wait()
	} else {
		l, errs = load(ctx, &opts, scan, true)
	}
	timer.done("load")
	if len(errs) > 0 {
		return nil, errs
	}
	m, errs := modelAndSchemas(ctx, l, &opts, scan, timer)
	if len(errs) > 0 {
		return nil, problem.Sort(errs)
	}
	l.release()
	plan, errs := planCodecs(l, m, &opts, scan)
	if len(errs) > 0 {
		return nil, problem.Sort(errs)
	}
	timer.done("plan")
	files, errs := render(l, m, plan, &opts)
	if len(errs) > 0 {
		return nil, problem.Sort(errs)
	}
	timer.done("render")
	out.put(files, plan.contentKeys(opts.outDir()), l.reads.list())
	if out != nil {
		timer.done("cache store")
	}
	return files, nil
}

// modelAndSchemas runs the model phases, then the schemas phase beside the
// shapes phase, which the schemas phase does not read: the problems of the
// shapes are reported as if the schemas phase had not run (its problems
// are not), and stop it.
func modelAndSchemas(ctx context.Context, l *loaded, opts *Options, scan *bootstrapScan, timer *phaseTimer) (*model, []*problem.Error) {
	schemaCtx, stopSchemas := context.WithCancel(ctx)
	defer stopSchemas()
	m, shapes, errs := startModelPhases(l, opts, stopSchemas)
	timer.done("model")
	if len(errs) > 0 {
		return nil, errs
	}
	schemaErrs := reflectSchemas(schemaCtx, l, m, opts, scan, timer)
	if errs := shapes.wait(); len(errs) > 0 {
		return nil, errs
	}
	timer.done("shapes")
	if len(schemaErrs) > 0 {
		return nil, schemaErrs
	}
	return m, nil
}

// startModelPhases runs the directive, model and skill phases on l and
// starts the shapes phase, which calls stop if it ends with problems. It
// returns the model and the shapes phase, or every problem
// found: with problems, the shapes phase has ended and its problems are
// among them.
func startModelPhases(l *loaded, opts *Options, stop func()) (*model, *pendingShapes, []*problem.Error) {
	decls, errs := findDirectives(l)
	docs, es := findGroupDocs(l)
	errs = append(errs, es...)
	m, es := newModel(l, decls)
	errs = append(errs, es...)
	errs = append(errs, describeGroups(m.tools, docs)...)
	shapes := startShapes(l, m, stop)
	m.skills, es = loadSkills(l, declaredNames(decls), opts)
	errs = append(errs, es...)
	if len(m.tools) == 0 && len(errs) == 0 {
		errs = append(errs, &problem.Error{Msg: fmt.Sprintf("no tools found in %s: declare a type with a //tool:name directive in its doc comment", strings.Join(opts.Patterns, " "))})
	}
	if len(errs) > 0 {
		errs = append(errs, shapes.wait()...)
	}
	return m, shapes, errs
}

// pendingShapes is the shapes phase (deriveShapes) running in the
// background: it sets the shapes and secrets of the model's tools, which
// nothing else reads or writes until wait returns.
type pendingShapes struct {
	done chan struct{}
	errs []*problem.Error
}

// startShapes starts deriveShapes(l.fset, m), which calls stop if it ends
// with problems.
func startShapes(l *loaded, m *model, stop func()) *pendingShapes {
	ps := &pendingShapes{done: make(chan struct{})}
	go func() {
		defer close(ps.done)
		ps.errs = deriveShapes(l.fset, m)
		if len(ps.errs) > 0 {
			stop()
		}
	}()
	return ps
}

// wait returns the problems of the shapes phase once it ends.
func (ps *pendingShapes) wait() []*problem.Error {
	<-ps.done
	return ps.errs
}

// pendingLoad is a load running in the background.
type pendingLoad struct {
	done   chan struct{}
	cancel context.CancelFunc
	l      *loaded
	errs   []*problem.Error
}

// startLoad starts load(ctx, opts, scan, cached); opts must not change
// until it ends.
func startLoad(ctx context.Context, opts *Options, scan *bootstrapScan, cached bool) *pendingLoad {
	ctx, cancel := context.WithCancel(ctx)
	pl := &pendingLoad{done: make(chan struct{}), cancel: cancel}
	go func() {
		defer close(pl.done)
		pl.l, pl.errs = load(ctx, opts, scan, cached)
	}()
	return pl
}

// wait returns the load's result.
func (pl *pendingLoad) wait() (*loaded, []*problem.Error) {
	<-pl.done
	return pl.l, pl.errs
}

// stop cancels the load, if it still runs, and waits for it to end.
func (pl *pendingLoad) stop() {
	pl.cancel()
	<-pl.done
}

// Write writes the files whose content changed and reports which it wrote.
// Unchanged files are left alone so that builds and editors see no change.
func Write(files []File) (written []string, err error) {
	buf := make([]byte, 64<<10)
	for _, f := range files {
		if sameContent(f.Path, f.Data, buf) {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(f.Path), 0o755); err != nil {
			return written, err
		}
		if err := os.WriteFile(f.Path, f.Data, 0o644); err != nil {
			return written, err
		}
		written = append(written, f.Path)
	}
	return written, nil
}

// Stale lists the files whose content on disk differs from what Generate
// produced, and apart the files that are not there at all.
func Stale(files []File) (stale, missing []string, err error) {
	for _, f := range files {
		old, err := os.ReadFile(f.Path)
		switch {
		case errors.Is(err, os.ErrNotExist):
			missing = append(missing, f.Path)
		case err != nil:
			return nil, nil, err
		case !bytes.Equal(old, f.Data):
			stale = append(stale, f.Path)
		}
	}
	return stale, missing, nil
}

// sameContent reports whether the file at path holds exactly data, read
// through buf: a file of another size is not read, and no file is read
// whole into memory (a catalog's generated files are tens of megabytes,
// most of them unchanged). An unreadable file is not the same.
func sameContent(path string, data, buf []byte) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Size() != int64(len(data)) {
		return false
	}
	rest := data
	for {
		n, err := f.Read(buf)
		if n > len(rest) || !bytes.Equal(buf[:n], rest[:n]) {
			return false
		}
		rest = rest[n:]
		switch {
		case err == io.EOF:
			return len(rest) == 0
		case err != nil:
			return false
		}
	}
}
