package shape

import (
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"strings"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/problem"
)

// Secrets. A field of a tool's input tagged `toolgen:"secret"` holds
// something the call service must not record (a password, a token): the
// spec lists where such members are in the arguments, as JSON Pointers
// where "*" stands for any array element or map value ("/passphrase",
// "/accounts/*/token"), and the service replaces them in what it keeps.
// The pointers are derived from the shapes (shape.go), so they name the
// members as the decoder reads them: json tags rename them, embedded
// structs are flattened, pointers are transparent. Nothing is reflected
// at run time.
//
// What the tag cannot say is refused at the field: a value other than
// "secret"; a field JSON never carries (json:"-", jsonschema:"-",
// unexported, shadowed), whose tag would protect nothing; an embedded
// struct, whose fields are promoted one by one; and a secret in a
// recursive type, which has no finite set of pointers (the tool's LogArgs
// method, checked by gen's model phase, is the way to keep such arguments out of records).

// secretTagValue is the one value of the toolgen struct tag.
const secretTagValue = "secret"

// Why a field tagged secret protects nothing, completing
// "NAME is tagged toolgen:"secret" but ...".
const (
	secretJSONSkipped   = `also json:"-": JSON skips it, so it is never in the arguments; remove one of the tags`
	secretSchemaSkipped = `also jsonschema:"-": it is not in the schema and the decoder refuses it, so it is never in the arguments; remove one of the tags`
	secretUnexported    = `unexported: JSON skips it, so it is never in the arguments; export it or remove the tag`
	secretEmbedded      = `embedded: encoding/json promotes the fields of the embedded struct to the outer object, and the tag applies to none of them; tag the fields that are secret, or give the embedded field a JSON name`
)

// secretTag reads the toolgen tag of the field f: secret when it is
// "secret". fresh is true the first time f is seen (a struct is flattened
// once per outer struct and direction), and only then is a bad value
// reported.
func (d *Deriver) secretTag(fl *flattening, f *types.Var, tag reflect.StructTag, pos token.Position) (secret, fresh bool) {
	v, ok := tag.Lookup("toolgen")
	if !ok {
		return false, false
	}
	fresh = !d.secrets[f]
	d.secrets[f] = true
	if v != secretTagValue {
		if fresh {
			fl.fail(pos, "%s: unknown toolgen tag value %q; the accepted value is %q", f.Name(), v, secretTagValue)
		}
		return false, fresh
	}
	return true, fresh
}

// skippedSecret reports, when report is set, the field f tagged secret
// that protects nothing, and why.
func (fl *flattening) skippedSecret(report bool, f *types.Var, pos token.Position, why string) {
	if report {
		fl.fail(pos, "%s is tagged toolgen:%q but %s", f.Name(), secretTagValue, why)
	}
}

// shadowedSecrets reports each member tagged secret that encoding/json
// drops for a shallower member of the same JSON name, which is not.
func (d *Deriver) shadowedSecrets(fl *flattening, doms []*member) {
	for _, m := range fl.members {
		if !m.secret || slices.Contains(doms, m) {
			continue
		}
		i := slices.IndexFunc(doms, func(d *member) bool { return d.name == m.name })
		if i < 0 || doms[i].v() == m.v() || doms[i].secret {
			continue // a clash, reported by dominant; or the dominant one is secret too
		}
		fl.fail(m.pos, "%s is tagged toolgen:%q but %s shadows it (JSON name %q), so it is never in the arguments; tag %s, or rename one",
			m.goPath(), secretTagValue, doms[i].goPath(), m.name, doms[i].goPath())
	}
}

