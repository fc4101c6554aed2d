package service

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"hash"
	"sync"
)

// MinKeyLen is the shortest Options.Key.
const MinKeyLen = 32

// keyring holds the keys of a service's digests: the current one,
// Options.Key or the one its store keeps (Store.Key), read once it is
// first needed, which makes every digest; and Options.OldKeys, which only
// verify (a proposal made before a rotation).
type keyring struct {
	mu  sync.Mutex
	key []byte
	old [][]byte
}

// get returns the key, reading the store's (storing a new random one when
// it keeps none) the first time. A failure is not remembered: the next
// call asks the store again.
func (k *keyring) get(ctx context.Context, st Store) ([]byte, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.key != nil {
		return k.key, nil
	}
	fresh := make([]byte, MinKeyLen)
	_, _ = rand.Read(fresh) // never fails (crypto/rand documents it)
	key, err := st.Key(ctx, fresh)
	if err != nil {
		return nil, err
	}
	if len(key) < MinKeyLen {
		return nil, errStoreKey
	}
	k.key = key
	return key, nil
}

// verifies reports whether p's digest is the one key, or one of the old
// keys, makes: the proposal is as it was made, by a service sharing the
// keys. It compares in constant time.
func (k *keyring) verifies(key []byte, p *Proposal) bool {
	if matches(key, p) {
		return true
	}
	for _, old := range k.old {
		if matches(old, p) {
			return true
		}
	}
	return false
}

// matches reports whether p's digest is the one key makes.
func matches(key []byte, p *Proposal) bool {
	return subtle.ConstantTimeCompare([]byte(digest(key, p)), []byte(p.Digest)) == 1
}

// errStoreKey is the failure of a store whose key is too short to be one
// this package made.
var errStoreKey = errors.New("the store's digest key is shorter than service.MinKeyLen bytes")

// newMAC returns an HMAC-SHA256 under key, begun with the domain that
// keeps one kind of digest from passing for another.
func newMAC(key []byte, domain string) hash.Hash {
	h := hmac.New(sha256.New, key)
	h.Write([]byte(domain))
	h.Write([]byte{0})
	return h
}

// writeField writes s to h, length-prefixed, so that no two sequences of
// fields write the same bytes.
func writeField(h hash.Hash, s string) {
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(s)))
	h.Write(n[:])
	h.Write([]byte(s))
}

// digest returns the digest that binds what a confirmation of p relies
// on: its ID, principal, conversation, turn, call ID, tool, summary,
// canonical arguments and expiry, under key. A proposal whose stored
// fields were changed (its arguments, its expiry extended) no longer
// matches it, and one cannot be made to match without the key.
func digest(key []byte, p *Proposal) string {
	h := newMAC(key, "toolgen proposal v2")
	for _, s := range []string{p.ID, p.Principal, p.Conversation, p.Turn, p.CallID, p.Tool, p.Summary} {
		writeField(h, s)
	}
	writeField(h, string(p.Args))
	var t [12]byte
	binary.BigEndian.PutUint64(t[:8], uint64(p.Expires.Unix()))
	binary.BigEndian.PutUint32(t[8:], uint32(p.Expires.Nanosecond()))
	h.Write(t[:])
	return hex.EncodeToString(h.Sum(nil))
}

// argsDigest returns the digest of a call of the named tool with args
// that a record of its call ID keeps (Record.ArgsDigest): keyed, so that
// the record does not let anyone check guesses of the arguments (a
// secret member's value among them). The arguments are taken in their
// canonical form (writeCanonical), so that a repeat that writes the same
// value otherwise is the same call; no arguments are "{}".
func argsDigest(key []byte, name string, args []byte) string {
	h := newMAC(key, "toolgen call v2")
	writeField(h, name)
	if len(args) == 0 {
		args = []byte("{}")
	}
	writeCanonical(h, args)
	return hex.EncodeToString(h.Sum(nil))
}

// writeCompact writes data to h without the JSON whitespace outside its
// strings, in runs.
func writeCompact(h hash.Hash, data []byte) {
	start, inString, escaped := 0, false, false
	for i, c := range data {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			h.Write(data[start:i])
			start = i + 1
		}
	}
	h.Write(data[start:])
}
