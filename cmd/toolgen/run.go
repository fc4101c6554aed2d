package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"time"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gen"
)

// Exit codes, as go vet and friends use them.
const (
	exitOK       = 0
	exitProblems = 1
	exitUsage    = 2
)

// run is toolgen without the process: arguments in, exit code out.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("toolgen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "generated", "output `directory` of the generated package")
	pkg := fs.String("pkg", "", "output package `name` (default: the output directory's base name)")
	tags := fs.String("tags", "", "comma-separated build `tags` for loading the packages")
	check := fs.Bool("check", false, "write nothing; exit 1 when the generated files are stale or missing")
	verbose := fs.Bool("v", false, "print the files written")
	version := fs.Bool("version", false, "print toolgen's module version and exit")
	timings := fs.Bool("timings", false, "print each phase's wall time to standard error")
	cpuprofile := fs.String("cpuprofile", "", "write a CPU profile of the run to `file`")
	cacheOp := fs.String("cache", "", "`clean`: remove every cache entry, or trim: remove the unused ones now; then exit")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: toolgen [-out dir] [-pkg name] [-tags list] [-check] [-v] [-timings] [-cpuprofile file] [-cache clean|trim] [-version] [packages]\n\n")
		fmt.Fprintf(stderr, "toolgen writes a static tool registry for the //tool: types in packages (default \".\").\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if *version {
		fmt.Fprintln(stdout, "toolgen", moduleVersion(debug.ReadBuildInfo()))
		return exitOK
	}
	maxSize, ok := cacheFlags(*cacheOp, stderr)
	if !ok {
		fs.Usage()
		return exitUsage
	}
	if *out == "" {
		fmt.Fprintln(stderr, "toolgen: -out must not be empty")
		fs.Usage()
		return exitUsage
	}
	wd, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(stderr, "toolgen: %v\n", err)
		return exitProblems
	}
	if *cpuprofile != "" {
		stop, err := startCPUProfile(*cpuprofile)
		if err != nil {
			fmt.Fprintf(stderr, "toolgen: %v\n", err)
			return exitProblems
		}
		defer func() {
			if err := stop(); err != nil {
				fmt.Fprintf(stderr, "toolgen: %v\n", err)
			}
		}()
	}
	opts := gen.Options{Dir: wd, Patterns: fs.Args(), Output: *out, Package: *pkg}
	if *tags != "" {
		opts.BuildFlags = []string{"-tags=" + *tags}
	}
	opts.Cache, opts.Identity = cacheSetting(os.Getenv("TOOLGEN_CACHE"), stderr)
	if *cacheOp != "" {
		return cacheCommand(*cacheOp, opts.Cache, maxSize, stdout, stderr)
	}
	if opts.Cache, ok = checkCache(opts.Cache, stderr); ok {
		defer trimCache(opts.Cache, maxSize)
	}
	report := func(string, time.Duration) {}
	if *timings {
		start := time.Now()
		report = func(phase string, d time.Duration) {
			fmt.Fprintf(stderr, "toolgen: %-16s %7.3f s\n", phase, d.Seconds())
		}
		defer func() { report("total", time.Since(start)) }()
		opts.Timings = report
	}
	return generate(ctx, opts, *check, *verbose, report, stdout, stderr)
}

// generate runs the generator and checks or writes its files; report
// is told the write phase's time.
func generate(ctx context.Context, opts gen.Options, check, verbose bool, report func(string, time.Duration), stdout, stderr io.Writer) int {
	files, errs := gen.Generate(ctx, opts)
	if len(errs) > 0 {
		for _, e := range errs {
			fmt.Fprintln(stderr, e.Relative(opts.Dir))
		}
		return exitProblems
	}
	if check {
		return checkFiles(opts, files, stderr)
	}
	start := time.Now()
	defer func() { report("write", time.Since(start)) }()
	return writeFiles(opts, files, verbose, stdout, stderr)
}

