package console

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"log/slog"
	"net/http"
	"net/netip"
	"strings"
	"time"

	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// Defaults of the sessions of the console's sign-in form.
const (
	// DefaultSessionTTL is how long a session lasts when
	// Options.SessionTTL is zero.
	DefaultSessionTTL = 12 * time.Hour
	// DefaultSessionIdle ends a session unused for that long when
	// Options.SessionIdle is zero.
	DefaultSessionIdle = time.Hour
)

// sessionSecretLen is the size of a session's secret: 256 random bits.
const sessionSecretLen = 32

// A session's cookie holds its secret, base64url: 32 random bytes. The
// store keeps the secret's SHA-256 and the principal the session was made
// for (service.Session), with a digest of both under Options.Key, so that
// every instance sharing the store (and the key) knows the session, a
// sign-out on one ends it on all, nothing the store holds signs anyone
// in, and a session changed or made in the store is refused.

// startSession starts a session for who and sets its cookie on w.
func (c *Console) startSession(w http.ResponseWriter, r *http.Request, who tool.Principal) error {
	secret := make([]byte, sessionSecretLen)
	if _, err := rand.Read(secret); err != nil {
		return err
	}
	hash := sha256.Sum256(secret)
	now := c.now()
	s := &service.Session{Hash: hash[:], Principal: who, Created: now, Expires: now.Add(c.sessionTTL), Seen: now}
	s.Digest = hex.EncodeToString(c.sessionMAC(s))
	if err := c.sessions.StartSession(r.Context(), s); err != nil {
		return err
	}
	http.SetCookie(w, &http.Cookie{
		Name: SessionCookie, Value: base64.RawURLEncoding.EncodeToString(secret), Path: base(r),
		MaxAge: int(c.sessionTTL / time.Second), HttpOnly: true, Secure: c.secure(r), SameSite: http.SameSiteStrictMode,
	})
	return nil
}

// sessionLabel starts what a session's digest is made of.
const sessionLabel = "toolgen console session\x00"

// sessionMAC is the MAC under Options.Key of what s binds: its hash, its
// principal and permissions (each length-prefixed), Created and Expires.
func (c *Console) sessionMAC(s *service.Session) []byte {
	b := append([]byte(sessionLabel), s.Hash...)
	b = binary.AppendUvarint(b, uint64(len(s.Principal.ID)))
	b = append(b, s.Principal.ID...)
	b = binary.AppendUvarint(b, uint64(len(s.Principal.Permissions)))
	for _, p := range s.Principal.Permissions {
		b = binary.AppendUvarint(b, uint64(len(p)))
		b = append(b, p...)
	}
	b = binary.BigEndian.AppendUint64(b, uint64(s.Created.UnixNano()))
	b = binary.BigEndian.AppendUint64(b, uint64(s.Expires.UnixNano()))
	m := hmac.New(sha256.New, c.key)
	m.Write(b)
	return m.Sum(nil)
}

// sessionHash returns the hash of the session secret r's cookie holds,
// if it holds one of the right form.
func sessionHash(r *http.Request) ([]byte, bool) {
	ck, err := r.Cookie(SessionCookie)
	if err != nil {
		return nil, false
	}
	secret, err := base64.RawURLEncoding.DecodeString(ck.Value)
	if err != nil || len(secret) != sessionSecretLen {
		return nil, false
	}
	hash := sha256.Sum256(secret)
	return hash[:], true
}

// sessionPrincipal returns the principal of r's session: the one it was
// made for, when the session exists (not ended), has not expired, and
// was used within the idle timeout. A store that fails signs no one in.
func (c *Console) sessionPrincipal(r *http.Request) (tool.Principal, bool) {
	hash, ok := sessionHash(r)
	if !ok {
		return tool.Principal{}, false
	}
	ctx := r.Context()
	s, err := c.sessions.Session(ctx, hash)
	if err != nil {
		if !errors.Is(err, service.ErrNoSession) {
			c.log.LogAttrs(ctx, slog.LevelError, "console: read a session", slog.String("error", err.Error()))
		}
		return tool.Principal{}, false
	}
	if d, err := hex.DecodeString(s.Digest); err != nil || !hmac.Equal(d, c.sessionMAC(s)) {
		c.log.LogAttrs(ctx, slog.LevelWarn, "console: a session's digest does not match: changed in the store, or made without the key")
		return tool.Principal{}, false
	}
	now := c.now()
	if !now.Before(s.Expires) || !now.Before(s.Seen.Add(c.sessionIdle)) || s.Principal.ID == "" {
		// Over: delete it now rather than at the next Purge.
		if err := c.sessions.EndSession(ctx, hash); err != nil {
			c.log.LogAttrs(ctx, slog.LevelError, "console: end a session", slog.String("error", err.Error()))
		}
		return tool.Principal{}, false
	}
	if now.Sub(s.Seen) >= c.seeEvery {
		c.see(ctx, hash, now)
	}
	return s.Principal, true
}

// see moves a session's Seen to now; a failure is logged, and costs the
// session at most the time since it was last seen.
func (c *Console) see(ctx context.Context, hash []byte, now time.Time) {
	if err := c.sessions.SeeSession(ctx, hash, now); err != nil {
		c.log.LogAttrs(ctx, slog.LevelError, "console: see a session", slog.String("error", err.Error()))
	}
}

// secure reports whether the console's cookies for r are Secure: always
// with Options.SecureCookies; else when r came over TLS, to the console
// itself, or to a proxy of Options.TrustedProxies that says so with
// X-Forwarded-Proto: https (the value the nearest proxy appended, when
// several did). The header of any other peer is ignored.
func (c *Console) secure(r *http.Request) bool {
	if c.secureCookies || r.TLS != nil {
		return true
	}
	if len(c.proxies) == 0 {
		return false
	}
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		return false
	}
	peer, trusted := ap.Addr().Unmap(), false
	for _, p := range c.proxies {
		if p.Contains(peer) {
			trusted = true
			break
		}
	}
	vals := r.Header.Values("X-Forwarded-Proto")
	if !trusted || len(vals) == 0 {
		return false
	}
	last := vals[len(vals)-1]
	if i := strings.LastIndexByte(last, ','); i >= 0 {
		last = last[i+1:]
	}
	return strings.EqualFold(strings.TrimSpace(last), "https")
}
