package notes

import (
	"cmp"
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// Limits on shares, which the store bounds like its notes: a model
// sharing in a loop fills MaxShares and is then told to wait, since
// expired shares are dropped before a new one is counted.
const (
	MaxShares        = 100                // unexpired shares per store
	MinShareTTL      = time.Hour          // the shortest a share lasts
	MaxShareTTL      = 7 * 24 * time.Hour // the longest a share lasts
	MinPassphraseLen = 8                  // runes
	MaxPassphraseLen = 200                // runes
)

// shareKDFIterations is the PBKDF2-HMAC-SHA256 iteration count the
// passphrase of a share is stretched with: the store keeps the derived
// key, never the passphrase. It is a sample's cost (about 25 ms a share);
// a service would follow current guidance (OWASP: 600,000).
const shareKDFIterations = 100_000

// ErrWrongPassphrase is in the chain of the error of OpenShare given a
// passphrase that is not the share's.
var ErrWrongPassphrase = errors.New("wrong passphrase")

// ShareLink is a share as [Store.Share] makes it: a link to one note that
// opens with a passphrase until it expires. It never holds the passphrase.
type ShareLink struct {
	Token   string    // random; the link carries it
	Note    NoteID    // the note shared
	Owner   string    // who shared it (a principal ID)
	Expires time.Time // when the link stops opening
}

// share is a ShareLink with what checks its passphrase.
type share struct {
	ShareLink
	salt, key []byte // PBKDF2 of the passphrase
}

// Share makes a link to the note with the given ID that opens with
// passphrase for ttl (from MinShareTTL to MaxShareTTL), on behalf of
// owner. It fails with an error wrapping ErrNotFound, or a
// *ValidationError: a passphrase of the wrong length (it is never quoted),
// a ttl out of range, an empty owner, or MaxShares unexpired shares
// already.
func (s *Store) Share(id NoteID, owner, passphrase string, ttl time.Duration) (ShareLink, error) {
	switch n := utf8.RuneCountInString(passphrase); {
	case n < MinPassphraseLen || n > MaxPassphraseLen:
		return ShareLink{}, &ValidationError{Field: "passphrase", Problem: fmt.Sprintf("must have %d to %d characters", MinPassphraseLen, MaxPassphraseLen)}
	case ttl < MinShareTTL || ttl > MaxShareTTL:
		return ShareLink{}, &ValidationError{Field: "ttl", Problem: fmt.Sprintf("a share lasts from %d to %d hours", MinShareTTL/time.Hour, MaxShareTTL/time.Hour)}
	case owner == "":
		return ShareLink{}, &ValidationError{Field: "owner", Problem: "a share needs an owner: anonymous callers cannot share"}
	}
	// The key is derived outside the lock: it takes a while on purpose.
	sh := &share{ShareLink: ShareLink{Token: rand.Text(), Note: id, Owner: owner}, salt: make([]byte, 16)}
	rand.Read(sh.salt)
	key, err := pbkdf2.Key(sha256.New, passphrase, sh.salt, shareKDFIterations, sha256.Size)
	if err != nil {
		return ShareLink{}, fmt.Errorf("derive the key of a share: %w", err)
	}
	sh.key = key

	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.notes[id]; !ok {
		return ShareLink{}, notFound(id)
	}
	now := s.now()
	s.dropExpired(now)
	if len(s.shares) >= MaxShares {
		return ShareLink{}, &ValidationError{Field: "shares", Problem: fmt.Sprintf("the store holds at most %d unexpired shares; wait until some expire", MaxShares)}
	}
	sh.Expires = now.Add(ttl)
	s.shares[sh.Token] = sh
	return sh.ShareLink, nil
}

// OpenShare returns the note a share links to, given its token and
// passphrase. It fails with an error wrapping ErrNotFound when there is
// no such share (or it expired, or its note was deleted), or
// ErrWrongPassphrase.
func (s *Store) OpenShare(token, passphrase string) (Note, error) {
	s.mu.RLock()
	sh, ok := s.shares[token]
	s.mu.RUnlock()
	if !ok || !s.now().Before(sh.Expires) {
		return Note{}, fmt.Errorf("share: %w", ErrNotFound)
	}
	key, err := pbkdf2.Key(sha256.New, passphrase, sh.salt, shareKDFIterations, sha256.Size)
	if err != nil {
		return Note{}, fmt.Errorf("derive the key of a share: %w", err)
	}
	if subtle.ConstantTimeCompare(key, sh.key) != 1 {
		return Note{}, fmt.Errorf("share: %w", ErrWrongPassphrase)
	}
	return s.Get(sh.Note)
}

// Shares returns the unexpired shares, soonest to expire first (then by
// token).
func (s *Store) Shares() []ShareLink {
	s.mu.RLock()
	defer s.mu.RUnlock()
	now := s.now()
	var out []ShareLink
	for _, sh := range s.shares {
		if now.Before(sh.Expires) {
			out = append(out, sh.ShareLink)
		}
	}
	slices.SortFunc(out, func(a, b ShareLink) int {
		return cmp.Or(a.Expires.Compare(b.Expires), strings.Compare(a.Token, b.Token))
	})
	return out
}

// dropExpired forgets the shares that expired by now; s.mu is held.
func (s *Store) dropExpired(now time.Time) {
	maps.DeleteFunc(s.shares, func(_ string, sh *share) bool { return !now.Before(sh.Expires) })
}

// dropShares forgets the shares of the note id; s.mu is held.
func (s *Store) dropShares(id NoteID) {
	maps.DeleteFunc(s.shares, func(_ string, sh *share) bool { return sh.Note == id })
}
