package want_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gen/testdata/cases/wide"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gen/testdata/cases/wide/want"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/gen/testdata/cases/wide/want/widetools"
)

// These tests run the golden output of the wide case: toolgen's
// internal/gen tests run them with `go test` on this directory.

// args returns the arguments f00 to f69 set to their own names, but for
// the properties in skip, followed by the members in extra.
func args(skip map[int]bool, extra ...string) []byte {
	var members []string
	for i := range 70 {
		if !skip[i] {
			members = append(members, fmt.Sprintf(`"f%02d":"v%02d"`, i, i))
		}
	}
	return []byte("{" + strings.Join(append(members, extra...), ",") + "}")
}

// TestWide: a decoder of seventy properties reads each into its field,
// refuses a second one past the 64th and reports a required one missing
// on either side of it.
func TestWide(t *testing.T) {
	reg, err := want.New([]want.Tools{widetools.Tools{Wide: wide.Wide{}}})
	require.NoError(t, err)
	ctx := context.Background()

	res, err := reg.Call(ctx, "wide", args(nil))
	require.NoError(t, err, res.Text())
	assert.Contains(t, res.Text(), "v00,v64,v69")

	res, err = reg.Call(ctx, "wide", []byte(`{"f69":"z","f00":"a","f64":"m"}`))
	require.NoError(t, err, res.Text())
	assert.Contains(t, res.Text(), "a,m,z", "members in any order")

	for _, c := range []struct {
		name     string
		args     []byte
		problems []string
	}{
		{"duplicate past 64", args(nil, `"f66":"again"`), []string{"/f66: duplicate property"}},
		{"duplicate below 64", args(nil, `"f03":"again"`), []string{"/f03: duplicate property"}},
		{"missing last", args(map[int]bool{69: true}), []string{"/f69: required property is missing"}},
		{"missing both", args(map[int]bool{0: true, 69: true}), []string{"/f00: required property is missing", "/f69: required property is missing"}},
		{"unknown", args(nil, `"f70":""`), []string{"/f70"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := reg.Check(ctx, "wide", c.args)
			require.Error(t, err)
			for _, p := range c.problems {
				assert.Contains(t, err.Error(), p)
			}
		})
	}
}
