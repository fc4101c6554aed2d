package fresh_test

import (
	"context"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/fresh"
)

type inner struct {
	Words []string `json:"words,omitempty" jsonschema:"maxItems=3"`
}

type input struct {
	inner
	Query  string            `json:"query" jsonschema:"minLength=1"`
	Limit  *int              `json:"limit,omitempty"`
	Attrs  map[string]string `json:"attrs,omitempty"`
	When   time.Time         `json:"when"`
	hidden int
}

type output struct {
	Total int `json:"total"`
}

type searchTool struct{}

func (searchTool) Call(context.Context, input) (output, error) { return output{}, nil }

type pingTool struct{}

func (pingTool) Call(context.Context) (string, error) { return "pong", nil }

type tools struct {
	Search searchTool
	Ping   pingTool
}

const pkg = "github.com/toolgen-go/toolgen/runtime/fresh_test"

func TestDescribe(t *testing.T) {
	t.Parallel()
	assert.Nil(t, fresh.Describe(nil))
	assert.Equal(t, []string{
		"root " + pkg + ".input",
		"type " + pkg + ".inner struct",
		"field " + pkg + `.inner.Words []string "json:\"words,omitempty\" jsonschema:\"maxItems=3\""`,
		"type " + pkg + ".input struct",
		"embed " + pkg + ".input.inner " + pkg + `.inner ""`,
		"field " + pkg + `.input.Query string "json:\"query\" jsonschema:\"minLength=1\""`,
		"field " + pkg + `.input.Limit *int "json:\"limit,omitempty\""`,
		"field " + pkg + `.input.Attrs map[string]string "json:\"attrs,omitempty\""`,
		"field " + pkg + `.input.When time.Time "json:\"when\""`,
		"type time.Time struct methods=MarshalJSON,UnmarshalJSON,MarshalText,UnmarshalText",
	}, fresh.Describe(reflect.TypeFor[input]()))
}

// recorder is a testing.TB that keeps what Errorf reports.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func TestCheck(t *testing.T) {
	t.Parallel()
	in := fresh.Describe(reflect.TypeFor[input]())
	out := fresh.Describe(reflect.TypeFor[output]())
	check := func(want ...fresh.Tool) []string {
		r := &recorder{TB: t}
		fresh.Check(r, reflect.TypeFor[tools](), want)
		return r.errs
	}
	require.Empty(t, check(
		fresh.Tool{Field: "Search", Tool: "search", In: in, Out: out},
		fresh.Tool{Field: "Ping", Tool: "ping", Out: []string{"root string"}},
	), "the types as described")

	stale := append([]string(nil), in...)
	stale[5] = "field " + pkg + `.input.Query string "json:\"query\" jsonschema:\"minLength=2\""`
	stale = append(stale[:8], stale[9:]...) // When was not there
	errs := check(fresh.Tool{Field: "Search", Tool: "search", In: stale, Out: out})
	require.Len(t, errs, 1)
	assert.Equal(t, `tool search: its input type fresh_test.input changed since the registry was generated (field Query changed from string `+"`"+`json:"query" jsonschema:"minLength=2"`+"`"+` to string `+"`"+`json:"query" jsonschema:"minLength=1"`+"`"+`; field When added); run go generate`, errs[0])

	assert.Equal(t, []string{"tool gone: Tools has no field Gone; run go generate"}, check(fresh.Tool{Field: "Gone", Tool: "gone"}))
}
