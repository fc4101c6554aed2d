package codec

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEncoderLimit: a write that would pass the limit makes the encoder
// too large, drops what was written, and later writes do nothing; Reset
// and ResetAppend start over under the same limit.
func TestEncoderLimit(t *testing.T) {
	t.Parallel()
	writes := map[string]func(e *Encoder){
		"String":      func(e *Encoder) { e.String(strings.Repeat("x", 20)) },
		"StringBytes": func(e *Encoder) { e.StringBytes([]byte(strings.Repeat("x", 20))) },
		"escaped":     func(e *Encoder) { e.String(strings.Repeat("\x01", 5)) }, // 5 bytes in, 30 out
		"Key":         func(e *Encoder) { e.Key(strings.Repeat("k", 20)) },
		"RawKey":      func(e *Encoder) { e.RawKey(`"` + strings.Repeat("k", 20) + `":`) },
		"RawMember":   func(e *Encoder) { e.RawMember(`,"` + strings.Repeat("k", 20) + `":`) },
		"RawText":     func(e *Encoder) { e.RawText(strings.Repeat("t", 20)) },
		"Base64":      func(e *Encoder) { e.Base64(make([]byte, 20)) },
		"JSON":        func(e *Encoder) { e.JSON([]byte(`["`+strings.Repeat("j", 20)+`"]`), nil) },
		"Text":        func(e *Encoder) { e.Text([]byte(strings.Repeat("x", 20)), nil) },
		"Any":         func(e *Encoder) { e.Any([]any{strings.Repeat("x", 20)}) },
		"Time":        func(e *Encoder) { e.Time(time.Date(2025, 1, 2, 3, 4, 5, 6, time.UTC)) },
		"Ints": func(e *Encoder) {
			for range 10 {
				e.Int(12345)
			}
		},
		"StringMember":  func(e *Encoder) { e.StringMember(`,"k":`, strings.Repeat("x", 20)) },
		"escapedMember": func(e *Encoder) { e.StringMember(`,"k":`, strings.Repeat("\x01", 5)) },
		"TimeMember":    func(e *Encoder) { e.TimeMember(`,"k":`, time.Date(2025, 1, 2, 3, 4, 5, 6, time.UTC)) },
		"FloatMember":   func(e *Encoder) { e.FloatMember(`,"k":`, 1.2345678901234567e-300, 64) },
		"members": func(e *Encoder) {
			for range 4 {
				e.IntMember(`,"i":`, 12345)
				e.UintMember(`,"u":`, 12345)
				e.BoolMember(`,"b":`, false)
			}
		},
	}
	for name, write := range writes {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e := NewEncoder()
			e.SetLimit(16)
			e.ArrayStart()
			write(e)
			e.ArrayEnd()
			assert.True(t, e.TooLarge())
			assert.Empty(t, e.Bytes())
			e.Null()
			e.RawText("more")
			assert.Empty(t, e.Bytes(), "writes after the limit do nothing")
			assert.Zero(t, e.Len())
			assert.True(t, e.TooLarge(), "sticky")
			e.SetLimit(32)
			assert.True(t, e.TooLarge(), "a new limit leaves the encoder too large until Reset")
			e.SetLimit(16)
			e.RawText("more")
			assert.Empty(t, e.Bytes())

			e.Reset()
			assert.False(t, e.TooLarge())
			e.String("ok")
			assert.Equal(t, `"ok"`, string(e.Bytes()))

			dst := []byte("kept:")
			e.ResetAppend(dst)
			e.RawText(strings.Repeat("a", 16)) // exactly the limit: the prefix does not count
			assert.False(t, e.TooLarge())
			e.RawText("b")
			assert.True(t, e.TooLarge())
			assert.Equal(t, "kept:", string(e.Bytes()), "a ResetAppend's buffer is kept")
		})
	}
}

// TestEncoderNoLimit: the zero Encoder and SetLimit(0) have no limit.
func TestEncoderNoLimit(t *testing.T) {
	t.Parallel()
	var e Encoder
	e.RawText(strings.Repeat("x", 1<<16))
	assert.False(t, e.TooLarge())
	assert.Equal(t, 1<<16, e.Len())
	e.SetLimit(10)
	e.RawText("y")
	assert.True(t, e.TooLarge())
	e.SetLimit(0)
	e.Reset()
	e.RawText(strings.Repeat("x", 100))
	assert.False(t, e.TooLarge())
}

// TestEncoderLimitKeepsErr: too large is not a failure (Err); a failure
// before the limit is kept.
func TestEncoderLimitKeepsErr(t *testing.T) {
	t.Parallel()
	e := NewEncoder()
	e.SetLimit(8)
	e.JSON(nil, errors.New("boom"))
	e.String(strings.Repeat("x", 10))
	assert.True(t, e.TooLarge())
	require.Error(t, e.Err())
}
