package dynamic_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/dynamic"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

func TestNamespacing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newSource(t, "notes_search")
	general := newFake("", spec("run"), spec("list"))
	crm := newFake("crm-eu", spec("find_contact"))
	require.NoError(t, s.Register(ctx, general))
	require.NoError(t, s.Register(ctx, crm))

	assert.Equal(t, []string{"crm-eu_find_contact", "general_list", "general_run"}, names(ctx, s))

	d, ok := s.Lookup(ctx, "crm-eu_find_contact")
	require.True(t, ok)
	assert.Equal(t, "crm-eu_find_contact", d.Spec().Name)
	assert.Equal(t, "crm-eu", d.Spec().Group)
	assert.Equal(t, "Does find_contact.", d.Spec().Description)
	res, err := d.Call(ctx, []byte(`{"query":"ana"}`))
	require.NoError(t, err)
	assert.Equal(t, `find_contact {"query":"ana"}`, res.Text(), "the toolkit is called by the local name")

	for _, name := range []string{"find_contact", "crm_find_contact", "general_find_contact", "_run", "run", "notes_search", ""} {
		_, ok := s.Lookup(ctx, name)
		assert.False(t, ok, name)
	}
	assert.Equal(t, "find_contact", crm.Tools(ctx)[0].Name, "the toolkit's spec keeps its local name")
	assert.Empty(t, crm.Tools(ctx)[0].Group, "the toolkit's spec is not modified")
}

func TestInvalidGroup(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newSource(t)
	for _, g := range []string{"CRM", "crm_eu", "9crm", "-crm", "crm eu", strings.Repeat("a", 63)} {
		err := s.Register(ctx, newFake(g, spec("x")))
		require.Error(t, err, g)
		assert.Contains(t, err.Error(), "invalid group", g)
	}
	assert.Empty(t, names(ctx, s))
	assert.True(t, dynamic.ValidGroup(strings.Repeat("a", 62)))
}

func TestInvalidNamesLeftOut(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, logs := newSource(t)
	p := newFake("wf", spec("ok"), spec("has space"), spec(strings.Repeat("x", 62)), spec("dot.ted"), spec("ok"))
	require.NoError(t, s.Register(ctx, p))
	assert.Equal(t, []string{"wf_ok"}, names(ctx, s), "invalid names, one too long once prefixed and a duplicate are left out")
	_, ok := s.Lookup(ctx, "wf_has space")
	assert.False(t, ok)
	assert.Contains(t, logs.String(), `name="\"has space\""`)
	assert.Contains(t, logs.String(), "lists the name twice")
}

func TestAvailability(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := &credToolkit{fake: newFake("crm", spec("find"), spec("add"))}
	vars := map[string]string{}
	var mu sync.Mutex
	s, err := dynamic.New(nil, &dynamic.Options{Getenv: func(k string) string { mu.Lock(); defer mu.Unlock(); return vars[k] }})
	require.NoError(t, err)
	require.NoError(t, s.Register(ctx, p))

	assert.Empty(t, names(ctx, s), "missing credentials: nothing is listed")
	_, ok := s.Lookup(ctx, "crm_find")
	assert.False(t, ok, "missing credentials: nothing is callable")

	mu.Lock()
	vars["CRM_TOKEN"] = "t0k3n"
	mu.Unlock()
	assert.Equal(t, []string{"crm_add", "crm_find"}, names(ctx, s), "the whole bundle appears")
	_, ok = s.Lookup(ctx, "crm_find")
	assert.True(t, ok)
}

// credToolkit is available while its credential is set, read through
// the environment it was bound to.
type credToolkit struct{ *fake }

func (p *credToolkit) Available(context.Context) bool { return p.env.Getenv("CRM_TOKEN") != "" }

func TestBindEnvironment(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newSource(t)
	p := newFake("wf", spec("run"))
	require.NoError(t, s.Register(ctx, p))
	require.NotNil(t, p.env.Logger)
	require.NotNil(t, p.env.Getenv)

	bad := newFake("db", spec("run"))
	bad.bindErr = errors.New("no database")
	err := s.Register(ctx, bad)
	require.ErrorContains(t, err, "register toolkit db (*dynamic_test.fake): bind: no database")
	assert.Equal(t, []string{"wf_run"}, names(ctx, s))
}

func TestContinuation(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newSource(t)
	first := newFake("", spec("a"))
	off := newFake("", spec("c"))
	off.available.Store(false)
	second := newFake("", spec("b"), spec("c"))
	require.NoError(t, s.Register(ctx, first))
	require.NoError(t, s.Register(ctx, off))
	err := s.Register(ctx, second)
	require.Error(t, err, "c collides with the unavailable toolkit's c")
	off.set(spec("d"))
	require.NoError(t, s.Register(ctx, second))

	d, ok := s.Lookup(ctx, "general_b")
	require.True(t, ok, "a name the first toolkit does not serve goes on to the next")
	_, err = d.Call(ctx, nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"b"}, second.calls)
	_, ok = s.Lookup(ctx, "general_d")
	assert.False(t, ok, "an unavailable toolkit's tool is not found")
	assert.Equal(t, []string{"general_a", "general_b", "general_c"}, names(ctx, s))
}

