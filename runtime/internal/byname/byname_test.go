package byname_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/toolgen-go/toolgen/runtime/internal/byname"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

func TestFind(t *testing.T) {
	t.Parallel()
	a, b, c := &tool.Spec{Name: "a_list"}, &tool.Spec{Name: "b_show"}, &tool.Spec{Name: "c_run"}
	sorted := []*tool.Spec{a, b, c}
	tests := []struct {
		name  string
		specs []*tool.Spec
		want  *tool.Spec
	}{
		{"a_list", sorted, a},
		{"b_show", sorted, b},
		{"c_run", sorted, c},
		{"b_sho", sorted, nil},
		{"", sorted, nil},
		{"z", sorted, nil},
		{"a_list", nil, nil},
	}
	for _, tt := range tests {
		got, ok := byname.Find(tt.specs, tt.name)
		assert.Same(t, tt.want, got, "%q", tt.name)
		assert.Equal(t, tt.want != nil, ok, "%q", tt.name)
	}
}

func TestFindAllocatesNothing(t *testing.T) {
	sorted := []*tool.Spec{{Name: "a"}, {Name: "b"}, {Name: "c"}}
	allocs := testing.AllocsPerRun(100, func() { _, _ = byname.Find(sorted, "b") })
	assert.Zero(t, allocs)
}
