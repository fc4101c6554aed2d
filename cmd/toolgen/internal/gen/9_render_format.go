package gen

import (
	"bytes"
	"errors"
	"fmt"
	"go/format"
	"go/scanner"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/dave/jennifer/jen"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/cache"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/problem"
)

// toolMark ties a tool to text that appears in the generated source only
// on its lines, so that a formatting failure can name the tool it is in.
type toolMark struct {
	tool  *toolModel
	marks []string
}

// toolMarks are the marks of every tool: its schema constants and spec
// (codec packages), its index (registry) and its case in the
// providers' switch.
func toolMarks(tools []*toolModel, fields map[*toolModel]string) []toolMark {
	out := make([]toolMark, 0, len(tools))
	for _, t := range tools {
		marks := []string{fmt.Sprintf("case %q", t.name)}
		if f, ok := fields[t]; ok {
			marks = append(marks, schemaConst(f, "Input")+" ", schemaConst(f, "Output")+" ", specVar(f)+" ", indexConst(f)+":")
		}
		out = append(out, toolMark{tool: t, marks: marks})
	}
	return out
}

// fileTask produces generated files: one, none, or the files of a unit.
type fileTask func() ([]File, *problem.Error)

// formatTask is the task printing and formatting the file code returns,
// written at path and called name in problems.
func formatTask(fc formatCache, name, path string, marks []toolMark, code func() *jen.File) fileTask {
	return func() ([]File, *problem.Error) {
		data, err := fc.format(name, code(), marks)
		if err != nil {
			return nil, err
		}
		return []File{{Path: path, Data: data}}, nil
	}
}

// formatCacheDir is the directory of the formatted files in the cache,
// apart from the bootstrap's entries.
const formatCacheDir = "format"

// formatCacheKind names the entries of formatted files in the cache.
const formatCacheKind = "toolgen format v1"

// formatCache keeps formatted files in the toolgen cache, keyed by
// toolgen's identity and the printed source: formatting is most of what
// rendering costs, and a run on an unchanged (or slightly changed) module
// prints the same source for most files. Its zero value caches nothing.
type formatCache struct {
	cache    *cache.Cache
	identity string
}

// openFormatCache is the format cache of opts: none when the cache is off
// or cannot be opened (the run then formats every file).
func openFormatCache(opts *Options) formatCache {
	if opts.cacheOff("format") {
		return formatCache{}
	}
	c, err := cache.Open(filepath.Join(opts.Cache, formatCacheDir))
	if err != nil {
		return formatCache{}
	}
	return formatCache{cache: c, identity: opts.Identity}
}

// format is formatFile, through the cache.
func (fc formatCache) format(name string, f *jen.File, marks []toolMark) ([]byte, *problem.Error) {
	src, perr := printFile(name, f)
	if perr != nil {
		return nil, perr
	}
	return fc.source(name, src, marks)
}

// source formats src, the printed file name, as gofmt does, through the
// cache when there is one.
func (fc formatCache) source(name string, src []byte, marks []toolMark) ([]byte, *problem.Error) {
	var k cache.Key
	if fc.cache != nil {
		h := cache.NewHasher(formatCacheKind)
		h.String(fc.identity)
		h.Bytes(src)
		k = h.Key()
		if data, ok := fc.cache.Get(k); ok {
			return data, nil
		}
	}
	out, err := format.Source(src)
	if err != nil {
		return nil, formatError(name, src, err, marks)
	}
	// format.Source's buffer grew by doubling; the file is held until the
	// run ends, so it is kept at its size.
	out = bytes.Clone(out)
	if fc.cache != nil {
		fc.cache.Put(k, out) // a failed store only costs the next run a format
	}
	return out, nil
}

// formatAll runs the tasks, at most GOMAXPROCS at once: formatting is most
// of rendering, and each file is formatted on its own. The files come back
// in the order of the tasks, and the problem is that of the first failing
// task in that order, so the result does not depend on the scheduling.
func formatAll(tasks []fileTask) ([]File, *problem.Error) {
	type result struct {
		files []File
		err   *problem.Error
	}
	results := make([]result, len(tasks))
	slots := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i, task := range tasks {
		slots <- struct{}{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			fs, err := task()
			results[i] = result{fs, err}
		}()
	}
	wg.Wait()
	var files []File
	for _, r := range results {
		if r.err != nil {
			return nil, r.err
		}
		files = append(files, r.files...)
	}
	return files, nil
}

// formatFile prints f and formats it as gofmt does, which is what
// jen.File.Render does, except when formatting fails: jennifer's error
// holds the whole unformatted source, which buries the one line that
// matters. Failing here is a toolgen bug (the generated Go does not
// parse), so the problem says where, in the unformatted source, with an
// excerpt of the line and the tool whose code it is when a mark finds it.
func formatFile(name string, f *jen.File, marks []toolMark) ([]byte, *problem.Error) {
	return formatCache{}.format(name, f, marks)
}

// printFile prints f without formatting it.
func printFile(name string, f *jen.File) ([]byte, *problem.Error) {
	f.NoFormat = true
	var buf bytes.Buffer
	if err := f.Render(&buf); err != nil {
		return nil, &problem.Error{Msg: fmt.Sprintf("rendering %s: %v (a toolgen bug: please report it)", name, err)}
	}
	return buf.Bytes(), nil
}

// formatError is the problem of a formatting failure of the source src of
// the generated file name: short, with the position of the first error.
func formatError(name string, src []byte, err error, marks []toolMark) *problem.Error {
	var list scanner.ErrorList
	if !errors.As(err, &list) || len(list) == 0 {
		return &problem.Error{Msg: fmt.Sprintf("formatting %s: %v (a toolgen bug: please report it)", name, firstLine(err.Error()))}
	}
	first := list[0]
	msg := fmt.Sprintf("formatting %s: %s:%d:%d (unformatted source): %s", name, name, first.Pos.Line, first.Pos.Column, first.Msg)
	if len(list) > 1 {
		msg += fmt.Sprintf(" (and %d more)", len(list)-1)
	}
	lines := strings.Split(string(src), "\n")
	e := &problem.Error{}
	if l := first.Pos.Line; l >= 1 && l <= len(lines) {
		msg += fmt.Sprintf(", near %q", excerpt(lines[l-1], first.Pos.Column))
		if t := markedTool(lines[:l], marks); t != nil {
			msg += fmt.Sprintf(", in the code of tool %s", t.name)
			e.Pos = t.pos
		}
	}
	e.Msg = msg + " (a toolgen bug: please report it)"
	return e
}

// excerpt is at most 40 bytes of line on each side of the 1-based byte
// column col.
func excerpt(line string, col int) string {
	const side = 40
	at := min(max(col-1, 0), len(line))
	from, to := max(at-side, 0), min(at+side, len(line))
	s := line[from:to]
	if from > 0 {
		s = "…" + s
	}
	if to < len(line) {
		s += "…"
	}
	return s
}

// markedTool is the tool whose mark is on the last of lines holding one.
func markedTool(lines []string, marks []toolMark) *toolModel {
	for i := len(lines) - 1; i >= 0; i-- {
		for _, m := range marks {
			for _, s := range m.marks {
				if strings.Contains(lines[i], s) {
					return m.tool
				}
			}
		}
	}
	return nil
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}