func TestCollisions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newSource(t, "notes_search", "wf_run")
	a := newFake("wf", spec("list"), spec("show"))
	require.NoError(t, s.Register(ctx, a))

	b := newFake("wf", spec("run"), spec("show"), spec("new"))
	err := s.Register(ctx, b)
	require.Error(t, err)
	assert.Equal(t, "register toolkit wf (*dynamic_test.fake): refused: "+
		"tool wf_run of toolkit wf (*dynamic_test.fake) collides with the static tool wf_run\n"+
		"tool wf_show of toolkit wf (*dynamic_test.fake) collides with tool wf_show of toolkit wf (*dynamic_test.fake)", err.Error())
	assert.Equal(t, []string{"wf_list", "wf_show"}, names(ctx, s), "a refused toolkit is not registered")
	_, ok := s.Lookup(ctx, "wf_new")
	assert.False(t, ok)

	// A collision with a static tool found by an upsert: the toolkit
	// stays, its colliding tool is not served.
	a.set(spec("list"), spec("run"))
	err = s.Register(ctx, a)
	require.ErrorContains(t, err, "tool wf_run of toolkit wf (*dynamic_test.fake) collides with the static tool wf_run")
	assert.Equal(t, []string{"wf_list"}, names(ctx, s), "a static tool is never shadowed")
	_, ok = s.Lookup(ctx, "wf_run")
	assert.False(t, ok)

	b.set(spec("new"))
	require.NoError(t, s.Register(ctx, b))
	assert.Equal(t, int32(2), b.binds.Load(), "a refused toolkit is bound again when registered again")
	assert.Equal(t, []string{"wf_list", "wf_new"}, names(ctx, s))
}

func TestLaterCollision(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, logs := newSource(t)
	first := newFake("", spec("x"))
	second := newFake("", spec("y"))
	require.NoError(t, s.Register(ctx, first))
	require.NoError(t, s.Register(ctx, second))

	// The second toolkit's tools change to include the first's name.
	second.set(spec("x"), spec("y"))
	for range 3 {
		d, ok := s.Lookup(ctx, "general_x")
		require.True(t, ok)
		_, err := d.Call(ctx, nil)
		require.NoError(t, err)
		assert.Equal(t, []string{"general_x", "general_y"}, names(ctx, s), "listed once")
	}
	assert.Equal(t, []string{"x", "x", "x"}, first.calls, "the toolkit registered first serves it")
	assert.Empty(t, second.calls)

	// The first toolkit's tools change to include the second's name: the
	// first still wins.
	first.set(spec("x"), spec("y"))
	d, ok := s.Lookup(ctx, "general_y")
	require.True(t, ok)
	_, err := d.Call(ctx, nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"x", "x", "x", "y"}, first.calls)
	assert.Contains(t, logs.String(), "dynamic tool collision")
	assert.Contains(t, logs.String(), "tool=general_x")

	// Registering the second again reports the collision.
	err = s.Register(ctx, second)
	require.ErrorContains(t, err, "tool general_x of toolkit general (*dynamic_test.fake) collides with tool general_x of toolkit general (*dynamic_test.fake)")
}

func TestRegisterIsAnUpsert(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newSource(t)
	a, b := newFake("a", spec("x")), newFake("b", spec("x"))
	for range 3 {
		require.NoError(t, s.Register(ctx, a))
		require.NoError(t, s.Register(ctx, b))
	}
	assert.Equal(t, int32(1), a.binds.Load(), "bound once")
	assert.Equal(t, []string{"a_x", "b_x"}, names(ctx, s))
	a.set(spec("x"), spec("z"))
	require.NoError(t, s.Register(ctx, a))
	assert.Equal(t, []string{"a_x", "a_z", "b_x"}, names(ctx, s), "the new tools are served")

	for range 2 {
		s.Unregister(a)
	}
	s.Unregister(nil)
	s.Unregister(newFake("b", spec("x"))) // another value: not registered
	assert.Equal(t, []string{"b_x"}, names(ctx, s))
	require.NoError(t, s.Register(ctx, a))
	assert.Equal(t, int32(2), a.binds.Load(), "bound again after Unregister")
	assert.Equal(t, []string{"a_x", "a_z", "b_x"}, names(ctx, s))
}

// valueToolkit is a toolkit that is not comparable.
type valueToolkit struct {
	*fake
	tags []string
}