// checkFiles is -check: it reports the generated files whose content on
// disk differs, those that are missing (in one line when the output
// directory itself is: -out names another directory than go generate's,
// or nothing was generated yet) and the files toolgen wrote before and no
// longer writes.
func checkFiles(opts gen.Options, files []gen.File, stderr io.Writer) int {
	stale, missing, err := gen.Stale(files)
	if err != nil {
		fmt.Fprintf(stderr, "toolgen: %v\n", err)
		return exitProblems
	}
	obsolete, err := gen.Obsolete(opts, files)
	if err != nil {
		fmt.Fprintf(stderr, "toolgen: %v\n", err)
		return exitProblems
	}
	out := opts.Output
	if !filepath.IsAbs(out) {
		out = filepath.Join(opts.Dir, out)
	}
	if _, err := os.Stat(out); errors.Is(err, os.ErrNotExist) && len(missing) > 0 {
		fmt.Fprintf(stderr, "%s: missing: no generated files there; run go generate (or toolgen) to write them, or give -check the -out of the go:generate line\n", rel(opts.Dir, out))
		return exitProblems
	}
	for _, p := range stale {
		fmt.Fprintf(stderr, "%s: stale; run go generate (or toolgen) to update it\n", rel(opts.Dir, p))
	}
	for _, p := range missing {
		fmt.Fprintf(stderr, "%s: missing; run go generate (or toolgen) to write it\n", rel(opts.Dir, p))
	}
	for _, p := range obsolete {
		fmt.Fprintf(stderr, "%s: no longer generated; run go generate (or toolgen) to remove it\n", rel(opts.Dir, p))
	}
	if len(stale)+len(missing)+len(obsolete) > 0 {
		return exitProblems
	}
	return exitOK
}

// writeFiles writes the files whose content changed and removes those
// toolgen wrote before and no longer writes.
func writeFiles(opts gen.Options, files []gen.File, verbose bool, stdout, stderr io.Writer) int {
	obsolete, err := gen.Obsolete(opts, files)
	var written []string
	if err == nil {
		written, err = gen.Write(files)
	}
	if err == nil {
		err = gen.Remove(obsolete)
	}
	if verbose {
		for _, p := range written {
			fmt.Fprintf(stdout, "wrote %s\n", rel(opts.Dir, p))
		}
		for _, p := range obsolete {
			fmt.Fprintf(stdout, "removed %s\n", rel(opts.Dir, p))
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "toolgen: %v\n", err)
		return exitProblems
	}
	return exitOK
}

// rel returns path relative to dir, as the go command prints paths
// ("../generated/registry_gen.go"), or path itself when it has no relative
// form (another volume).
func rel(dir, path string) string {
	if r, err := filepath.Rel(dir, path); err == nil {
		return r
	}
	return path
}

// modulePath is toolgen's module.
const modulePath = "github.com/toolgen-go/toolgen"

// moduleVersion returns the version of toolgen's module in the build info
// of this binary: the main module's when toolgen is built inside its own
// repository, else the dependency's (go get -tool records it), with a
// replacement's version or "(replaced by DIR)" when the module is
// replaced. The generated files never carry it: their header is the same
// for every version, so upgrading toolgen changes only what changed.
func moduleVersion(info *debug.BuildInfo, ok bool) string {
	if !ok || info == nil {
		return "(unknown: no build information)"
	}
	mod := &info.Main
	if mod.Path != modulePath {
		mod = nil
		for _, d := range info.Deps {
			if d.Path == modulePath {
				mod = d
				break
			}
		}
	}
	if mod == nil {
		return "(unknown: " + modulePath + " is not in the build information)"
	}
	if r := mod.Replace; r != nil {
		if r.Version != "" {
			return r.Version
		}
		return mod.Version + " (replaced by " + r.Path + ")"
	}
	if mod.Version == "" {
		return "(devel)"
	}
	return mod.Version
}
