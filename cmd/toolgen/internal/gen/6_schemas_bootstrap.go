package gen

// The bootstrap phase: toolgen reads tool types from source, but invopop
// derives JSON Schemas by reflection, so for the types the static path
// (6_schemas_static.go) leaves to it (as ent does) toolgen writes a
// small Go program that imports the tools packages, reflects every input
// and output type with invopop (schema.ReflectRaw, whose file is copied into
// the program), and writes the raw schemas to a file; toolgen then applies
// schema.PostProcessTree to each.
//
// Consequences worth knowing:
//
//   - The tools packages' init functions, and their JSONSchema,
//     JSONSchemaExtend and JSONSchemaAlias hooks, run on the machine that
//     runs `go generate`, as in any `go run`.
//   - Results travel through a file named on the program's command line,
//     never through standard output, which init code may print to.
//   - The program lives in a temporary directory inside the user's module
//     (so it may import internal packages), next to the tools packages:
//     Dir/.toolgen-bootstrap-NNN. The go command builds a directory whose
//     name starts with '.', and `./...` patterns (go build, go vet, go
//     test, toolgen's own package loading) skip such directories, so a
//     directory left behind by a killed run breaks nothing; the repository's
//     .gitignore ignores /.toolgen-*. It has no go.mod: it is part of the
//     user's module and builds with the user's go.mod and go.sum, which
//     must therefore require github.com/toolgen-go/toolgen.
//   - One program serves every tool of a run; it is built with
//     `go build -o` and then run, so that a compile error (reported with
//     the compiler's output, at the tools it concerns) and a runtime
//     failure are told apart. Each type is reflected separately: a panic
//     in one hook fails that type's tools only.

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/problem"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/schema"
	"github.com/toolgen-go/toolgen/runtime/jsonlex"
	"github.com/toolgen-go/toolgen/runtime/jsontree"
)

// bootstrapType is an exported, non-generic named type of a tools package.
type bootstrapType struct{ PkgPath, Name string }

func (t bootstrapType) String() string { return t.PkgPath + "." + t.Name }

// schemaRequest asks for the schemas of one tool.
type schemaRequest struct {
	Tool   string         // tool name, unique in the run
	Pos    token.Position // the tool type's declaration: problems are reported here
	Input  *bootstrapType // nil: a tool without arguments, whose schema is emptyInput
	Output *bootstrapType // nil: no output schema
}

// toolSchemas are the published schemas of one tool. Tools that use the
// same type share its *jsontree.Node: treat the nodes as read-only.
type toolSchemas struct{ Input, Output *jsontree.Node } // Output nil when not requested

// bootstrapConfig configures runBootstrap.
type bootstrapConfig struct {
	// Dir is an existing directory inside the main module that is an
	// ancestor of every tools package (so that internal/ imports work).
	// The program is written in a temporary subdirectory of it, removed
	// afterwards, even on failure or cancellation.
	Dir string
	// Comments is the CommentMap for schema.Reflector.
	Comments map[string]string
	// BuildFlags are passed to go build (for example -tags=x).
	BuildFlags []string
	// Env is the environment of the go command and of the program; nil
	// means the process's. GOOS and GOARCH are always the host's, since
	// the program runs here.
	Env []string
	// Identity is toolgen's identity (Options.Identity), part of every
	// cache key.
	Identity string
	// scan lists the inputs of the cache keys and holds the cache
	// (6_schemas_cache.go); nil means the cache is not used.
	scan *bootstrapScan
	// skipCache turns the cache of the program's results off, the scan
	// on (TOOLGEN_CACHE_SKIP=bootstrap, 0_generate_skip.go).
	skipCache bool
	// timer, when not nil, is told when the program is built and when it
	// has run.
	timer *phaseTimer
	// static, when not nil, is the static path (6_schemas_static.go): the
	// types it derives are not reflected by the program.
	static *staticPath
	// staticCache, when not nil, holds the static path's results of
	// unchanged packages (6_schemas_static_cache.go).
	staticCache *staticCache
	// comments, when not nil, computes the CommentMap as it is needed:
	// the program's types set Comments from it, all of it.
	comments *commentSet
}

