package service

import (
	"context"
	"sync"
	"sync/atomic"

	"golang.org/x/time/rate"

	"github.com/toolgen-go/toolgen/runtime/tool"
)

// Limiter limits how often a principal may call tools. Implementations
// are safe for concurrent use; a durable one may keep its state in the
// service's store.
type Limiter interface {
	// Allow reports whether the principal may make one call now. An error
	// refuses the call.
	Allow(ctx context.Context, principal string) (bool, error)
}

// RateLimiter is a Limiter in the process's memory: a token bucket per
// principal (golang.org/x/time/rate), of rate r per second with bursts of
// up to burst calls.
type RateLimiter struct {
	r     rate.Limit
	burst int
	mu    sync.Mutex
	m     map[string]*rate.Limiter
}

// maxIdleBuckets is how many principals' buckets a RateLimiter keeps
// before it forgets those that are full (a full bucket is a fresh one).
const maxIdleBuckets = 10000

// NewRateLimiter returns a RateLimiter allowing each principal r calls per
// second, in bursts of up to burst.
func NewRateLimiter(r float64, burst int) *RateLimiter {
	return &RateLimiter{r: rate.Limit(r), burst: burst, m: map[string]*rate.Limiter{}}
}

// Allow implements Limiter.
func (l *RateLimiter) Allow(_ context.Context, principal string) (bool, error) {
	l.mu.Lock()
	b := l.m[principal]
	if b == nil {
		if len(l.m) >= maxIdleBuckets {
			for k, v := range l.m {
				if v.Tokens() >= float64(l.burst) {
					delete(l.m, k)
				}
			}
		}
		b = rate.NewLimiter(l.r, l.burst)
		l.m[principal] = b
	}
	l.mu.Unlock()
	return b.Allow(), nil
}

// turnCount is the key of a turn's call counter in its TurnState.
type turnCount struct{}

// countTurn counts one call against the turn of ctx and reports whether
// it is within the cap (always, when the call carries no TurnState).
func (s *Service) countTurn(ctx context.Context) bool {
	if inv, ok := tool.InvocationFrom(ctx); s.maxTurn < 0 || !ok || inv.State == nil {
		return true
	}
	n, shared := tool.Shared(ctx, turnCount{}, func() *atomic.Int64 { return new(atomic.Int64) })
	if !shared {
		return true
	}
	return n.Add(1) <= int64(s.maxTurn)
}
