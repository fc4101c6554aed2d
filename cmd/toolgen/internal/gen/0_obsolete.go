package gen

import (
	"bufio"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Files toolgen wrote before and writes no more: a codec or set package
// whose Go package no longer has tools, or codec_gen.go of a toolgen that wrote
// the codecs beside the registry. toolgen -check reports them as stale and
// toolgen removes them, so an old codec package can neither stay compiled
// in nor keep a deleted type's name alive.

// Obsolete lists the Go files in the output directory of opts (the
// directory itself, its providers package, its set packages and the codec
// packages under its internal directory) that carry toolgen's header and
// are not among files, sorted. A set package is a directory of the output
// directory whose name ends in "tools" and a number, if any, holding a
// tools_gen.go.
func Obsolete(opts Options, files []File) ([]string, error) {
	dir, err := workDir(opts.Dir)
	if err != nil {
		return nil, err
	}
	opts.Dir = dir
	out := opts.outDir()
	keep := map[string]bool{}
	for _, f := range files {
		keep[filepath.Clean(f.Path)] = true
	}
	var obsolete []string
	visit := func(path string, d fs.DirEntry, err error) error {
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil
		case err != nil:
			return err
		case d.IsDir():
			return nil
		case !strings.HasSuffix(path, ".go") || keep[filepath.Clean(path)]:
			return nil
		}
		ours, err := generatedByToolgen(path)
		if ours {
			obsolete = append(obsolete, path)
		}
		return err
	}
	dirs := []string{out, filepath.Join(out, providersDir)}
	entries, err := os.ReadDir(out)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	for _, e := range entries {
		if name := e.Name(); e.IsDir() && strings.HasSuffix(strings.TrimRight(name, "0123456789"), "tools") {
			if _, err := os.Stat(filepath.Join(out, name, setFile)); err == nil {
				dirs = append(dirs, filepath.Join(out, name))
			}
		}
	}
	for _, d := range dirs {
		entries, err := os.ReadDir(d)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		for _, e := range entries {
			if err := visit(filepath.Join(d, e.Name()), e, nil); err != nil {
				return nil, err
			}
		}
	}
	if err := filepath.WalkDir(filepath.Join(out, codecDir), visit); err != nil {
		return nil, err
	}
	slices.Sort(obsolete)
	return obsolete, nil
}

// generatedByToolgen reports whether the file at path starts with the
// header toolgen writes.
func generatedByToolgen(path string) (bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	line, err := bufio.NewReader(f).ReadString('\n')
	if err != nil && line == "" {
		return false, nil // empty: not ours
	}
	return strings.TrimRight(line, "\r\n") == "// "+header, nil
}

// Remove deletes the files Obsolete listed, and the codec and set package
// directories they leave empty.
func Remove(paths []string) error {
	for _, p := range paths {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		dir := filepath.Dir(p)
		if filepath.Base(filepath.Dir(dir)) != codecDir && filepath.Base(p) != setFile {
			continue
		}
		if entries, err := os.ReadDir(dir); err == nil && len(entries) == 0 {
			if err := os.Remove(dir); err != nil {
				return err
			}
		}
	}
	return nil
}