const (
	bootstrapDirPattern  = ".toolgen-bootstrap-*"
	bootstrapSourceName  = "main.go"
	bootstrapReflectName = "reflector.go"
	bootstrapInvopopPath = "github.com/invopop/jsonschema"
	bootstrapOutputLimit = 16 << 10 // bytes of go build or program output kept for messages
)

// runBootstrap writes, builds and runs the bootstrap program for reqs and
// returns the schemas by tool name. Problems are reported at the tools
// they concern when possible. When the program ran, the tools whose types
// were reflected are in the map even if others failed (a panic in one
// hook hides nothing else); a tool with a problem never is. When the
// program could not be built or run, the map is nil.
func runBootstrap(ctx context.Context, cfg bootstrapConfig, reqs []schemaRequest) (map[string]toolSchemas, []*problem.Error) {
	if err := ctx.Err(); err != nil {
		return nil, []*problem.Error{{Msg: "reflecting JSON Schemas: " + context.Cause(ctx).Error()}}
	}
	types, errs := bootstrapTypes(reqs)
	if len(errs) > 0 {
		return nil, errs
	}
	var nodes []*jsontree.Node
	var typeErrs []string
	if len(types) > 0 {
		items, errs := schemaItems(ctx, cfg, reqs, types)
		if len(errs) > 0 {
			return nil, errs
		}
		var err error
		nodes, typeErrs, err = bootstrapResults(items)
		if err != nil {
			return nil, []*problem.Error{{Msg: fmt.Sprintf("toolgen bug: reading the bootstrap program's results: %v", err)}}
		}
	}
	index := make(map[bootstrapType]int, len(types))
	for i, t := range types {
		index[t] = i
	}
	out := make(map[string]toolSchemas, len(reqs))
	for _, r := range reqs {
		var s toolSchemas
		if r.Input == nil {
			n, err := jsontree.Parse([]byte(emptyInput))
			if err != nil {
				return nil, []*problem.Error{problem.Errorf(r.Pos, "toolgen bug: %v", err)}
			}
			s.Input = n
		} else if i := index[*r.Input]; typeErrs[i] != "" {
			errs = append(errs, problem.Errorf(r.Pos, "tool %s: no input schema: %s", r.Tool, typeErrs[i]))
		} else if typ := nodes[i].Get("type"); typ == nil || typ.Kind != jsonlex.String || typ.Text != "object" {
			errs = append(errs, problem.Errorf(r.Pos, "tool %s: the JSON Schema of its input %s is not an object schema (%s): tool arguments are a JSON object", r.Tool, *r.Input, bootstrapAbbrev(nodes[i].Compact())))
		} else {
			s.Input = nodes[i]
		}
		if r.Output != nil {
			if i := index[*r.Output]; typeErrs[i] != "" {
				errs = append(errs, problem.Errorf(r.Pos, "tool %s: no output schema: %s", r.Tool, typeErrs[i]))
			} else {
				s.Output = nodes[i]
			}
		}
		if (r.Input == nil || s.Input != nil) && (r.Output == nil || s.Output != nil) {
			out[r.Tool] = s
		}
	}
	return out, errs
}

// bootstrapTypes checks the requests and returns the distinct types they
// name, sorted by import path and name.
func bootstrapTypes(reqs []schemaRequest) ([]bootstrapType, []*problem.Error) {
	var errs []*problem.Error
	tools := map[string]bool{}
	seen := map[bootstrapType]bool{}
	var types []bootstrapType
	for _, r := range reqs {
		if r.Tool == "" {
			errs = append(errs, problem.Errorf(r.Pos, "toolgen bug: a schema request without a tool name"))
		} else if tools[r.Tool] {
			errs = append(errs, problem.Errorf(r.Pos, "toolgen bug: two schema requests for tool %s", r.Tool))
		}
		tools[r.Tool] = true
		for _, t := range []*bootstrapType{r.Input, r.Output} {
			if t == nil {
				continue
			}
			if t.PkgPath == "" || !token.IsIdentifier(t.Name) || !token.IsExported(t.Name) {
				errs = append(errs, problem.Errorf(r.Pos, "tool %s: cannot reflect %q in package %q: the bootstrap program needs an exported named type", r.Tool, t.Name, t.PkgPath))
				continue
			}
			if !seen[*t] {
				seen[*t] = true
				types = append(types, *t)
			}
		}
	}
	slices.SortFunc(types, func(a, b bootstrapType) int {
		return cmp.Or(strings.Compare(a.PkgPath, b.PkgPath), strings.Compare(a.Name, b.Name))
	})
	return types, errs
}

