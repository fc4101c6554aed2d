package want_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gen/testdata/cases/unset"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gen/testdata/cases/unset/want"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gen/testdata/cases/unset/want/unsettools"
)

// These tests run the golden output of the unset case: toolgen's
// internal/gen tests run them with `go test` on this directory.

func ready() unsettools.Tools {
	return unsettools.Tools{
		UnsetGreet:  unset.Greet{Greeting: "hello"},
		UnsetFilter: unset.Filter{Keep: func(string) bool { return true }},
	}
}

// TestNewUnset: a value field left at its zero value is refused, naming
// the field and the tool, before anything runs.
func TestNewUnset(t *testing.T) {
	for _, c := range []struct {
		name  string
		unset func(*unsettools.Tools)
		field string
	}{
		{"comparable", func(ts *unsettools.Tools) { ts.UnsetGreet = unset.Greet{} }, "UnsetGreet of unsettools.Tools (tool unset_greet)"},
		{"field by field", func(ts *unsettools.Tools) { ts.UnsetFilter = unset.Filter{} }, "UnsetFilter of unsettools.Tools (tool unset_filter)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ts := ready()
			c.unset(&ts)
			_, err := want.New([]want.Tools{ts})
			require.Error(t, err)
			assert.Contains(t, err.Error(), "want.New: field "+c.field+" is unset: fill it with a ready unset.")
			assert.True(t, strings.HasSuffix(err.Error(), "or mark the type //tool:zerovalue if its zero value is ready"), err.Error())
		})
	}
}

// TestNewZeroOK: a struct without fields and a type marked
// //tool:zerovalue are ready at their zero value, and a tool set through
// any one field is not unset.
func TestNewZeroOK(t *testing.T) {
	ts := ready()
	ts.UnsetFilter = unset.Filter{Opts: struct{ Strict bool }{Strict: true}}
	reg, err := want.New([]want.Tools{ts})
	require.NoError(t, err)
	res, err := reg.Call(context.Background(), "unset_upper", []byte(`{"text":"x"}`))
	require.NoError(t, err)
	assert.Equal(t, "x", res.Text())
	_, err = reg.Call(context.Background(), "unset_echo", []byte(`{"text":"y"}`))
	require.NoError(t, err)
}
