package codec

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
)

// A package-level Pattern, as generated code declares one: nothing is
// compiled until the first match.
var letters = Pattern{Expr: `^[a-z]+$`}

func TestPatternCompilesOnFirstUse(t *testing.T) {
	p := &Pattern{Expr: `^[a-z][a-z0-9-]*$`}
	assert.Nil(t, p.re, "compiled before its first use")
	assert.True(t, p.MatchString("abc-1"))
	assert.NotNil(t, p.re)
	re := p.re
	assert.False(t, p.MatchString("1abc"))
	assert.False(t, p.MatchString(""))
	assert.Same(t, re, p.re, "compiled twice")
}

func TestPatternConcurrentFirstUse(t *testing.T) {
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			assert.Equal(t, i%2 == 0, letters.MatchString([]string{"abc", "ab1"}[i%2]))
		})
	}
	wg.Wait()
}

func TestPatternInvalidPanics(t *testing.T) {
	t.Parallel()
	p := &Pattern{Expr: `(`}
	assert.Panics(t, func() { p.MatchString("x") })
}