// bootstrapRun builds and runs the program for types and returns, for each
// type, its raw result: {"schema": ...} or {"error": "..."}.
func bootstrapRun(ctx context.Context, cfg bootstrapConfig, reqs []schemaRequest, types []bootstrapType) ([]json.RawMessage, []*problem.Error) {
	fail := func(format string, args ...any) ([]json.RawMessage, []*problem.Error) {
		return nil, []*problem.Error{{Msg: fmt.Sprintf(format, args...)}}
	}
	src, lines := bootstrapSource(types)
	dir, err := os.MkdirTemp(cfg.Dir, bootstrapDirPattern)
	if err != nil {
		return fail("reflecting JSON Schemas: %v", err)
	}
	defer os.RemoveAll(dir)
	if dir, err = filepath.Abs(dir); err != nil { // the go command and the program run elsewhere
		return fail("reflecting JSON Schemas: %v", err)
	}

	comments := cfg.Comments
	if comments == nil {
		comments = map[string]string{}
	}
	commentsJSON, err := json.Marshal(comments)
	if err != nil {
		return fail("reflecting JSON Schemas: encode the doc comments: %v", err)
	}
	commentsPath := filepath.Join(dir, "comments.json")
	resultPath := filepath.Join(dir, "schemas.json")
	exe := filepath.Join(dir, "bootstrap")
	if runtime.GOOS == "windows" {
		exe += ".exe"
	}
	for name, data := range map[string][]byte{bootstrapSourceName: src, bootstrapReflectName: schema.BootstrapSource(), "comments.json": commentsJSON} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
			return fail("reflecting JSON Schemas: %v", err)
		}
	}

	env := bootstrapEnv(cfg.Env)
	goflags, err := bootstrapGOFLAGS(ctx, cfg, dir)
	if err != nil {
		return fail("reflecting JSON Schemas: %v", err)
	}
	args := append([]string{"build", "-buildvcs=false", "-ldflags=-s -w"}, bootstrapBuildFlags(cfg.BuildFlags, goflags)...)
	args = append(args, "-o", exe, ".")
	build := exec.CommandContext(ctx, "go", args...)
	build.Dir = dir
	build.Env = env
	build.WaitDelay = 5 * time.Second
	var buildOut bootstrapBuffer
	build.Stdout, build.Stderr = &buildOut, &buildOut
	if err := build.Run(); err != nil {
		if ctx.Err() != nil {
			return fail("reflecting JSON Schemas: %v", context.Cause(ctx))
		}
		return nil, bootstrapCompileErrors(reqs, types, lines, buildOut.String(), err)
	}
	cfg.timer.done("bootstrap build")

	run := exec.CommandContext(ctx, exe, commentsPath, resultPath)
	run.Env = env
	run.WaitDelay = 5 * time.Second
	var runOut bootstrapBuffer
	run.Stdout, run.Stderr = &runOut, &runOut
	if err := run.Run(); err != nil {
		if ctx.Err() != nil {
			return fail("reflecting JSON Schemas: %v", context.Cause(ctx))
		}
		return fail("the JSON Schema bootstrap program failed (%v); the tools packages' init functions and JSON Schema hooks run in it; its output:\n%s", err, runOut.String())
	}
	data, err := os.ReadFile(resultPath)
	if err != nil {
		return fail("the JSON Schema bootstrap program wrote no results (did init code exit the program?): %v; its output:\n%s", err, runOut.String())
	}
	cfg.timer.done("bootstrap run")
	var items []json.RawMessage
	if err := json.Unmarshal(data, &items); err != nil || len(items) != len(types) {
		return fail("toolgen bug: reading the bootstrap program's results: want an array of %d results, got %s", len(types), bootstrapAbbrev(data))
	}
	return items, nil
}

// BootstrapTag is the build tag the bootstrap program is built with. Files
// that hold only JSON Schema hooks (JSONSchema, JSONSchemaExtend, ...) can
// carry `//go:build toolgen`: toolgen still runs them, and the programs
// that serve the generated registry do not link them or invopop.
const BootstrapTag = "toolgen"

