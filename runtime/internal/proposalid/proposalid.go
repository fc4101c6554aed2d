// Package proposalid is the format of the call service's proposal IDs,
// and the one check of an ID a client sends back (runtime/service,
// runtime/mcpserver's requestState, runtime/console): "prop_" and 128
// random bits in unpadded base32hex (26 of 0-9 and A-V). An ID of this
// form may be repeated in a message; any other text a client sent as an
// ID is not (it names no proposal).
package proposalid

import (
	"crypto/rand"
	"encoding/base32"
)

// Prefix starts every proposal ID.
const Prefix = "prop_"

// Len is the length of every proposal ID, in bytes.
const Len = len(Prefix) + 26

// encoding writes the random part.
var encoding = base32.HexEncoding.WithPadding(base32.NoPadding)

// New returns an unguessable proposal ID: 128 random bits.
func New() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand documents it)
	return Prefix + encoding.EncodeToString(b[:])
}

// Valid reports whether id has the form New gives: Prefix, then 26
// characters of base32hex (0-9, A-V).
func Valid[T string | []byte](id T) bool {
	if len(id) != Len || string(id[:len(Prefix)]) != Prefix {
		return false
	}
	for i := len(Prefix); i < Len; i++ {
		if c := id[i]; (c < '0' || c > '9') && (c < 'A' || c > 'V') {
			return false
		}
	}
	return true
}
