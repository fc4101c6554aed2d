package codecplan

import (
	"math"
	"math/big"

	"strconv"
	"unicode/utf8"

	"github.com/dave/jennifer/jen"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/patternprog"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/shape"
	"github.com/toolgen-go/toolgen/runtime/jsonlex"
	"github.com/toolgen-go/toolgen/runtime/jsontree"
)

// countChecks enforces minItems and maxItems on n.
func (g *Planner) countChecks(w view, n jen.Code, noun string, at site) []jen.Code {
	var out []jen.Code
	for _, kw := range []struct{ key, op, msg string }{{"minItems", "<", "must have at least "}, {"maxItems", ">", "must have at most "}} {
		for _, v := range w.all(kw.key) {
			k, ok := g.count(v, at, kw.key)
			if !ok {
				continue
			}
			out = append(out, jen.If(jen.Add(n).Op(kw.op).Lit(k)).Block(
				jen.Id("d").Dot("Problem").Call(jen.Lit(kw.msg+plural(k, noun))),
			))
		}
	}
	return out
}

func (g *Planner) count(v *jsontree.Node, at site, key string) (int, bool) {
	n, err := strconv.Atoi(v.Text)
	if v.Kind != jsonlex.Number || err != nil || n < 0 {
		g.fail(at, "%s must be a non-negative integer", key)
		return 0, false
	}
	return n, true
}

// uniqueCheck enforces uniqueItems for elements Go can compare as JSON
// compares them: strings, numbers and booleans.
func (g *Planner) uniqueCheck(s *shape.Shape, sl jen.Code, at site) []jen.Code {
	switch s.Elem.Kind {
	case shape.String, shape.Int, shape.Uint, shape.Float, shape.Bool:
	default:
		g.fail(at, "uniqueItems is only enforced on arrays of strings, numbers or booleans, not of %s", shape.TypeString(s.Elem.Type))
		return nil
	}
	return []jen.Code{jen.If(jen.Qual(ImplPkg, "HasDuplicates").Call(sl)).Block(
		jen.Id("d").Dot("Problem").Call(jen.Lit("items must be unique")),
	)}
}

// stringChecks enforces the string keywords on the variable x.
func (g *Planner) stringChecks(s *shape.Shape, w view, x string, at site) []jen.Code {
	var out []jen.Code
	problem := func(msg string) jen.Code { return jen.Id("d").Dot("Problem").Call(jen.Lit(msg)) }
	for _, m := range w.kw {
		switch m.Key {
		case "minLength", "maxLength":
			n, ok := g.count(m.Value, at, m.Key)
			if !ok {
				continue
			}
			// A string of b bytes holds between b/4 and b characters, so
			// most strings pass on their length alone, without counting.
			count := jen.Qual("unicode/utf8", "RuneCountInString").Call(jen.Id(x))
			var cond *jen.Statement
			var why jen.Code = jen.Null()
			msg := "must be at least " + plural(n, "character") + " long"
			switch {
			case m.Key == "maxLength":
				msg = "must be at most " + plural(n, "character") + " long"
				why = jen.Comment("A string holds no more characters than bytes: count them only past the limit in bytes.")
				cond = jen.Len(jen.Id(x)).Op(">").Lit(n).Op("&&").Add(count).Op(">").Lit(n)
			case n <= math.MaxInt/utf8.UTFMax:
				why = jen.Comment("A character is at most 4 bytes: count them only below 4 bytes a character.")
				cond = jen.Len(jen.Id(x)).Op("<").Lit(n * utf8.UTFMax).Op("&&").Add(count).Op("<").Lit(n)
			default:
				cond = count.Op("<").Lit(n)
			}
			out = append(out, why, jen.If(cond).Block(problem(msg)))
		case "pattern":
			if m.Value.Kind != jsonlex.String {
				g.fail(at, "pattern must be a string")
				continue
			}
			prog, err := patternprog.Compile(m.Value.Text)
			if err != nil {
				g.fail(at, "pattern %q does not compile as a Go regular expression: %v", m.Value.Text, err)
				continue
			}
			v := g.pattern(m.Value.Text, prog, at)
			out = append(out, jen.If(jen.Op("!").Id(v).Dot("MatchString").Call(jen.Id(x))).Block(problem("must match the pattern "+m.Value.Text)))
		case "format":
			if m.Value.Text == "date-time" {
				out = append(out, jen.If(jen.Op("!").Qual(ImplPkg, "IsDateTime").Call(jen.Id(x))).Block(problem("must be a date-time (RFC 3339)")))
			}
		}
	}
	return append(out, g.enumChecks(s, w, x, at)...)
}

// enumChecks enforces enum and const on the variable x.
func (g *Planner) enumChecks(s *shape.Shape, w view, x string, at site) []jen.Code {
	var out []jen.Code
	for _, m := range w.kw {
		var vals []*jsontree.Node
		switch m.Key {
		case "enum":
			if m.Value.Kind != jsonlex.Array || len(m.Value.Items) == 0 {
				g.fail(at, "enum must be a non-empty array")
				continue
			}
			vals = m.Value.Items
		case "const":
			vals = []*jsontree.Node{m.Value}
		default:
			continue
		}
		var lits []jen.Code
		for _, v := range vals {
			lit, ok := g.enumLit(s, v, at)
			if !ok {
				continue
			}
			lits = append(lits, lit)
		}
		msg := "must be one of " + enumList(m.Value)
		if m.Key == "const" {
			msg = "must be " + string(m.Value.Compact())
		}
		if len(lits) == 0 {
			continue
		}
		out = append(out, jen.Switch(jen.Id(x)).Block(
			jen.Case(lits...),
			jen.Default().Block(jen.Id("d").Dot("Problem").Call(jen.Lit(msg))),
		))
	}
	return out
}

