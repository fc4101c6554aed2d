package gen

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// render plans each unit as it prints it and drops the unit's plan, its
// decoders' and encoders' code, once printed: planCodecs plans none, and
// when render returns no tool's code is held. The files are those
// Generate writes.
func TestRenderDropsEachUnitsPlan(t *testing.T) {
	skipBuildsInShortMode(t)
	dir := cacheCase(t)
	opts := Options{Dir: dir, Patterns: []string{"./a", "./b"}, Output: "out", Package: "out"}
	want := generateUnits(t, opts)

	ctx := context.Background()
	l, errs := load(ctx, &opts, nil, false)
	require.Empty(t, errorMessages(errs))
	m, errs := modelAndSchemas(ctx, l, &opts, nil, nil)
	require.Empty(t, errorMessages(errs))
	l.release()
	plan, errs := planCodecs(l, m, &opts, nil)
	require.Empty(t, errorMessages(errs))
	require.Len(t, plan.groups, 2, "two units: a with dep, and b")
	for i, tc := range plan.tools {
		assert.NotEmpty(t, tc.unit, "tool %d's codec package", i)
		assert.Nil(t, tc.decode, "tool %d planned before render", i)
		assert.Nil(t, tc.encode, "tool %d planned before render", i)
	}

	files, errs := render(l, m, plan, &opts)
	require.Empty(t, errorMessages(errs))
	for i, tc := range plan.tools {
		assert.Nil(t, tc.decode, "tool %d's decoder held after render", i)
		assert.Nil(t, tc.encode, "tool %d's encoder held after render", i)
	}
	for i, g := range plan.groups {
		assert.Nil(t, g.planned, "unit %d's codec packages held after render", i)
	}
	got := map[string]string{}
	for _, f := range files {
		rel, err := filepath.Rel(filepath.Join(dir, "out"), f.Path)
		require.NoError(t, err)
		got[filepath.ToSlash(rel)] = string(f.Data)
	}
	assert.Equal(t, want, got)
}
