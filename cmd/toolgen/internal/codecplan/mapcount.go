package codecplan

import (
	"strconv"

	"github.com/dave/jennifer/jen"
	"github.com/toolgen-go/toolgen/runtime/jsonlex"
	"github.com/toolgen-go/toolgen/runtime/jsontree"
)

// This file enforces minProperties and maxProperties on maps, toolgen's
// extension of the jsonschema tag (see schema.MapBounds) or a hook's.
// They are enforced as minItems and maxItems are on slices: the decoder
// counts the members, and past the smallest maxProperties it skips the
// values instead of storing them, so a map's memory follows the schema
// rather than the input, and reports the excess once, after the object.

// mapCount is the member count of one map decoder: limit is the smallest
// maxProperties (-1 when there is none), checks the problems to report
// after the object.
type mapCount struct {
	limit  int
	checks []jen.Code
}

// mapCountOf reads the properties keywords at w, and names n, the
// variable that counts the members, when there is one.
func (g *Planner) mapCountOf(w view, at site) (c mapCount, n string) {
	c.limit = -1
	if w.get("minProperties") == nil && w.get("maxProperties") == nil {
		return c, ""
	}
	n = g.local(at.name, "Len")
	for _, kw := range []struct{ key, op, msg string }{{"minProperties", "<", "must have at least "}, {"maxProperties", ">", "must have at most "}} {
		for _, v := range w.all(kw.key) {
			k, ok := g.propertiesCount(v, at, kw.key)
			if !ok {
				continue
			}
			if kw.key == "maxProperties" && (c.limit < 0 || k < c.limit) {
				c.limit = k
			}
			c.checks = append(c.checks, jen.If(jen.Id(n).Op(kw.op).Lit(k)).Block(
				jen.Id("d").Dot("Problem").Call(jen.Lit(kw.msg+properties(k))),
			))
		}
	}
	return c, n
}

// propertiesCount is the value of minProperties or maxProperties, which
// must be a non-negative integer. jsonschema_extras publishes its values
// as strings: the message says where to write the keyword instead.
func (g *Planner) propertiesCount(v *jsontree.Node, at site, key string) (int, bool) {
	n, err := strconv.Atoi(v.Text)
	if v.Kind == jsonlex.Number && err == nil && n >= 0 {
		return n, true
	}
	if v.Kind == jsonlex.String {
		g.fail(at, "%s must be a non-negative integer, not the string %q (as jsonschema_extras publishes it); write it in the jsonschema tag, jsonschema:\"%s=%s\", which toolgen publishes as a number", key, v.Text, key, v.Text)
		return 0, false
	}
	g.fail(at, "%s must be a non-negative integer", key)
	return 0, false
}

// counting says whether the decoder counts members at all.
func (c mapCount) counting() bool { return len(c.checks) > 0 }

// guard is the statement that skips a member's value past the limit,
// before the member is decoded and stored; n counts the members, the
// current one included. nil when there is no maxProperties.
func (c mapCount) guard(n string) jen.Code {
	if c.limit < 0 {
		return jen.Null()
	}
	return jen.If(jen.Id(n).Op(">").Lit(c.limit)).Block(
		jen.Id("d").Dot("Skip").Call(),
		jen.Continue(),
	)
}

func properties(n int) string {
	if n == 1 {
		return "1 property"
	}
	return strconv.Itoa(n) + " properties"
}
