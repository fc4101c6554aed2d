package codec

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTimeFormat checks that Time accepts exactly the date-times that both
// the JSON Schema format and Go's parser accept.
func TestTimeFormat(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in string
		ok bool
	}{
		{"2026-01-02T03:04:05Z", true},
		{"2026-01-02T03:04:05.123456789+05:30", true},
		{`2026\u002d01-02T03:04:05Z`, true}, // escapes are decoded first
		{"0000-01-01T0:00:00+00:00", false}, // one-digit hour: Go accepts it, the format does not
		{"2026-01-02T3:04:05Z", false},
		{"2026-01-02T03:04:05,5Z", false}, // comma fraction: likewise
		{"2026-01-02t03:04:05z", true},    // lower case: RFC 3339 allows it, read as upper case
		{"2026-01-02t03:04:05+01:00", true},
		{"2026-01-02T03:04:05.5z", true},
		{"2025-01-01t00:00:00z", true},
		{"2016-12-31T23:59:60Z", false}, // leap second: the format accepts it, a time.Time cannot hold it
		{"2016-12-31t23:59:60z", false}, // likewise, in lower case
		{"2026-01-02x03:04:05z", false},
		{"2026-02-30T00:00:00Z", false},
		{"2026-01-02 03:04:05Z", false},
		{"2026-01-02T03:04:05+0530", false},
		{"", false},
	} {
		d := NewDecoder()
		d.Reset([]byte(`"`+tc.in+`"`), Limits{})
		got, ok := d.Time("string (format date-time)")
		d.End()
		assert.Equal(t, tc.ok, ok, "%q", tc.in)
		assert.Equal(t, tc.ok, d.Err() == nil, "%q: %v", tc.in, d.Err())
		if tc.ok {
			assert.False(t, got.IsZero(), "%q", tc.in)
		} else {
			assert.Equal(t, time.Time{}, got, "%q", tc.in)
			assert.Contains(t, d.Err().Error(), "got a string that is not an RFC 3339 date-time", "%q", tc.in)
		}
	}
}

// TestTimeLowerCase checks that a lower-case "t" or "z" reads as the same
// instant as upper case, without changing the input it reads.
func TestTimeLowerCase(t *testing.T) {
	t.Parallel()
	for _, in := range []string{"2025-01-01t00:00:00z", "2025-01-01T00:00:00z", "2025-01-01t00:00:00Z", "2025-01-01t01:00:00+01:00"} {
		data := []byte(`"` + in + `"`)
		d := NewDecoder()
		d.Reset(data, Limits{})
		got, ok := d.Time("string (format date-time)")
		d.End()
		require.True(t, ok, "%q: %v", in, d.Err())
		assert.True(t, got.Equal(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)), "%q: %v", in, got)
		assert.Equal(t, `"`+in+`"`, string(data), "the input is unchanged")
	}
}
