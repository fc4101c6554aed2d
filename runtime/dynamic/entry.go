package dynamic

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/toolgen-go/toolgen/runtime/internal/run"
	"github.com/toolgen-go/toolgen/runtime/internal/toolerr"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// entry is one registered toolkit.
type entry struct {
	source *Source
	p      Toolkit
	group  string
	label  string // the group and the toolkit's type, for messages
	logger *slog.Logger
	runner *run.Runner // runs its calls: one slot, so that abandoned runs are capped per toolkit
	quiet  func()      // cancels the Source's subscription to p, a tool.Notifier; nil otherwise

	mu  sync.Mutex           // serialises rebuilds of the view
	cur atomic.Pointer[view] // the view of what Tools last returned
}

// newEntry returns the entry of p, registered under group.
func (s *Source) newEntry(p Toolkit, group string) (*entry, error) {
	r, err := run.New(1, 0)
	if err != nil {
		return nil, err
	}
	label := fmt.Sprintf("%s (%T)", group, p)
	return &entry{source: s, p: p, group: group, label: label, logger: s.logger.With("group", group), runner: r}, nil
}

// tools returns what the toolkit's Tools returns; a panic is logged and
// counts as no tools.
func (e *entry) tools(ctx context.Context) (specs []*tool.Spec) {
	defer func() {
		if v := recover(); v != nil {
			e.logger.Error("toolkit panicked in Tools", "toolkit", e.label, "panic", fmt.Sprint(v))
			specs = nil
		}
	}()
	return e.p.Tools(ctx)
}

// available returns what the toolkit's Available returns; a panic is
// logged and counts as unavailable.
func (e *entry) available(ctx context.Context) (ok bool) {
	defer func() {
		if v := recover(); v != nil {
			e.logger.Error("toolkit panicked in Available", "toolkit", e.label, "panic", fmt.Sprint(v))
			ok = false
		}
	}()
	return e.p.Available(ctx)
}

