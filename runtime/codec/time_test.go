package codec

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
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
		{"2026-01-02t03:04:05z", false},   // lower case: the format accepts it, Go does not
		{"2016-12-31T23:59:60Z", false},   // leap second: likewise
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
