package codec

// upperTZ returns the date-time b, which IsDateTime accepted, with its
// "T" separator and "Z" offset in upper case: RFC 3339 allows either case
// (section 5.6, note on "T" and "Z"), time.Time.UnmarshalText only the
// upper. b is copied when it changes: it may alias the input.
func upperTZ(b []byte) []byte {
	last := len(b) - 1
	if b[10] != 't' && b[last] != 'z' {
		return b
	}
	c := append([]byte(nil), b...)
	if c[10] == 't' {
		c[10] = 'T'
	}
	if c[last] == 'z' {
		c[last] = 'Z'
	}
	return c
}
