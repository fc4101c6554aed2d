package jsontree_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/jsontree"
)

// FuzzParse checks Parse against encoding/json: whatever Parse accepts is
// valid JSON with the same value, and Compact and Indent give bytes that
// parse back to the same tree.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		`{"type":"object","properties":{"a":{"type":"string","minLength":1}},"additionalProperties":false}`,
		`[1,-2.5e+3,"\u00e9\ud83d\ude00",true,false,null,{},[]]`,
		`{"a":1,"a":2}`, `"\ud800"`, "\"\xff\"", `01`, `{"k":"\u003c\u2028"}`, ` [ ] `,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		n, err := jsontree.Parse(data)
		if err != nil {
			var se *jsontree.SyntaxError
			require.ErrorAs(t, err, &se)
			assert.True(t, se.Offset >= 0 && se.Offset <= len(data), "offset %d in %d bytes", se.Offset, len(data))
			return
		}
		require.True(t, json.Valid(data), "Parse accepted invalid JSON %q", data)
		compact := n.Compact()
		assert.Equal(t, decode(t, data), decode(t, compact), "same value")

		again, err := jsontree.Parse(compact)
		require.NoError(t, err)
		assert.Equal(t, string(compact), string(again.Compact()), "Compact is stable")
		indented, err := jsontree.Parse(n.Indent("", "\t"))
		require.NoError(t, err)
		assert.Equal(t, string(compact), string(indented.Compact()), "Indent parses back")
	})
}

// decode reads data as encoding/json does, numbers kept as literals (a
// literal such as 1E700 is valid JSON but no float64).
func decode(t *testing.T, data []byte) any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	require.NoError(t, d.Decode(&v))
	return v
}
