package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"

	"github.com/toolgen-go/toolgen/runtime/service"
)

// Limiter is a durable service.Limiter: a token bucket per principal, of
// rate r per second with bursts of up to burst calls, kept in the store's
// toolgen_rate_buckets table. A call takes a token in one statement (an
// upsert whose update applies only when a whole token is there), so the
// limit survives restarts and holds across every instance sharing the
// database. The buckets refill by the instances' clocks; a bucket's time
// never goes back, so an instance whose clock is behind the others' gains
// no tokens. It is safe for concurrent use.
type Limiter struct {
	s     *Store
	name  string
	r     float64
	burst int
}

var _ service.Limiter = (*Limiter)(nil)

// NewLimiter returns a Limiter that allows each principal r calls per
// second in bursts of up to burst, in the buckets named name: limiters of
// different names (say one per kind of caller) count apart, and instances
// that share the database and a name share the buckets. A burst below 1
// allows nothing; an infinite rate allows everything.
func (s *Store) NewLimiter(name string, r float64, burst int) *Limiter {
	return &Limiter{s: s, name: name, r: r, burst: burst}
}

// takeQuery takes a token from a principal's bucket, creating it full
// (less the token) when it is new. The update's WHERE leaves a bucket
// without a whole token as it is, and then RETURNING gives no row.
// Parameters: name, principal, the new bucket's tokens, now; then burst,
// now, rate per nanosecond, now (the update), burst, now, rate (its
// WHERE).
func takeQuery(d *Dialect) string {
	level := d.least + `(CAST(? AS DOUBLE PRECISION), toolgen_rate_buckets.tokens + ` +
		d.greatest + `(0, CAST(? AS BIGINT) - toolgen_rate_buckets.updated_ns) * CAST(? AS DOUBLE PRECISION))`
	return `INSERT INTO toolgen_rate_buckets (name, principal, tokens, updated_ns)
VALUES (?, ?, CAST(? AS DOUBLE PRECISION), CAST(? AS BIGINT))
ON CONFLICT (name, principal) DO UPDATE SET tokens = ` + level + ` - 1,
	updated_ns = ` + d.greatest + `(toolgen_rate_buckets.updated_ns, CAST(? AS BIGINT))
WHERE ` + level + ` >= 1
RETURNING tokens`
}

// purgeBucketsQuery deletes the buckets of a limiter that are full again:
// a full bucket is what a new one is. Parameters: name, now, rate per
// nanosecond, burst.
func purgeBucketsQuery(d *Dialect) string {
	return `DELETE FROM toolgen_rate_buckets WHERE name = ? AND tokens + ` +
		d.greatest + `(0, CAST(? AS BIGINT) - updated_ns) * CAST(? AS DOUBLE PRECISION) >= CAST(? AS DOUBLE PRECISION)`
}

// Allow implements service.Limiter: it takes a token from the principal's
// bucket. An error (the database unavailable) refuses the call.
func (l *Limiter) Allow(ctx context.Context, principal string) (bool, error) {
	switch {
	case math.IsInf(l.r, 1):
		return true, nil
	case l.burst < 1:
		return false, nil
	}
	if err := l.s.check(); err != nil {
		return false, fmt.Errorf("sqlstore: rate limit: %w", err)
	}
	now := nanos(l.s.now())
	perNS := l.r / 1e9
	var tokens float64
	err := l.s.db.QueryRowContext(ctx, l.s.q.take, text(l.name), text(principal), float64(l.burst-1), now,
		float64(l.burst), now, perNS, now, float64(l.burst), now, perNS).Scan(&tokens)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("sqlstore: rate limit: %w", err)
	}
	return true, nil
}

// Purge deletes the limiter's buckets that have refilled (a full bucket
// is what a new one is, so nothing changes for their principals) and
// returns how many it deleted: the table keeps one row per principal that
// called recently.
func (l *Limiter) Purge(ctx context.Context) (int, error) {
	if err := l.s.check(); err != nil {
		return 0, fmt.Errorf("sqlstore: purge rate buckets: %w", err)
	}
	res, err := l.s.db.ExecContext(ctx, l.s.q.purgeBuckets, text(l.name), nanos(l.s.now()), l.r/1e9, float64(l.burst))
	if err != nil {
		return 0, fmt.Errorf("sqlstore: purge rate buckets: %w", err)
	}
	n, err := res.RowsAffected()
	return int(n), err
}
