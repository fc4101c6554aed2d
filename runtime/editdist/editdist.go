// Package editdist measures how far apart two names are, for the "did you
// mean" suggestions of toolgen (unknown directives) and of the runtime
// (unknown tools). It is public only because both floors use it (Go's
// internal rule would hide runtime/internal from toolgen's generator): it
// is meant for toolgen and the code it generates, not as an API of its own.
//
//	editdist.Distance("readnoly", "readonly") // 1: two adjacent bytes swapped
package editdist

// Distance returns the optimal string alignment distance between a and
// b in bytes: insertions, deletions, substitutions and transpositions of
// adjacent bytes each cost one.
func Distance(a, b string) int {
	if len(a) == 0 {
		return len(b)
	}
	if len(b) == 0 {
		return len(a)
	}
	rows := make([]int, 3*(len(b)+1))
	prev2, prev, cur := rows[:len(b)+1], rows[len(b)+1:2*(len(b)+1)], rows[2*(len(b)+1):]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
