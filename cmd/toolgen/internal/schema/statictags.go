package schema

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
)

// The static path's reading of a field's tags: what invopop v0.14's
// structKeywordsFromTags does to a property's schema, step for step.

// keywordsFromTags applies tag to p, the schema of property name of the
// struct schema parent (which oneof_required and anyof_required extend).
// It fails where invopop would panic or json.Marshal would fail.
func (p *node) keywordsFromTags(tag reflect.StructTag, parent *node, name string) error {
	p.description = tag.Get("jsonschema_description")
	tags := p.genericKeywords(splitTag(tag.Get("jsonschema")), parent, name)
	switch p.typ {
	case "integer", "number", "boolean":
		if contains(strings.Split(tag.Get("json"), ",")[1:], "string") {
			p.typ = "string"
		}
	}
	switch p.typ {
	case "string":
		p.stringKeywords(tags)
	case "number", "integer":
		p.numericalKeywords(tags)
	case "array":
		if err := p.arrayKeywords(tags); err != nil {
			return err
		}
	case "boolean":
		p.booleanKeywords(tags)
	}
	for _, e := range splitTag(tag.Get("jsonschema_extras")) {
		if k, v, ok := strings.Cut(e, "="); ok {
			p.setExtra(k, v)
		}
	}
	return nil
}

// genericKeywords applies the keywords of every type and returns the
// other name=value entries.
func (p *node) genericKeywords(tags []string, parent *node, name string) []string {
	var rest []string
	for _, tag := range tags {
		key, val, ok := strings.Cut(tag, "=")
		if !ok {
			continue
		}
		switch key {
		case "title":
			p.title = val
		case "description":
			p.description = val
		case "type":
			p.typ = val
		case "anchor":
			p.anchor = val
		case "oneof_required":
			parent.oneOf = requiredGroup(parent.oneOf, val, name)
		case "anyof_required":
			parent.anyOf = requiredGroup(parent.anyOf, val, name)
		case "oneof_ref", "anyof_ref":
			sub := p
			if p.items != nil {
				sub = p.items
			}
			sub.ref = ""
			for _, r := range strings.Split(val, ";") {
				if key == "oneof_ref" {
					sub.oneOf = append(sub.oneOf, &node{ref: r})
				} else {
					sub.anyOf = append(sub.anyOf, &node{ref: r})
				}
			}
		case "oneof_type", "anyof_type":
			p.typ = ""
			for _, ty := range strings.Split(val, ";") {
				if key == "oneof_type" {
					p.oneOf = append(p.oneOf, &node{typ: ty})
				} else {
					p.anyOf = append(p.anyOf, &node{typ: ty})
				}
			}
		default:
			rest = append(rest, tag)
		}
	}
	return rest
}

// requiredGroup adds name to the required list of the group titled title
// in groups, made when missing.
func requiredGroup(groups []*node, title, name string) []*node {
	var found *node
	for _, g := range groups {
		if g.title == title {
			found = g
		}
	}
	if found == nil {
		found = &node{title: title}
		groups = append(groups, found)
	}
	found.required = append(found.required, name)
	return groups
}

func parseUint(s string) *uint64 {
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return nil
	}
	return &n
}

func (p *node) stringKeywords(tags []string) {
	for _, tag := range tags {
		key, val, ok := strings.Cut(tag, "=")
		if !ok {
			continue
		}
		switch key {
		case "minLength":
			p.minLength = parseUint(val)
		case "maxLength":
			p.maxLength = parseUint(val)
		case "pattern":
			p.pattern = val
		case "format":
			p.format = val
		case "readOnly":
			p.readOnly, _ = strconv.ParseBool(val)
		case "writeOnly":
			p.writeOnly, _ = strconv.ParseBool(val)
		case "default":
			p.def = val
		case "example":
			p.examples = append(p.examples, val)
		case "enum":
			p.enum = append(p.enum, val)
		}
	}
}

// toNumber is invopop's toJSONNumber: s when it parses as an int64 or a
// float64, else "".
func toNumber(s string) (string, bool) {
	if _, err := strconv.ParseInt(s, 10, 64); err == nil {
		return s, true
	}
	if _, err := strconv.ParseFloat(s, 64); err == nil {
		return s, true
	}
	return "", false
}

func (p *node) numericalKeywords(tags []string) {
	for _, tag := range tags {
		kv := strings.Split(tag, "=")
		if len(kv) != 2 {
			continue
		}
		key, val := kv[0], kv[1]
		num, ok := toNumber(val)
		switch key {
		case "multipleOf":
			p.multipleOf = num
		case "minimum":
			p.minimum = num
		case "maximum":
			p.maximum = num
		case "exclusiveMaximum":
			p.exclusiveMaximum = num
		case "exclusiveMinimum":
			p.exclusiveMinimum = num
		case "default":
			if ok {
				p.def = number(num)
			}
		case "example":
			if ok {
				p.examples = append(p.examples, number(num))
			}
		case "enum":
			if ok {
				p.enum = append(p.enum, number(num))
			}
		}
	}
}

func (p *node) booleanKeywords(tags []string) {
	for _, tag := range tags {
		kv := strings.Split(tag, "=")
		if len(kv) != 2 || kv[0] != "default" {
			continue
		}
		switch kv[1] {
		case "true":
			p.def = true
		case "false":
			p.def = false
		}
	}
}

// errNoItems: invopop dereferences the items of an array schema that has
// none (a non-array field tagged type=array) and panics.
var errNoItems = errors.New("type=array on a field that is not a slice or an array")

func (p *node) arrayKeywords(tags []string) error {
	var defaults []any
	var rest []string
	for _, tag := range tags {
		kv := strings.Split(tag, "=")
		if len(kv) != 2 {
			continue
		}
		key, val := kv[0], kv[1]
		switch key {
		case "minItems":
			p.minItems = parseUint(val)
		case "maxItems":
			p.maxItems = parseUint(val)
		case "uniqueItems":
			p.uniqueItems = true
		case "default":
			defaults = append(defaults, val)
		case "format", "pattern":
			if p.items == nil {
				return errNoItems
			}
			if key == "format" {
				p.items.format = val
			} else {
				p.items.pattern = val
			}
		default:
			rest = append(rest, tag)
		}
	}
	if len(defaults) > 0 {
		p.def = defaults
	}
	if len(rest) == 0 {
		return nil
	}
	if p.items == nil {
		return errNoItems
	}
	switch p.items.typ {
	case "string":
		p.items.stringKeywords(rest)
	case "number", "integer":
		p.items.numericalKeywords(rest)
	case "boolean":
		p.items.booleanKeywords(rest)
	}
	return nil
}

// setExtra is invopop's: a repeated key collects strings, or replaces an
// int or a bool; "minimum" is read as an int.
func (p *node) setExtra(key, val string) {
	if p.extras == nil {
		p.extras = map[string]any{}
	}
	if old, ok := p.extras[key]; ok {
		switch old := old.(type) {
		case string:
			p.extras[key] = []string{old, val}
		case []string:
			p.extras[key] = append(old, val)
		case int:
			p.extras[key], _ = strconv.Atoi(val)
		case bool:
			p.extras[key] = val == "true" || val == "t"
		}
		return
	}
	switch {
	case key == "minimum":
		p.extras[key], _ = strconv.Atoi(val)
	case val == "true":
		p.extras[key] = true
	case val == "false":
		p.extras[key] = false
	default:
		p.extras[key] = val
	}
}