func TestRegisterRefusesIncomparable(t *testing.T) {
	t.Parallel()
	s, _ := newSource(t)
	err := s.Register(context.Background(), valueToolkit{fake: newFake("x", spec("y"))})
	require.ErrorContains(t, err, "not comparable")
	require.ErrorContains(t, s.Register(context.Background(), nil), "nil toolkit")
	s.Unregister(valueToolkit{}) // does not panic
}

func TestConcurrentRegisterUnregisterLookup(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newSource(t, "static_tool")
	toolkits := []*fake{newFake("a", spec("x")), newFake("b", spec("x")), newFake("c", spec("x"), spec("y"))}
	stable := newFake("z", spec("x"))
	require.NoError(t, s.Register(ctx, stable))
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for j := range 200 {
				p := toolkits[(i+j)%len(toolkits)]
				if j%2 == 0 {
					assert.NoError(t, s.Register(ctx, p))
				} else {
					s.Unregister(p)
				}
				if j%17 == 0 {
					p.set(spec("x"), spec(fmt.Sprintf("v%d", j)))
				}
			}
		})
		wg.Go(func() {
			for range 200 {
				d, ok := s.Lookup(ctx, "z_x")
				if assert.True(t, ok) {
					_, err := d.Call(ctx, []byte(`{"query":"q"}`))
					assert.NoError(t, err)
				}
				list := names(ctx, s)
				assert.Contains(t, list, "z_x")
				assert.IsIncreasing(t, list)
				if d, ok := s.Lookup(ctx, "c_x"); ok {
					assert.Equal(t, "c_x", d.Spec().Name)
				}
			}
		})
	}
	wg.Wait()
	for _, p := range toolkits {
		assert.LessOrEqual(t, p.binds.Load(), int32(8*200))
	}
}

func TestSpecPointerStable(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newSource(t)
	x := spec("x")
	p := newFake("wf", x)
	require.NoError(t, s.Register(ctx, p))
	d1, _ := s.Lookup(ctx, "wf_x")
	d2, _ := s.Lookup(ctx, "wf_x")
	require.NotNil(t, d1)
	assert.Same(t, d1.Spec(), d2.Spec())
	assert.Same(t, d1.Spec(), s.AppendTools(ctx, nil)[0])

	p.set(x) // a new slice, the same spec
	d3, _ := s.Lookup(ctx, "wf_x")
	assert.Same(t, d1.Spec(), d3.Spec(), "same spec pointer and schema: same spec")

	changed := *x
	changed.InputSchema = []byte(`{"type":"object","properties":{"query":{"type":"integer"}}}`)
	p.set(&changed)
	d4, _ := s.Lookup(ctx, "wf_x")
	assert.NotSame(t, d1.Spec(), d4.Spec(), "a new schema: a new spec")
	assert.Equal(t, changed.InputSchema, d4.Spec().InputSchema)
	err := d4.Check(ctx, []byte(`{"query":"q"}`))
	require.Error(t, err, "the new schema is the one enforced")
}

func TestSchemaThatDoesNotCompile(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, logs := newSource(t)
	bad := spec("bad")
	bad.InputSchema = []byte(`{"type":"object","properties":{"q":{"type":"strang"}}}`)
	ext := spec("ext")
	ext.InputSchema = []byte(`{"type":"object","properties":{"q":{"$ref":"file:///etc/passwd"}}}`)
	broken := spec("broken")
	broken.InputSchema = []byte(`{"type":`)
	none := &tool.Spec{Name: "none"}
	require.NoError(t, s.Register(ctx, newFake("wf", bad, ext, broken, spec("good"), none)))
	assert.Equal(t, []string{"wf_good", "wf_none"}, names(ctx, s))
	assert.Contains(t, logs.String(), "its input schema does not compile")
	assert.Contains(t, logs.String(), "tool=wf_ext")

	d, ok := s.Lookup(ctx, "wf_none")
	require.True(t, ok)
	assert.Equal(t, tool.NoInputSchema, string(d.Spec().InputSchema), "an empty schema is NoInputSchema")
	require.NoError(t, d.Check(ctx, nil))
	require.Error(t, d.Check(ctx, []byte(`{"a":1}`)))
}

