package dynamic_test

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/toolgen-go/toolgen/runtime/dynamic"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// workflows serves workflows stored in a database (here, a map) as
// tools: each row is a tool whose input schema is stored with it.
type workflows struct {
	mu     sync.Mutex
	rows   map[string]string // name to input schema
	specs  []*tool.Spec      // the tools of the current rows; replaced when a row changes
	getenv func(string) string
}

func (w *workflows) Group() string { return "wf" }

func (w *workflows) Bind(_ context.Context, env dynamic.Env) error {
	w.getenv = env.Getenv
	return nil
}

// Available: the workflows run only with the database's credentials.
func (w *workflows) Available(context.Context) bool { return w.getenv("WORKFLOWS_DSN") != "" }

func (w *workflows) Tools(context.Context) []*tool.Spec {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.specs
}

// store adds or replaces a workflow: a new slice, so that the Source sees
// the change.
func (w *workflows) store(name, description, schema string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.rows[name] = schema
	specs := []*tool.Spec{}
	for _, s := range w.specs {
		if s.Name != name {
			specs = append(specs, s)
		}
	}
	w.specs = append(specs, &tool.Spec{Name: name, Kind: tool.KindAction, Description: description, InputSchema: []byte(schema)})
}

func (w *workflows) Call(_ context.Context, name string, args []byte) (tool.Result, error) {
	w.mu.Lock()
	_, ok := w.rows[name]
	w.mu.Unlock()
	if !ok {
		return tool.Result{}, errors.New("workflow deleted")
	}
	return tool.Result{Content: fmt.Appendf(nil, "started %s with %s", name, args)}, nil
}

func Example() {
	ctx := context.Background()
	env := map[string]string{"WORKFLOWS_DSN": "postgres://workflows"}
	// The static tools come from the generated registry (reg.Tools()).
	static := []*tool.Spec{{Name: "notes_search"}}
	src, err := dynamic.New(static, &dynamic.Options{Getenv: func(k string) string { return env[k] }})
	if err != nil {
		panic(err)
	}

	wf := &workflows{rows: map[string]string{}}
	wf.store("onboard", "Onboards a new employee.", `{"type":"object","properties":{"email":{"type":"string","format":"email"}},"required":["email"],"additionalProperties":false}`)
	if err := src.Register(ctx, wf); err != nil { // safe to repeat every turn
		panic(err)
	}
	wf.store("offboard", "Offboards an employee.", `{"type":"object","properties":{"email":{"type":"string"}},"required":["email"]}`)

	for _, spec := range src.AppendTools(ctx, nil) {
		fmt.Println(spec.Name, "-", spec.Description)
	}

	d, _ := src.Lookup(ctx, "wf_onboard")
	res, _ := d.Call(ctx, []byte(`{"email":"ana@example.com"}`))
	fmt.Println(res.Text())
	res, _ = d.Call(ctx, []byte(`{"email":"not an address","team":"secret-team"}`))
	fmt.Println(res.Text())

	delete(env, "WORKFLOWS_DSN")
	_, ok := src.Lookup(ctx, "wf_onboard")
	fmt.Println("without credentials:", len(src.AppendTools(ctx, nil)), "tools, wf_onboard found:", ok)
	// Output:
	// wf_offboard - Offboards an employee.
	// wf_onboard - Onboards a new employee.
	// started onboard with {"email":"ana@example.com"}
	// invalid arguments: /email: must be a valid email; /team: unknown property (additional properties are not allowed)
	// without credentials: 0 tools, wf_onboard found: false
}
