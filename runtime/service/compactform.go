package service

import (
	"encoding/binary"
	"math/bits"

	"github.com/toolgen-go/toolgen/runtime/jsonlex"
)

// maxCompactDepth is how many containers compactForm follows nested, one
// bit each in a word: deeper arguments are left to the logWriter (whose
// own limit, maxLogDepth, is the same, counted from the value at the top).
const maxCompactDepth = 64

// compactForm reports whether args are their own logged form for a tool
// without secrets: JSON that the logWriter reads (its strings as
// jsonlex.ReadString reads them, its numbers as jsonlex.ScanNumber does),
// with no white space outside strings and no string longer than maxString
// bytes in its raw form (maxString <= 0 cuts nothing), nested no deeper
// than maxCompactDepth. It is the logWriter's verdict on such arguments
// in one loop that copies nothing; false says only that the logWriter
// must write the form.
func compactForm(args []byte, maxString int) bool {
	var (
		i     int
		open  uint64 // bit d set: the container at depth d is an object
		depth int    // the containers open
		ok    bool
	)
	n := len(args)
	for {
		// A value starts at args[i].
		if i >= n {
			return false
		}
		switch c := args[i]; c {
		case '{', '[':
			if depth == maxCompactDepth {
				return false
			}
			i++
			if i < n && args[i] == c+2 { // '}' follows '{' by 2, ']' '['
				i++
				break
			}
			if c == '[' {
				open &^= 1 << depth
				depth++
				continue
			}
			open |= 1 << depth
			depth++
			if i, ok = compactKey(args, i, maxString); !ok {
				return false
			}
			continue
		case '"':
			if i, ok = compactString(args, i, maxString); !ok {
				return false
			}
		default:
			if i, ok = compactScalar(args, i); !ok {
				return false
			}
		}
		// A value ends at args[i]: close the containers it ends, then go
		// on to the next member or element.
		for {
			if depth == 0 {
				return i == n
			}
			if i >= n {
				return false
			}
			object := open>>(depth-1)&1 != 0
			c := args[i]
			i++
			if c == ',' {
				if object {
					if i, ok = compactKey(args, i, maxString); !ok {
						return false
					}
				}
				break
			}
			if object && c != '}' || !object && c != ']' {
				return false
			}
			depth--
		}
	}
}

// compactKey reads a member's name and its colon at args[i] and returns
// the offset of its value, as compactForm reads them.
func compactKey(args []byte, i, maxString int) (int, bool) {
	if i >= len(args) || args[i] != '"' {
		return i, false
	}
	i, ok := compactString(args, i, maxString)
	if !ok || i >= len(args) || args[i] != ':' {
		return i, false
	}
	return i + 1, true
}

// compactString reads the string at args[i] (its quote) and returns the
// offset past it: false when it is not one jsonlex.ReadString reads, or
// when its raw form is longer than maxString (> 0) bytes.
func compactString(args []byte, i, maxString int) (int, bool) {
	start := i + 1
	j, found := start, false
	for ; j+8 <= len(args); j += 8 {
		if m := stops8(binary.LittleEndian.Uint64(args[j:])); m != 0 {
			j += bits.TrailingZeros64(m) >> 3
			found = true
			break
		}
	}
	for !found && j < len(args) {
		if found = stop(args[j]); !found {
			j++
		}
	}
	if !found {
		return j, false
	}
	if args[j] != '"' {
		// An escape, a control or UTF-8: the reader's verdict.
		var scratch []byte
		_, next, msg := jsonlex.ReadString(args, i, &scratch)
		if msg != "" {
			return next, false
		}
		j = next - 1
	}
	if maxString > 0 && j-start > maxString {
		return j, false
	}
	return j + 1, true
}

// compactScalar reads the literal or number at args[i] and returns the
// offset past it, as the logWriter reads them.
func compactScalar(args []byte, i int) (int, bool) {
	n := len(args)
	switch args[i] {
	case 't':
		return i + 4, n-i >= 4 && string(args[i:i+4]) == "true"
	case 'f':
		return i + 5, n-i >= 5 && string(args[i:i+5]) == "false"
	case 'n':
		return i + 4, n-i >= 4 && string(args[i:i+4]) == "null"
	}
	j := i
	for j < n && '0' <= args[j] && args[j] <= '9' {
		j++
	}
	if j > i && args[i] != '0' && (j == n || args[j] != '.' && args[j]|0x20 != 'e') {
		return j, true // an integer without a sign, the common number
	}
	next, _, msg := jsonlex.ScanNumber(args, i)
	return next, msg == ""
}

// stop reports whether c ends a run of plain ASCII in a JSON string: a
// quote, a backslash, a control or a byte that is not ASCII.
func stop(c byte) bool {
	return c == '"' || c == '\\' || c < 0x20 || c >= 0x80
}

// stops8 returns the eight bytes of v (little-endian) with the high bit
// set in each that stop would report, the first of them exactly (the
// word tricks' false positives come only after a true one).
func stops8(v uint64) uint64 {
	const lsb, msb = 0x0101010101010101, 0x8080808080808080
	quote, backslash := v^('"'*lsb), v^('\\'*lsb)
	return ((v-0x20*lsb)&^v | (quote-lsb)&^quote | (backslash-lsb)&^backslash | v) & msb
}
