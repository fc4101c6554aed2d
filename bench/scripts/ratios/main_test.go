package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseAndWrite(t *testing.T) {
	t.Parallel()
	in := `goos: linux
BenchmarkCall/small/toolgen-2   	 100	       200.0 ns/op	  10 MB/s	      64 B/op	       2 allocs/op
BenchmarkCall/small/toolgen-2   	 100	       300.0 ns/op	  10 MB/s	      64 B/op	       2 allocs/op
BenchmarkCall/small/toolgen-2   	 100	       900.0 ns/op	  10 MB/s	      64 B/op	       2 allocs/op
BenchmarkCall/small/easyjson-2  	 100	       150.0 ns/op	  10 MB/s	      16 B/op	       1 allocs/op
BenchmarkCall/small/mcp-2       	 100	   1500000 ns/op	  10 MB/s	  490000 B/op	     356 allocs/op
BenchmarkDecode/small/toolgen-2 	 100	       100.0 ns/op	      16 B/op	       1 allocs/op
BenchmarkOther-2                	 100	       100.0 ns/op
PASS
`
	rows, err := parse(strings.NewReader(in))
	require.NoError(t, err)
	require.Len(t, rows, 4)
	assert.Equal(t, result{group: "Call", input: "small", path: "toolgen", ns: 300, bytes: 64, allocs: 2}, rows[0])
	var out bytes.Buffer
	require.NoError(t, write(&out, rows))
	assert.Contains(t, out.String(), "| toolgen | 300 ns | 64 | 2 | 1.00 |")
	assert.Contains(t, out.String(), "| easyjson | 150 ns | 16 | 1 | 0.50 |")
	assert.Contains(t, out.String(), "| mcp | 1.50 ms | 490000 | 356 | 5000.00 |")
	assert.Contains(t, out.String(), "Decode, small input")
}

func TestParseRefusesGarbage(t *testing.T) {
	t.Parallel()
	_, err := parse(strings.NewReader("BenchmarkCall/small/toolgen-2 100 fast ns/op\n"))
	assert.Error(t, err)
}

func TestMedian(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   []float64
		want float64
	}{{nil, 0}, {[]float64{3}, 3}, {[]float64{3, 1, 2}, 2}, {[]float64{4, 1, 3, 2}, 2.5}} {
		assert.Equal(t, tc.want, median(tc.in))
	}
}
