package servicemcp_test

import (
	"context"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/mcpserver"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/runtime/toolimpl"
)

// TestCallEntersEachFileOnce keeps issue R's straight call path (item 2):
// an MCP tools/call, over HTTP, through the service to a registry tool
// enters each file of the module's runtime/ once on its way down, and
// follows the path written below.
//
// What it sees: stacks captured at probes along the path, in the order
// the call reaches them (the Observer's Start, the policy, the kill
// switch, the limiter, the store's Start, the tool's dispatch, the store's
// Finish, the Observer's End), each kept as its frames in runtime/ files,
// test files left out. Frames of the MCP SDK, net/http and the test
// between two of ours are dropped, so a file the SDK calls back into from
// itself is not a re-entry; inlined functions count under their own file.
// The tool runs on a worker goroutine, so its probe also reads, from
// runtime.Stack's text, the stack of the goroutine waiting in the
// service's run.
//
// What it checks: on every stack no file comes back after another file
// was entered (a → b → a, such as a closure of call.go run by service.go,
// fails it); and the entries into files over the probes in time order are
// the ones listed. It cannot see what ran and returned between two probes
// (argument decoding, the record's log form, the codec writing the
// result), nor tell apart two calls from one call site (the turns of a
// loop), nor the goroutines the path starts and does not wait for
// (progress watching). It does not run in parallel: the waiting
// goroutine is found as the one stack in the process passing
// service.(*Service).run.
func TestCallEntersEachFileOnce(t *testing.T) {
	var p probes
	f := newFixture(t)
	reg, err := toolimpl.NewRegistry(probedSpecs(), nil, func(ctx context.Context, i int, mode toolimpl.Mode, in *codec.Decoder, out *codec.Encoder) (toolimpl.Output, error) {
		p.captureOther("tool.caller", "github.com/toolgen-go/toolgen/runtime/service.(*Service).run")
		p.capture("tool")
		return f.dispatch(ctx, i, mode, in, out)
	}, nil)
	require.NoError(t, err)
	svc, err := service.New(reg, &service.Options{
		Store:    probedStore{service.NewMemoryStore(), &p},
		Policy:   probedPolicy{&p},
		Limiter:  probedLimiter{&p},
		Observer: probedObserver{&p},
		Halted:   func(context.Context) bool { p.capture("halted"); return false },
	})
	require.NoError(t, err)
	srv, err := mcpserver.New(svc, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = srv.Close() })
	cs := dialHTTP(t, serveHTTP(t, &instance{svc: svc, srv: srv}, true), anaToken, latest, nil)

	p.reset() // the listing and the session's start are not the call
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "notes_update", Arguments: map[string]any{"id": 7}})
	require.NoError(t, err)
	require.Equal(t, "updated note 7 (run 1)", textOf(res))

	got := p.all()
	var names []string
	for _, pr := range got {
		names = append(names, pr.name)
	}
	// The policy is asked for the offer and again before the run.
	require.Equal(t, []string{"observer.start", "policy", "halted", "limiter", "store.start", "tool.caller", "tool", "store.finish", "observer.end"},
		slices.Compact(names), "the probes, in the order the call reached them")
	for _, pr := range got {
		require.NotEmpty(t, pr.frames, "%s: the stack holds frames of runtime/", pr.name)
		assert.Empty(t, reentries(pr.frames), "%s: a file entered again on the stack %v", pr.name, runs(pr.frames))
	}
	// The path in time order, a file each time a call enters it from
	// another: the service's call enters target.go to ask whether the tool
	// is offered and again to run it, and service.go for the kill switch
	// and again to write the end of the run; the tool runs on a worker
	// goroutine (internal/run) while the caller waits in run.go.
	assert.Equal(t, []string{
		"mcpserver/server.go", "mcpserver/confirm.go", "mcpserver/call.go", "service/call.go",
		"service/target.go",                                                     // offered: the permissions and the policy
		"service/service.go",                                                    // isHalted
		"service/target.go", "internal/registry/call.go", "internal/run/run.go", // the caller, waiting
		"internal/run/run.go", "internal/registry/codecs.go", // the worker, in the tool
		"service/service.go", // writeFinish
	}, entries(got), "the files the call entered, in time order")
}

// probedSpecs are the fixture's tools.
func probedSpecs() []*tool.Spec {
	return []*tool.Spec{
		tDelete: {Name: "notes_delete", Kind: tool.KindPropose, Permissions: []string{"notes.write"}},
		tRead:   {Name: "notes_read", Kind: tool.KindRead, ReadOnly: true, Permissions: []string{"notes.read"}},
		tUpdate: {Name: "notes_update", Kind: tool.KindAction, Permissions: []string{"notes.write"}},
	}
}

// frame is a function on a captured stack and the file it is in, relative
// to runtime/.
type frame struct {
	fn, file string
	line     int
}

// probe is a stack captured at a named point: its frames in runtime/
// files, outermost first.
type probe struct {
	name   string
	g      string // the goroutine's number
	frames []frame
}

// probes collects the stacks of a test, in the order they were captured.
type probes struct {
	mu  sync.Mutex
	got []probe
}

// runtimeDir is the module's runtime/ directory as the stack names it,
// found from this file's own name.
func runtimeDir() string {
	_, self, _, _ := runtime.Caller(0)
	return filepath.Dir(filepath.Dir(self)) + "/"
}