// view returns the view of the toolkit's current tools, rebuilt only
// when Tools returns another slice (or other specs in it) than the last
// view's.
func (e *entry) view(ctx context.Context) *view {
	src := e.tools(ctx)
	if v := e.cur.Load(); v != nil && v.same(src) {
		return v
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	old := e.cur.Load()
	if old != nil && old.same(src) {
		return old
	}
	v := e.build(src, old)
	e.cur.Store(v)
	return v
}

// compiled is the outcome of compiling one version of a schema.
type compiled struct {
	sch *jsonschema.Schema
	err error
}

// view is what one toolkit serves, for one slice its Tools returned.
type view struct {
	src      []*tool.Spec        // as Tools returned it: its identity
	specs    []*tool.Spec        // a copy of src, to see a change made in place
	tools    []*dynTool          // the tools served, sorted by full name
	compiled map[digest]compiled // every schema version of src, compiled once
}

// same reports whether src is the slice the view was built from, holding
// the same specs.
func (v *view) same(src []*tool.Spec) bool {
	if len(src) != len(v.src) {
		return false
	}
	if len(src) == 0 {
		return true
	}
	if &src[0] != &v.src[0] {
		return false
	}
	for i := range src {
		if src[i] != v.specs[i] {
			return false
		}
	}
	return true
}

// find returns the tool of that full name, or nil.
func (v *view) find(name string) *dynTool {
	i, ok := slices.BinarySearchFunc(v.tools, name, func(t *dynTool, name string) int { return strings.Compare(t.spec.Name, name) })
	if !ok {
		return nil
	}
	return v.tools[i]
}

// build makes the view of src, reusing from old the tools whose spec is
// unchanged and the schemas already compiled. What is left out is logged,
// once per version of the toolkit's tools.
func (e *entry) build(src []*tool.Spec, old *view) *view {
	v := &view{src: src, specs: slices.Clone(src), compiled: make(map[digest]compiled, len(src))}
	seen := make(map[string]bool, len(src))
	for i, spec := range src {
		if spec == nil {
			e.logger.Warn("dynamic tool left out: nil spec", "toolkit", e.label, "index", i)
			continue
		}
		name := e.group + "_" + spec.Name
		switch {
		case !ValidName(name):
			e.logger.Warn("dynamic tool left out: its name is not valid for every provider (^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$)", "toolkit", e.label, "name", quoted(spec.Name))
			continue
		case seen[name]:
			e.logger.Warn("dynamic tool left out: its toolkit lists the name twice", "toolkit", e.label, "tool", name)
			continue
		}
		seen[name] = true
		if _, ok := e.source.static[name]; ok {
			e.logger.Warn("dynamic tool left out: it collides with a static tool", "toolkit", e.label, "tool", name)
			continue
		}
		if old != nil {
			if t := old.find(name); t != nil && t.unchanged(spec) {
				v.tools = append(v.tools, t)
				v.compiled[t.digest] = compiled{sch: t.sch}
				continue
			}
		}
		schema := spec.InputSchema
		if len(schema) == 0 {
			schema = []byte(tool.NoInputSchema)
		}
		dg := schemaDigest(schema)
		c, ok := v.compiled[dg]
		if !ok && old != nil {
			c, ok = old.compiled[dg]
		}
		if !ok {
			c.sch, c.err = compile(schema)
		}
		v.compiled[dg] = c
		if c.err != nil {
			e.logger.Warn("dynamic tool left out: its input schema does not compile", "toolkit", e.label, "tool", name, "error", c.err)
			continue
		}
		v.tools = append(v.tools, newDynTool(e, spec, name, schema, dg, c.sch))
	}
	slices.SortFunc(v.tools, func(a, b *dynTool) int { return strings.Compare(a.spec.Name, b.spec.Name) })
	e.logShadowed(v)
	return v
}

// logShadowed logs each tool of v that another toolkit of the group also
// serves: the toolkit registered first serves it.
func (e *entry) logShadowed(v *view) {
	list := *e.source.entries.Load()
	mine := slices.Index(list, e)
	for j, o := range list {
		if o == e || o.group != e.group {
			continue
		}
		ov := o.cur.Load()
		if ov == nil {
			continue
		}
		for _, t := range v.tools {
			if ov.find(t.spec.Name) == nil {
				continue
			}
			winner, loser := e, o
			if mine < 0 || j < mine {
				winner, loser = o, e
			}
			e.logger.Warn("dynamic tool collision: the toolkit registered first serves it", "tool", t.spec.Name, "served_by", winner.label, "not_served_by", loser.label)
		}
	}
}

// quoted is a name a toolkit sent, quoted and cut for a log.
func quoted(s string) string {
	if len(s) > maxName {
		s = s[:maxName]
	}
	return strconv.Quote(s)
}

// dynTool is one tool of a toolkit as the Source serves it: a tool.Dynamic.
type dynTool struct {
	e      *entry
	src    *tool.Spec // the toolkit's spec
	local  string     // its name at the toolkit
	desc   string     // its description when the tool was built
	schema []byte     // its input schema when the tool was built
	digest digest
	spec   *tool.Spec // the spec served: full name, group
	sch    *jsonschema.Schema
}

// newDynTool returns the tool of the toolkit's spec src.
func newDynTool(e *entry, src *tool.Spec, name string, schema []byte, dg digest, sch *jsonschema.Schema) *dynTool {
	spec := *src
	spec.Name = name
	spec.Group = e.group
	spec.InputSchema = bytes.Clone(schema)
	return &dynTool{e: e, src: src, local: src.Name, desc: src.Description, schema: spec.InputSchema, digest: dg, spec: &spec, sch: sch}
}

// unchanged reports whether spec is the toolkit's spec the tool was
// built from, with the same name, description and input schema.
func (t *dynTool) unchanged(spec *tool.Spec) bool {
	if spec != t.src || spec.Name != t.local || spec.Description != t.desc {
		return false
	}
	if len(spec.InputSchema) == 0 {
		return string(t.schema) == tool.NoInputSchema
	}
	return bytes.Equal(spec.InputSchema, t.schema)
}

// Spec returns the tool's spec: the toolkit's, named GROUP_LOCALNAME
// and with Group set to the group. It is the same pointer while the
// toolkit returns the same spec, with the same schema.
func (t *dynTool) Spec() *tool.Spec { return t.spec }

// Check validates args against the tool's input schema.
func (t *dynTool) Check(_ context.Context, args []byte) error {
	return t.e.source.check.validate(t.spec.Name, t.sch, args)
}

// Call validates args, then runs the tool at its toolkit, under its
// name there, through the toolkit's Runner: a panic, a timeout
// (Spec.Timeout) and a cancelled context end the call as they end a
// static tool's.
func (t *dynTool) Call(ctx context.Context, args []byte) (tool.Result, error) {
	name := t.spec.Name
	if err := t.e.source.check.validate(name, t.sch, args); err != nil {
		return failure(err.(*tool.Error))
	}
	if len(args) == 0 {
		args = emptyArgs
	}
	job := &callJob{p: t.e.p, name: name, local: t.local, args: args}
	if _, err := t.e.runner.Run(ctx, 0, name, t.spec.Timeout, job); err != nil {
		return failure(toolerr.Of(name, err))
	}
	return job.res, nil
}

// failure is the Result and error of a failed call, as Registry.Call
// reports them.
func failure(e *tool.Error) (tool.Result, error) {
	return tool.Result{Content: []byte(e.Message), IsError: true}, e
}

// callJob is one call of a toolkit's tool, as a run.Runner runs it.
type callJob struct {
	p           Toolkit
	name, local string
	args        []byte
	res         tool.Result
}

// Run calls the toolkit. An error with a code reserved to the runtime
// can only have come from the toolkit, which has then failed
// (toolerr.Returned).
func (j *callJob) Run(ctx context.Context) error {
	res, err := j.p.Call(ctx, j.local, j.args)
	if err != nil {
		return toolerr.Returned(j.name, err)
	}
	j.res = res
	return nil
}

// Abandoned does nothing: the job holds nothing to give back.
func (*callJob) Abandoned(bool) {}
