package codec

// HasDuplicates reports whether s holds two equal elements: the check of
// uniqueItems for arrays of strings, numbers and booleans, where Go's ==
// is JSON equality. Small arrays are compared pairwise, larger ones through
// a set, so the check stays linear.
func HasDuplicates[T comparable](s []T) bool {
	if len(s) <= 16 {
		for i := range s {
			for j := i + 1; j < len(s); j++ {
				if s[i] == s[j] {
					return true
				}
			}
		}
		return false
	}
	seen := make(map[T]struct{}, len(s))
	for _, v := range s {
		if _, dup := seen[v]; dup {
			return true
		}
		seen[v] = struct{}{}
	}
	return false
}