// bootstrapResults parses each raw result, {"schema": ...} or
// {"error": "..."}, and post-processes its schema, GOMAXPROCS results at
// once (each is a tree of its own). A result that is neither fails the
// whole, the first in order.
func bootstrapResults(items []json.RawMessage) ([]*jsontree.Node, []string, error) {
	nodes := make([]*jsontree.Node, len(items))
	typeErrs := make([]string, len(items))
	errs := make([]error, len(items))
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(runtime.GOMAXPROCS(0), len(items)) {
		wg.Go(func() {
			for i := range next {
				nodes[i], typeErrs[i], errs[i] = bootstrapResult(items[i], i)
			}
		})
	}
	for i := range items {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, nil, err
		}
	}
	return nodes, typeErrs, nil
}

// bootstrapResult is the schema, or the type's problem, of the i-th raw
// result.
func bootstrapResult(raw json.RawMessage, i int) (*jsontree.Node, string, error) {
	it, err := jsontree.Parse(raw)
	if err != nil {
		return nil, "", fmt.Errorf("result %d: %w", i, err)
	}
	s, e := it.Get("schema"), it.Get("error")
	switch {
	case e != nil && e.Kind == jsonlex.String && e.Text != "":
		return nil, e.Text, nil
	case s != nil && s.Kind == jsonlex.Object:
		if err := schema.PostProcessTree(s); err != nil {
			return nil, "", fmt.Errorf("result %d: %w", i, err)
		}
		return s, "", nil
	default:
		return nil, "", fmt.Errorf("result %d is neither a schema nor an error: %s", i, bootstrapAbbrev(it.Compact()))
	}
}

// bootstrapLines says which lines of the program's source name which types,
// so that compiler errors are reported at the tools concerned.
type bootstrapLines struct {
	types   map[int]int   // line -> index in types
	imports map[int][]int // line of an import -> indexes of its package's types
}

// bootstrapHead starts the bootstrap program, up to its imports of the
// tools packages.
const bootstrapHead = `// Code generated by toolgen. DO NOT EDIT.

// Command bootstrap is written, built, run and removed by toolgen during
// go generate: it reflects the JSON Schemas of the tool types below and
// writes them to the file named by its second argument.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"

`

// bootstrapTail ends the bootstrap program, after its table of values.
const bootstrapTail = `}

type result struct {
	Schema json.RawMessage ` + "`json:\"schema,omitempty\"`" + `
	Error  string          ` + "`json:\"error,omitempty\"`" + `
}

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "toolgen bootstrap:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) != 2 {
		return fmt.Errorf("usage: bootstrap COMMENTS.json RESULTS.json")
	}
	data, err := os.ReadFile(args[0])
	if err != nil {
		return err
	}
	var comments map[string]string
	if err := json.Unmarshal(data, &comments); err != nil {
		return err
	}
	results := make([]result, len(values))
	for i, v := range values {
		// ReflectRaw (reflector.go) recovers a panic in a hook and returns
		// it as an error, so one failing type does not hide the others.
		s, err := ReflectRaw(reflect.TypeOf(v).Elem(), comments)
		if err != nil {
			results[i].Error = err.Error()
			continue
		}
		results[i].Schema = s
	}
	out, err := json.Marshal(results)
	if err != nil {
		return err
	}
	return os.WriteFile(args[1], out, 0o600)
}
`

// bootstrapSource writes the program. It is deterministic: the types are
// sorted, and each package gets the alias pN in import path order.
func bootstrapSource(types []bootstrapType) ([]byte, bootstrapLines) {
	lines := bootstrapLines{types: map[int]int{}, imports: map[int][]int{}}
	var b bytes.Buffer
	line := 1
	w := func(s string) {
		b.WriteString(s)
		line += strings.Count(s, "\n")
	}
	w(bootstrapHead)
	alias := map[string]string{}
	var pkgs []string
	for _, t := range types {
		if _, ok := alias[t.PkgPath]; !ok {
			alias[t.PkgPath] = "p" + strconv.Itoa(len(pkgs))
			pkgs = append(pkgs, t.PkgPath)
		}
	}
	for _, p := range pkgs {
		for i, t := range types {
			if t.PkgPath == p {
				lines.imports[line] = append(lines.imports[line], i)
			}
		}
		w("\t" + alias[p] + " " + strconv.Quote(p) + "\n")
	}
	w(`)

// values holds a nil pointer to each type to reflect, in the order of the
// results: a table of static data compiles much faster than code.
var values = [...]any{
`)
	for i, t := range types {
		lines.types[line] = i
		w("\t(*" + alias[t.PkgPath] + "." + t.Name + ")(nil),\n")
	}
	w(bootstrapTail)
	return b.Bytes(), lines
}

