package schema_test

import (
	"errors"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	gotypes "go/types"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/schema"
)

// checkSource type-checks one file of package p and returns the package
// and what its identifiers define.
func checkSource(t *testing.T, src string) (*gotypes.Package, *gotypes.Info) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", "package p\n\n"+src, 0)
	require.NoError(t, err)
	info := &gotypes.Info{Defs: map[*ast.Ident]gotypes.Object{}}
	conf := gotypes.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	pkg, err := conf.Check("example.com/p", fset, []*ast.File{f}, info)
	require.NoError(t, err)
	return pkg, info
}

// TestStaticFallsBack: each construct the static path does not reproduce
// is refused with a *schema.NotStaticError, so that the type goes through
// the bootstrap program (TestStaticParity, in package gen, shows that
// what it does derive is the program's schema).
func TestStaticFallsBack(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, src, reason string
	}{
		{"JSONSchema", "type T struct{}\nfunc (T) JSONSchema() *int { return nil }", "method JSONSchema"},
		{"JSONSchemaExtend on the pointer", "type T struct{}\nfunc (*T) JSONSchemaExtend(*int) {}", "method JSONSchemaExtend"},
		{"JSONSchemaAlias", "type T string\nfunc (T) JSONSchemaAlias() any { return 0 }", "method JSONSchemaAlias"},
		{"JSONSchemaProperty", "type T struct{ A string }\nfunc (T) JSONSchemaProperty(string) any { return nil }", "method JSONSchemaProperty"},
		{"GetFieldDocString", "type T struct{ A string }\nfunc (T) GetFieldDocString(string) string { return \"\" }", "method GetFieldDocString"},
		{"protobuf enum", "type T int32\nfunc (T) EnumDescriptor() ([]byte, []int) { return nil, nil }", "method EnumDescriptor"},
		{"hook of a field's type", "type T struct{ L []*L }\ntype L int\nfunc (L) JSONSchemaExtend(*int) {}", "method JSONSchemaExtend"},
		{"hook promoted from an embedded type", "type T struct{ E }\ntype E struct{}\nfunc (E) JSONSchema() *int { return nil }", "method JSONSchema"},
		{"hook of an embedded struct read for its fields", "type T struct{ *E }\ntype E struct{ A string }\nfunc (*E) GetFieldDocString(string) string { return \"\" }", "method GetFieldDocString"},
		{"generic instance", "type T struct{ G G[int] }\ntype G[X any] struct{ V X }", "a generic type"},
		{"channel", "type T struct{ C chan int }", "invopop does not support it"},
		{"function", "type T struct{ F func() }", "invopop does not support it"},
		{"complex", "type T struct{ C complex128 }", "invopop does not support it"},
		{"uintptr", "type T struct{ U uintptr }", "invopop does not support it"},
		{"embedding cycle", "type T struct{ *U }\ntype U struct{ *T }", "embeds itself"},
		{"type=array without items", "type T struct{ S string `jsonschema:\"type=array,format=x\"` }", "not a slice or an array"},
		{"type=array without items, items keyword", "type T struct{ S string `jsonschema:\"type=array,minimum=1\"` }", "not a slice or an array"},
		{"an extra repeats a keyword", "type T struct{ S string `jsonschema_extras:\"type=x\"` }", `repeats the keyword "type"`},
		{"a number json.Marshal refuses", "type T struct{ N int `jsonschema:\"minimum=+5\"` }", "not a JSON number"},
		{"a hex float", "type T struct{ N float64 `jsonschema:\"enum=0x1p-2\"` }", "not a JSON number"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			pkg, _ := checkSource(t, tt.src)
			s := &schema.Static{Allowed: func(*gotypes.Package) bool { return true }}
			_, err := s.StaticRaw(pkg.Scope().Lookup("T").Type())
			var ns *schema.NotStaticError
			require.True(t, errors.As(err, &ns), "want a *NotStaticError, got %v", err)
			assert.Contains(t, ns.Error(), tt.reason)
		})
	}
}

// TestStaticFallsBackOnPackages: a named type of a package Allowed
// refuses, or declared in a function, goes through the program; a type
// without either is derived.
func TestStaticFallsBackOnPackages(t *testing.T) {
	t.Parallel()
	pkg, info := checkSource(t, "import \"time\"\n\ntype T struct{ At time.Time }\n\ntype U struct{ N int }\n\nfunc f() any {\n\ttype L struct{}\n\treturn L{}\n}")
	onlyP := &schema.Static{Allowed: func(p *gotypes.Package) bool { return p.Path() == "example.com/p" }}
	var ns *schema.NotStaticError
	_, err := onlyP.StaticRaw(pkg.Scope().Lookup("T").Type())
	require.True(t, errors.As(err, &ns), "time.Time's package is not allowed: %v", err)
	assert.Contains(t, ns.Error(), "its package time may hold hooks")
	got, err := onlyP.Static(pkg.Scope().Lookup("U").Type())
	require.NoError(t, err)
	assert.JSONEq(t, `{"type":"object","properties":{"N":{"type":"integer"}},"additionalProperties":false,"required":["N"]}`, string(got))
	var local gotypes.Type
	for id, obj := range info.Defs {
		if id.Name == "L" {
			local = obj.Type()
		}
	}
	require.NotNil(t, local)
	_, err = onlyP.StaticRaw(local)
	require.True(t, errors.As(err, &ns), "a function's type: %v", err)
	assert.Contains(t, ns.Error(), "declared in a function")
	none := &schema.Static{}
	_, err = none.StaticRaw(pkg.Scope().Lookup("U").Type())
	assert.True(t, errors.As(err, &ns), "no Allowed: nothing is allowed")
}
