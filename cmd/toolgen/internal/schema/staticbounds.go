package schema

import (
	"go/types"
	"reflect"
	"strings"
)

// mapBounds is MapBounds' step on the static path: the same walk over the
// derived schema beside the go/types type, so that the bounds land exactly
// where MapBounds puts them in the bootstrap program.
func (d *deriver) mapBounds(root *node, t types.Type) {
	w := staticBoundsWalk{defs: d.defs, seen: map[string]bool{}}
	w.schema(root, t)
}

type staticBoundsWalk struct {
	defs map[string]*node
	seen map[string]bool // named types whose definition was walked
}

// deref is t without its pointers.
func deref(t types.Type) types.Type {
	t = types.Unalias(t)
	for {
		p, ok := t.(*types.Pointer)
		if !ok {
			return t
		}
		t = types.Unalias(p.Elem())
	}
}

// schema walks s, the schema of a value of type t.
func (w *staticBoundsWalk) schema(s *node, t types.Type) {
	t = deref(t)
	if s == nil {
		return
	}
	if s.ref != "" {
		name := typeName(t)
		def, ok := w.defs[name]
		if name == "" || !ok || w.seen[name] {
			return
		}
		w.seen[name] = true
		w.schema(def, t)
		return
	}
	for _, sub := range s.oneOf {
		w.schema(sub, t)
	}
	for _, sub := range s.anyOf {
		w.schema(sub, t)
	}
	switch u := t.Underlying().(type) {
	case *types.Struct:
		w.fields(s, u)
	case *types.Slice:
		w.schema(s.items, u.Elem())
	case *types.Array:
		w.schema(s.items, u.Elem())
	case *types.Map:
		w.schema(s.additional, u.Elem())
		for _, p := range s.patternProps {
			w.schema(p, u.Elem())
		}
	}
}

// fields walks the properties of s, the schema of a struct, with the
// fields of the embedded structs MapBounds walks.
func (w *staticBoundsWalk) fields(s *node, u *types.Struct) {
	if !s.hasProps {
		return
	}
	for i := range u.NumFields() {
		f := u.Field(i)
		tag := reflect.StructTag(u.Tag(i))
		opts := strings.Split(tag.Get("json"), ",")
		name := opts[0]
		if name == "-" && len(opts) == 1 || splitTag(tag.Get("jsonschema"))[0] == "-" {
			continue
		}
		ft := deref(f.Type())
		if st, ok := ft.Underlying().(*types.Struct); ok && f.Embedded() && name == "" {
			w.fields(s, st)
			continue
		}
		if !f.Exported() {
			continue
		}
		if name == "" {
			name = f.Name()
		}
		var p *node
		for _, pr := range s.props {
			if pr.name == name {
				p = pr.schema
				break
			}
		}
		if p == nil {
			continue
		}
		if _, ok := ft.(*types.Map); ok {
			p.setMapBounds(tag.Get("jsonschema"))
		}
		w.schema(p, f.Type())
	}
}

// setMapBounds is setMapBounds of reflector.go on a derived schema.
func (p *node) setMapBounds(tag string) {
	if p.typ != "object" {
		for _, sub := range p.oneOf {
			if sub != nil && sub.typ == "object" {
				p = sub
			}
		}
	}
	if p.typ != "object" {
		return
	}
	minP, maxP := mapBounds(tag)
	if p.minProperties == nil {
		p.minProperties = minP
	}
	if p.maxProperties == nil {
		p.maxProperties = maxP
	}
}