func TestCallFailures(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		call func(ctx context.Context, name string, args []byte) (tool.Result, error)
		code tool.Code
		msg  string
	}{
		{"panic", func(context.Context, string, []byte) (tool.Result, error) { panic("boom") }, tool.CodePanic, "the tool failed"},
		{"reserved", func(context.Context, string, []byte) (tool.Result, error) {
			return tool.Result{}, &tool.Error{Code: tool.CodeAlreadyConfirmed, Message: "already"}
		}, tool.CodeFailed, "the tool failed"},
		{"plain", func(context.Context, string, []byte) (tool.Result, error) {
			return tool.Result{}, errors.New("dial tcp 10.0.0.1: secret")
		}, tool.CodeFailed, "the tool failed"},
		{"model", func(context.Context, string, []byte) (tool.Result, error) {
			return tool.Result{}, tool.Errorf("no workflow %s: %w", "w1", errors.New("secret"))
		}, tool.CodeFailed, "no workflow w1: [error withheld]"},
		{"invalid", func(context.Context, string, []byte) (tool.Result, error) {
			return tool.Result{}, &tool.Error{Code: tool.CodeInvalidArguments, Message: "invalid arguments: /query: unknown workflow"}
		}, tool.CodeInvalidArguments, "invalid arguments: /query: unknown workflow"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, _ := newSource(t)
			p := newFake("wf", spec("run"))
			p.call = tc.call
			require.NoError(t, s.Register(ctx, p))
			d, ok := s.Lookup(ctx, "wf_run")
			require.True(t, ok)
			res, err := d.Call(ctx, []byte(`{"query":"q"}`))
			var te *tool.Error
			require.ErrorAs(t, err, &te)
			assert.Equal(t, tc.code, te.Code)
			assert.Equal(t, "wf_run", te.Tool)
			assert.Equal(t, tc.msg, te.Message)
			assert.True(t, res.IsError)
			assert.Equal(t, tc.msg, res.Text())
		})
	}
}

func TestCallTimeout(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newSource(t)
	slow := spec("slow")
	slow.Timeout = 20 * time.Millisecond
	p := newFake("wf", slow)
	release := make(chan struct{})
	p.call = func(context.Context, string, []byte) (tool.Result, error) {
		<-release
		return tool.Result{}, nil
	}
	require.NoError(t, s.Register(ctx, p))
	d, _ := s.Lookup(ctx, "wf_slow")
	_, err := d.Call(ctx, nil)
	close(release)
	assert.Equal(t, tool.CodeTimeout, tool.CodeOf(err))
}

func TestInvalidArgumentsNotCalled(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newSource(t)
	p := newFake("wf", spec("run"))
	require.NoError(t, s.Register(ctx, p))
	d, _ := s.Lookup(ctx, "wf_run")
	res, err := d.Call(ctx, []byte(`{"query":1}`))
	assert.Equal(t, tool.CodeInvalidArguments, tool.CodeOf(err))
	assert.Equal(t, "invalid arguments: /query: expected string, got number", res.Text())
	assert.True(t, res.IsError)
	assert.Empty(t, p.calls, "the toolkit is not called with invalid arguments")
}

func TestAppendToolsAllocations(t *testing.T) {
	ctx := context.Background()
	s, _ := newSource(t, "notes_search")
	for _, g := range []string{"a", "b", "c"} {
		require.NoError(t, s.Register(ctx, newFake(g, spec("x"), spec("y"), spec("z"))))
	}
	dst := make([]*tool.Spec, 0, 16)
	n := testing.AllocsPerRun(100, func() {
		dst = s.AppendTools(ctx, dst[:0])
	})
	assert.Zero(t, n)
	assert.Len(t, dst, 9)
	n = testing.AllocsPerRun(100, func() {
		if _, ok := s.Lookup(ctx, "c_z"); !ok {
			t.Fatal("not found")
		}
	})
	assert.Zero(t, n)
}

func TestSchemaCompiledOncePerVersion(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newSource(t)
	p := newFake("wf", spec("a"), spec("b"))
	require.NoError(t, s.Register(ctx, p))
	a1, _ := s.Lookup(ctx, "wf_a")
	b1, _ := s.Lookup(ctx, "wf_b")
	require.NotNil(t, dynamic.CompiledSchema(a1))
	assert.Same(t, dynamic.CompiledSchema(a1), dynamic.CompiledSchema(b1), "two tools with one schema: compiled once")

	// Tools re-read as new specs with the same schema: not recompiled.
	p.set(spec("a"), spec("b"), spec("c"))
	a2, _ := s.Lookup(ctx, "wf_a")
	c2, _ := s.Lookup(ctx, "wf_c")
	assert.NotSame(t, a1.Spec(), a2.Spec(), "a new spec pointer: a new spec")
	assert.Same(t, dynamic.CompiledSchema(a1), dynamic.CompiledSchema(a2))
	assert.Same(t, dynamic.CompiledSchema(a1), dynamic.CompiledSchema(c2))

	other := spec("a")
	other.InputSchema = []byte(`{"type":"object"}`)
	p.set(other)
	a3, _ := s.Lookup(ctx, "wf_a")
	assert.NotSame(t, dynamic.CompiledSchema(a1), dynamic.CompiledSchema(a3), "a new schema version is compiled")
}
