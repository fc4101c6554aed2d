package mcpclient

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/toolgen-go/toolgen/runtime/dynamic"
)

// MaxName is the longest full tool name, GROUP_LOCAL, that every provider
// accepts: the strictest rule, ^[a-zA-Z0-9_-]{1,64}$.
const MaxName = 64

// MaxGroup is the longest Group a Toolkit accepts, so that a remote
// name keeps at least MaxName-MaxGroup-1 characters of its own.
const MaxGroup = 32

// hashLen is how many hex digits of the SHA-256 of a remote name a mapped
// name ends with.
const hashLen = 8

// LocalName maps the name a remote MCP server gives a tool (up to 128
// characters of any kind, such as "files.read") to a local name for group:
// one such that group+"_"+local matches ^[a-zA-Z0-9_-]{1,64}$. A name that
// already fits is kept as it is. Any other is written with every character
// outside [a-zA-Z0-9_-] replaced by '_', cut to fit, and followed by '_'
// and the first 8 hex digits of the SHA-256 of the remote name, so that
// names that merely look alike ("a.b" and "a_b", or two long names with
// one prefix) map to distinct local names. The mapping is deterministic
// and depends on nothing but group's length and the remote name.
func LocalName(group, remote string) string {
	room := MaxName - len(group) - 1
	if room >= len(remote) && conforms(remote) {
		return remote
	}
	var b strings.Builder
	b.Grow(room)
	keep := room - 1 - hashLen
	for _, r := range remote {
		if b.Len() == keep {
			break
		}
		if r < 0x80 && allowed(byte(r)) {
			b.WriteByte(byte(r))
		} else {
			b.WriteByte('_')
		}
	}
	sum := sha256.Sum256([]byte(remote))
	b.WriteByte('_')
	b.WriteString(hex.EncodeToString(sum[:hashLen/2]))
	return b.String()
}

// conforms reports whether s is not empty and only holds [a-zA-Z0-9_-].
func conforms(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !allowed(s[i]) {
			return false
		}
	}
	return true
}

// allowed reports whether c may appear in a tool name.
func allowed(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// validGroup reports whether g is a group a Toolkit accepts: a group a
// dynamic.Source accepts (lower-case letters, digits and hyphens, starting
// with a letter) of at most MaxGroup bytes.
func validGroup(g string) bool {
	return len(g) <= MaxGroup && dynamic.ValidGroup(g)
}
