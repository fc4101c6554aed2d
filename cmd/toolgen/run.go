package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/toolgen-go/toolgen/internal/gen"
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
	check := fs.Bool("check", false, "write nothing; exit 1 when the generated files are stale")
	verbose := fs.Bool("v", false, "print the files written")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: toolgen [-out dir] [-pkg name] [-tags list] [-check] [packages]\n\n")
		fmt.Fprintf(stderr, "toolgen writes a static tool registry for the //tool: types in packages (default \".\").\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
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
	opts := gen.Options{Dir: wd, Patterns: fs.Args(), Output: *out, Package: *pkg}
	if *tags != "" {
		opts.BuildFlags = []string{"-tags=" + *tags}
	}
	files, errs := gen.Generate(ctx, opts)
	if len(errs) > 0 {
		for _, e := range errs {
			fmt.Fprintln(stderr, e.Relative(wd))
		}
		return exitProblems
	}
	if *check {
		stale, err := gen.Stale(files)
		if err != nil {
			fmt.Fprintf(stderr, "toolgen: %v\n", err)
			return exitProblems
		}
		for _, p := range stale {
			fmt.Fprintf(stderr, "%s: stale; run go generate (or toolgen) to update it\n", rel(wd, p))
		}
		if len(stale) > 0 {
			return exitProblems
		}
		return exitOK
	}
	written, err := gen.Write(files)
	if *verbose {
		for _, p := range written {
			fmt.Fprintf(stdout, "wrote %s\n", rel(wd, p))
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "toolgen: %v\n", err)
		return exitProblems
	}
	return exitOK
}

func rel(dir, path string) string {
	if r, err := filepath.Rel(dir, path); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return path
}