// enumLit is the Go literal of an enum value for the shape, or a problem
// when the value can never match.
func (g *Planner) enumLit(s *shape.Shape, v *jsontree.Node, at site) (jen.Code, bool) {
	switch s.Kind {
	case shape.String, shape.TextMethod:
		if v.Kind == jsonlex.String {
			return jen.Lit(v.Text), true
		}
	case shape.Bool:
		if v.Kind == jsonlex.Bool {
			return jen.Lit(v.Bool), true
		}
	case shape.Int:
		if n, ok := intLit(v); ok {
			return jen.Op(strconv.FormatInt(n, 10)), true
		}
	case shape.Uint:
		if n, ok := intLit(v); ok && n >= 0 {
			return jen.Op(strconv.FormatInt(n, 10)), true
		}
	case shape.Float:
		if v.Kind == jsonlex.Number {
			return jen.Op(v.Text), true
		}
	}
	g.fail(at, "enum value %s can never match %s", string(v.Compact()), shape.TypeString(s.Type))
	return nil, false
}

func intLit(v *jsontree.Node) (int64, bool) {
	if v.Kind != jsonlex.Number {
		return 0, false
	}
	r, ok := new(big.Rat).SetString(v.Text)
	if !ok || !r.IsInt() || !r.Num().IsInt64() {
		return 0, false
	}
	return r.Num().Int64(), true
}

// numberChecks enforces the numeric keywords on x (int64, uint64 or
// float64 as the decoder returned it).
func (g *Planner) numberChecks(s *shape.Shape, w view, x string, at site) []jen.Code {
	var out []jen.Code
	problem := func(msg string) jen.Code { return jen.Id("d").Dot("Problem").Call(jen.Lit(msg)) }
	for _, m := range w.kw {
		var op, msg string
		switch m.Key {
		case "minimum":
			op, msg = "<", "must be at least "
		case "maximum":
			op, msg = ">", "must be at most "
		case "exclusiveMinimum":
			op, msg = "<=", "must be greater than "
		case "exclusiveMaximum":
			op, msg = ">=", "must be less than "
		case "multipleOf":
			f, err := strconv.ParseFloat(m.Value.Text, 64)
			if m.Value.Kind != jsonlex.Number || err != nil || f <= 0 {
				g.fail(at, "multipleOf must be a positive number")
				continue
			}
			if n, ok := intLit(m.Value); ok && s.Kind != shape.Float {
				out = append(out, jen.If(jen.Id(x).Op("%").Op(strconv.FormatInt(n, 10)).Op("!=").Lit(0)).Block(problem("must be a multiple of "+m.Value.Text)))
			} else {
				out = append(out, jen.If(jen.Op("!").Qual(ImplPkg, "MultipleOf").Call(jen.Float64().Parens(jen.Id(x)), jen.Op(m.Value.Text))).Block(problem("must be a multiple of "+m.Value.Text)))
			}
			continue
		default:
			continue
		}
		if m.Value.Kind != jsonlex.Number {
			g.fail(at, "%s must be a number", m.Key)
			continue
		}
		msg += m.Value.Text
		cond := g.compare(s, x, op, m.Value)
		out = append(out, jen.If(cond).Block(problem(msg)))
	}
	return append(out, g.enumChecks(s, w, x, at)...)
}

// compare builds "x op bound" exactly: integer comparison when the bound is
// an integer the value's type can hold, float comparison otherwise. Rounding
// to a float never reverses an order, so the floats decide unless they are
// equal; then the number as written does (codec's CompareNumber), as for
// 2.0000000000000001 against a maximum of 2.
func (g *Planner) compare(s *shape.Shape, x, op string, bound *jsontree.Node) jen.Code {
	if n, ok := intLit(bound); ok {
		switch {
		case s.Kind == shape.Int, s.Kind == shape.Uint && n >= 0:
			return jen.Id(x).Op(op).Op(strconv.FormatInt(n, 10))
		}
	}
	bits, b := 64, jen.Op(bound.Text)
	if s.Kind == shape.Float && s.Bits == 32 {
		// x holds a float32: compare it with the bound rounded the same way.
		bits = 32
		f32, _ := strconv.ParseFloat(bound.Text, 32)
		if f64, _ := strconv.ParseFloat(bound.Text, 64); f32 != f64 {
			b = jen.Float64().Call(jen.Float32().Call(b))
		}
	}
	if f, _ := strconv.ParseFloat(bound.Text, bits); math.IsInf(f, 0) {
		// Past the largest float, which Float refuses: any number read is
		// below +Inf and above -Inf.
		return jen.Lit(f > 0 == (op[0] == '<'))
	}
	v := jen.Id(x)
	if s.Kind != shape.Float {
		v = jen.Float64().Parens(jen.Id(x))
	}
	return v.Clone().Op(op[:1] + "=").Add(b).Op("&&").Parens(v.Clone().Op(op[:1]).Add(b).Op("||").
		Id("d").Dot("CompareNumber").Call(jen.Lit(bound.Text)).Op(op).Lit(0))
}