// SecretPointers returns the JSON Pointers of the secret members below
// root, sorted, or the problems of the secrets in recursive types.
func SecretPointers(root *Shape) ([]string, []*problem.Error) {
	var errs []*problem.Error
	w := &secretWalk{reach: secretReach(root), onPath: map[*Shape]bool{}, loops: map[*Field]secretLoop{}}
	w.walk(root, "")
	for f, l := range w.loops {
		where := "inside"
		if l.owner != l.rec {
			where = "and is reached through"
		}
		errs = append(errs, problem.Errorf(f.Pos, "%s.%s is tagged toolgen:%q %s the recursive type %s (reachable from itself), so the secret has no finite JSON Pointer; remove the tag and give the tool a LogArgs method instead: records keep the form of the arguments it gives",
			TypeString(l.owner.Type), f.GoName, secretTagValue, where, TypeString(l.rec.Type)))
	}
	slices.Sort(w.paths)
	return slices.Compact(w.paths), errs
}

// secretWalk enumerates the pointers of the secret members below a
// shape.
type secretWalk struct {
	reach  map[*Shape]bool // the shapes from which a secret field is reached
	onPath map[*Shape]bool // the shapes on the current path
	paths  []string
	loops  map[*Field]secretLoop // the secret fields reached through a cycle
}

// secretLoop is a secret field reached through a cycle: the struct it is
// a field of, and the shape the walk re-entered.
type secretLoop struct {
	owner, rec *Shape
}

// walk adds the pointers of the secrets below s, reached at ptr. A secret
// field's value is replaced whole: nothing below it is walked.
func (w *secretWalk) walk(s *Shape, ptr string) {
	if s == nil || !w.reach[s] {
		return
	}
	if w.onPath[s] {
		for _, n := range reachable(s) {
			for _, f := range n.Fields {
				if _, seen := w.loops[f]; f.Secret && !seen {
					w.loops[f] = secretLoop{owner: n, rec: s}
				}
			}
		}
		return
	}
	w.onPath[s] = true
	defer delete(w.onPath, s)
	switch s.Kind {
	case Ptr:
		w.walk(s.Elem, ptr)
	case Slice, Array, Map:
		w.walk(s.Elem, ptr+"/*")
	case Struct:
		for _, f := range s.Fields {
			p := ptr + "/" + escapePointer(f.JSONName)
			if f.Secret {
				w.paths = append(w.paths, p)
				continue
			}
			w.walk(f.Shape, p)
		}
	}
}

// successors are the shapes s leads to as JSON, not through a secret
// field.
func successors(s *Shape) []*Shape {
	switch s.Kind {
	case Ptr, Slice, Array, Map:
		return []*Shape{s.Elem}
	case Struct:
		var out []*Shape
		for _, f := range s.Fields {
			if !f.Secret {
				out = append(out, f.Shape)
			}
		}
		return out
	}
	return nil
}

// reachable lists the shapes reached from root (root first), each once.
func reachable(root *Shape) []*Shape {
	seen := map[*Shape]bool{root: true}
	list := []*Shape{root}
	for i := 0; i < len(list); i++ {
		for _, n := range successors(list[i]) {
			if n != nil && !seen[n] {
				seen[n] = true
				list = append(list, n)
			}
		}
	}
	return list
}

// secretReach is the set of shapes reached from root from which a secret
// field is reached: the struct shapes that hold one, and every shape that
// leads to those (found backwards, so cycles need no care).
func secretReach(root *Shape) map[*Shape]bool {
	all := reachable(root)
	preds := map[*Shape][]*Shape{}
	var work []*Shape
	for _, s := range all {
		for _, n := range successors(s) {
			preds[n] = append(preds[n], s)
		}
		if s.Kind == Struct && slices.ContainsFunc(s.Fields, func(f *Field) bool { return f.Secret }) {
			work = append(work, s)
		}
	}
	reach := map[*Shape]bool{}
	for _, s := range work {
		reach[s] = true
	}
	for len(work) > 0 {
		s := work[len(work)-1]
		work = work[:len(work)-1]
		for _, p := range preds[s] {
			if !reach[p] {
				reach[p] = true
				work = append(work, p)
			}
		}
	}
	return reach
}

// escapePointer escapes a member name for a JSON Pointer (RFC 6901):
// "~" as "~0", "/" as "~1".
func escapePointer(name string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(name)
}