// bootstrapCompileLine parses a compiler error in the program's source,
// "./main.go:LINE:COL: MESSAGE", and returns the line and the message.
func bootstrapCompileLine(s string) (int, string, bool) {
	rest, ok := strings.CutPrefix(strings.TrimPrefix(s, "./"), bootstrapSourceName+":")
	if !ok {
		return 0, "", false
	}
	num, rest, ok := strings.Cut(rest, ":")
	line, err := strconv.Atoi(num)
	if !ok || err != nil {
		return 0, "", false
	}
	if col, after, ok := strings.Cut(rest, ":"); ok {
		if _, err := strconv.Atoi(col); err == nil {
			rest = after
		}
	}
	return line, strings.TrimSpace(rest), true
}

// bootstrapCompileErrors turns go build's output into problems: errors on
// a line that names a type (or imports a package) are reported at the
// tools using it, anything else as one problem with the whole output.
func bootstrapCompileErrors(reqs []schemaRequest, types []bootstrapType, lines bootstrapLines, output string, err error) []*problem.Error {
	byType := map[int][]string{}
	general := false
	var last []int // the types of the previous message, for its continuation lines
	for l := range strings.SplitSeq(output, "\n") {
		if l == "" || strings.HasPrefix(l, "# ") {
			continue
		}
		if strings.HasPrefix(l, "\t") && last != nil {
			for _, i := range last {
				msgs := byType[i]
				msgs[len(msgs)-1] += " " + strings.TrimSpace(l)
			}
			continue
		}
		last = nil
		n, msg, ok := bootstrapCompileLine(l)
		if idx, found := lines.types[n]; ok && found {
			last = []int{idx}
		} else if idxs, found := lines.imports[n]; ok && found {
			last = idxs
		} else {
			general = true
			continue
		}
		for _, i := range last {
			byType[i] = append(byType[i], msg)
		}
	}
	var errs []*problem.Error
	for _, r := range reqs {
		for _, side := range []struct {
			what string
			t    *bootstrapType
		}{{"input", r.Input}, {"output", r.Output}} {
			if side.t == nil {
				continue
			}
			i := slices.Index(types, *side.t)
			if msgs := byType[i]; len(msgs) > 0 {
				errs = append(errs, problem.Errorf(r.Pos, "tool %s: the JSON Schema bootstrap program cannot use its %s %s: %s", r.Tool, side.what, *side.t, strings.Join(msgs, "; ")))
			}
		}
	}
	if general || len(errs) == 0 {
		msg := fmt.Sprintf("the JSON Schema bootstrap program does not build (%v):\n%s", err, strings.TrimRight(output, "\n"))
		if strings.Contains(output, "package "+bootstrapInvopopPath) || strings.Contains(output, "providing package "+bootstrapInvopopPath) {
			msg += "\nthe module must require " + bootstrapInvopopPath + " (toolgen's bootstrap program imports it): install toolgen as a tool with `go get -tool github.com/toolgen-go/toolgen/cmd/toolgen`, or run `go get " + bootstrapInvopopPath + "`"
		}
		errs = append(errs, &problem.Error{Msg: msg})
	}
	return errs
}

// bootstrapBuffer collects a command's output, keeping the first
// bootstrapOutputLimit bytes.
type bootstrapBuffer struct {
	buf       bytes.Buffer
	truncated bool
}

func (b *bootstrapBuffer) Write(p []byte) (int, error) {
	if room := bootstrapOutputLimit - b.buf.Len(); room < len(p) {
		b.truncated = true
		b.buf.Write(p[:max(room, 0)])
		return len(p), nil
	}
	return b.buf.Write(p)
}

func (b *bootstrapBuffer) String() string {
	s := b.buf.String()
	if b.truncated {
		s += "\n[output truncated]"
	}
	return s
}

// bootstrapAbbrev shortens data for a message.
func bootstrapAbbrev(data []byte) string {
	const limit = 200
	if len(data) > limit {
		return string(data[:limit]) + "..."
	}
	return string(data)
}
