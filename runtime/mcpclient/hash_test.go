package mcpclient_test

import (
	"crypto/sha256"
	"encoding/hex"
)

// sha8 is the first 8 hex digits of the SHA-256 of s.
func sha8(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:4])
}