// capture keeps the stack of its caller under name.
func (p *probes) capture(name string) {
	pcs := make([]uintptr, 1024)
	n := runtime.Callers(2, pcs)
	dir := runtimeDir()
	var fs []frame
	it := runtime.CallersFrames(pcs[:n])
	for {
		f, more := it.Next()
		if rel, ok := strings.CutPrefix(f.File, dir); ok && !strings.HasSuffix(rel, "_test.go") {
			fs = append(fs, frame{fn: f.Function, file: rel, line: f.Line})
		}
		if !more {
			break
		}
	}
	slices.Reverse(fs)
	if n == len(pcs) {
		fs = nil // cut: the test fails on an empty stack
	}
	buf := make([]byte, 64)
	g, _, _ := strings.Cut(strings.TrimPrefix(string(buf[:runtime.Stack(buf, false)]), "goroutine "), " ")
	p.add(probe{name: name, g: g, frames: fs})
}

// captureOther keeps, under name, the stack of the one other goroutine
// whose stack passes fn (a function's full name), read from the text of
// runtime.Stack; none or more than one keeps no frames.
func (p *probes) captureOther(name, fn string) {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	var found []probe
	for _, text := range strings.Split(string(buf), "\n\n")[1:] { // the first is this goroutine
		if g, fs := parseStack(text, runtimeDir()); slices.ContainsFunc(fs, func(f frame) bool { return f.fn == fn }) {
			found = append(found, probe{name: name, g: g, frames: fs})
		}
	}
	if len(found) != 1 {
		found = []probe{{name: name}}
	}
	p.add(found[0])
}

// parseStack reads a goroutine's stack as runtime.Stack writes it: its
// number, and its frames in files under dir, test files left out,
// outermost first.
func parseStack(text, dir string) (g string, fs []frame) {
	lines := strings.Split(text, "\n")
	g, _, _ = strings.Cut(strings.TrimPrefix(lines[0], "goroutine "), " ")
	for i := 1; i+1 < len(lines); i += 2 {
		fn, loc := lines[i], strings.TrimPrefix(lines[i+1], "\t")
		if strings.HasPrefix(fn, "created by ") {
			break
		}
		if k := strings.LastIndexByte(fn, '('); k > 0 {
			fn = fn[:k]
		}
		loc, _, _ = strings.Cut(loc, " +0x")
		colon := strings.LastIndexByte(loc, ':')
		if colon < 0 {
			continue
		}
		rel, ok := strings.CutPrefix(loc[:colon], dir)
		if !ok || strings.HasSuffix(rel, "_test.go") {
			continue
		}
		n, _ := strconv.Atoi(loc[colon+1:])
		fs = append(fs, frame{fn: fn, file: rel, line: n})
	}
	slices.Reverse(fs)
	return g, fs
}

func (p *probes) add(pr probe) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.got = append(p.got, pr)
}

func (p *probes) reset() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.got = nil
}

func (p *probes) all() []probe {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.got)
}

// runs is the files of frames, a file once for each run of frames in it.
func runs(frames []frame) []string {
	var out []string
	for _, f := range frames {
		if len(out) == 0 || out[len(out)-1] != f.file {
			out = append(out, f.file)
		}
	}
	return out
}

// reentries is the files of frames entered in two runs.
func reentries(frames []frame) []string {
	var again []string
	seen := map[string]bool{}
	for _, f := range runs(frames) {
		if seen[f] {
			again = append(again, f)
		}
		seen[f] = true
	}
	return again
}

// entries follows the probes in time order and returns every entry into
// a file: a frame of it called from another file's frame (or, first on a
// goroutine, from outside runtime/). Two consecutive stacks of a goroutine
// share the calls under way: the frames of the same functions at the same
// lines from the outermost, and one more of the same function (it has
// moved on to another call); the frames below are calls made since.
func entries(ps []probe) []string {
	var trail []string
	prev := map[string][]frame{} // by goroutine
	for _, pr := range ps {
		last, shared := prev[pr.g], 0
		for shared < min(len(last), len(pr.frames)) && last[shared].fn == pr.frames[shared].fn {
			shared++
			if last[shared-1].line != pr.frames[shared-1].line {
				break
			}
		}
		for k := shared; k < len(pr.frames); k++ {
			if k == 0 || pr.frames[k-1].file != pr.frames[k].file {
				trail = append(trail, pr.frames[k].file)
			}
		}
		prev[pr.g] = pr.frames
	}
	return trail
}

// probedStore captures the stacks of the start and the end of a run's
// record.
type probedStore struct {
	service.Store
	p *probes
}

func (s probedStore) Start(ctx context.Context, rec *service.Record) (*service.Record, error) {
	s.p.capture("store.start")
	return s.Store.Start(ctx, rec)
}

func (s probedStore) Finish(ctx context.Context, rec *service.Record) error {
	s.p.capture("store.finish")
	return s.Store.Finish(ctx, rec)
}

// probedPolicy offers every tool, capturing the stack where it is asked.
type probedPolicy struct{ p *probes }

func (pp probedPolicy) Allows(context.Context, *tool.Invocation, *tool.Spec) bool {
	pp.p.capture("policy")
	return true
}

func (pp probedPolicy) MayConfirm(context.Context, tool.Principal, *service.Proposal) bool {
	return true
}

// probedLimiter admits every call, capturing the stack where it is asked.
type probedLimiter struct{ p *probes }

func (l probedLimiter) Allow(context.Context, string) (bool, error) {
	l.p.capture("limiter")
	return true, nil
}

// probedObserver captures the stacks where a call is told to start and
// to end.
type probedObserver struct{ p *probes }

func (o probedObserver) Start(ctx context.Context, _ string) context.Context {
	o.p.capture("observer.start")
	return ctx
}

func (o probedObserver) End(context.Context, *service.Record) {
	o.p.capture("observer.end")
}
