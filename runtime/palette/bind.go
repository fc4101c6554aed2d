package palette

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/internal/toolerr"
	"github.com/toolgen-go/toolgen/runtime/jsonlex"
	"github.com/toolgen-go/toolgen/runtime/jsontree"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// binding is the arguments a palette fixes for one tool: the members it
// fills in, and the spec the model sees, whose input schema lacks them.
type binding struct {
	members []jsontree.Member // bound members, in the order of the tool's properties
	spec    *tool.Spec        // the derived spec, built once
}

// bindAll validates the bindings of opts against tools and derives each
// bound tool's spec, once. The result is indexed as tools; nil when
// nothing is bound.
func bindAll(tools []*tool.Spec, index map[string]int, bind map[string]json.RawMessage) ([]*binding, error) {
	if len(bind) == 0 {
		return nil, nil
	}
	out := make([]*binding, len(tools))
	names := make([]string, 0, len(bind))
	for name := range bind {
		names = append(names, name)
	}
	slices.Sort(names) // errors in a stable order
	var errs []error
	for _, name := range names {
		i, ok := index[name]
		if !ok {
			errs = append(errs, fmt.Errorf("bind %q: no such tool in the registry", name))
			continue
		}
		b, err := derive(tools[i], bind[name])
		if err != nil {
			errs = append(errs, fmt.Errorf("bind %q: %w", name, err))
			continue
		}
		out[i] = b
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return out, nil
}

// derive builds the binding of spec's arguments to the members of the JSON
// object value: each member must be a property of spec's input schema; the
// derived spec's schema has those properties, and their "required"
// entries, removed.
func derive(spec *tool.Spec, value json.RawMessage) (*binding, error) {
	v, err := jsontree.Parse(value)
	if err != nil {
		return nil, fmt.Errorf("the bound arguments are not valid JSON: %w", err)
	}
	if v.Kind != jsonlex.Object {
		return nil, fmt.Errorf("the bound arguments are a JSON %s, not an object", v.Kind)
	}
	if len(v.Members) == 0 {
		return nil, errors.New("the bound arguments bind no member")
	}
	schema, err := jsontree.Parse(spec.InputSchema)
	if err != nil {
		return nil, fmt.Errorf("the tool's input schema: %w", err)
	}
	props := schema.Get("properties")
	var missing []string
	for _, m := range v.Members {
		if props.Get(m.Key) == nil {
			missing = append(missing, fmt.Sprintf("%q", m.Key))
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("not a property of the tool's input schema: %s", strings.Join(missing, ", "))
	}
	bound := func(key string) bool { return v.Get(key) != nil }
	b := &binding{}
	// The bound members in the order of the schema's properties, so that
	// the merged arguments do not depend on the order of the map's value.
	for _, pm := range props.Members {
		if val := v.Get(pm.Key); val != nil {
			b.members = append(b.members, jsontree.Member{Key: pm.Key, Value: val})
		}
	}
	props.Members = slices.DeleteFunc(props.Members, func(m jsontree.Member) bool { return bound(m.Key) })
	if req := schema.Get("required"); req != nil && req.Kind == jsonlex.Array {
		req.Items = slices.DeleteFunc(req.Items, func(n *jsontree.Node) bool { return n.Kind == jsonlex.String && bound(n.Text) })
	}
	derived := *spec
	derived.InputSchema = schema.Compact()
	b.spec = &derived
	return b, nil
}

// has reports whether the binding fixes the member key.
func (b *binding) has(key string) bool {
	for _, m := range b.members {
		if m.Key == key {
			return true
		}
	}
	return false
}

// apply returns the model's arguments for the tool name with the bound
// members filled in. A bound member the model sent is refused as the
// generated decoder refuses an unknown property: the model cannot see it,
// and cannot set or override it. Arguments that are not a JSON object
// (malformed, or with a member named twice) are refused here too, since
// the bound members could not be filled in.
func (b *binding) apply(name string, args []byte) ([]byte, *tool.Error) {
	args = bytes.TrimSpace(args)
	if len(args) == 0 {
		args = []byte("{}")
	}
	root, e := objectArgs(name, args)
	if e != nil {
		return nil, e
	}
	var problems []codec.Problem
	for _, m := range root.Members {
		if b.has(m.Key) {
			problems = append(problems, codec.Problem{Pointer: pointerTo(m.Key), Message: "unknown property (additional properties are not allowed)"})
		}
	}
	if len(problems) > 0 {
		return nil, invalidArguments(name, problems...)
	}
	root.Members = append(root.Members, b.members...)
	return root.Compact(), nil
}

// pointerTo is the JSON Pointer of the top-level member key, with a key
// that is not an identifier written as codec.Hidden (a bound key is the
// host's, but the rule is the codec's: only plain names are repeated).
func pointerTo(key string) string { return "/" + codec.PointerToken(key) }

// invalidArguments is the refusal of the arguments of the tool name, as
// the generated decoder reports it.
func invalidArguments(name string, problems ...codec.Problem) *tool.Error {
	e := toolerr.InvalidArguments(&codec.ArgumentsError{Problems: problems}).(*tool.Error)
	e.Tool = name
	return e
}

// objectArgs parses the arguments args of the tool name, which must be a
// JSON object, or refuses them as the generated decoder would: saying
// what was expected, never what was sent.
func objectArgs(name string, args []byte) (*jsontree.Node, *tool.Error) {
	root, err := jsontree.Parse(args)
	switch {
	case err != nil:
		return nil, invalidArguments(name, codec.Problem{Message: "expected a JSON object (the arguments are malformed or name a member twice)"})
	case root.Kind != jsonlex.Object:
		return nil, invalidArguments(name, codec.Problem{Message: "expected object, got " + root.Kind.String()})
	}
	return root, nil
}
