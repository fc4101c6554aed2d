package pgstore_test

import (
	"context"
	"database/sql"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/internal/pgtest"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// TestRestartCostsNoCall: the server restarts between calls (a restart or
// a failover), or every backend of the store's connections is killed
// between calls: the next calls all run, none is refused because the pool
// handed out a connection that died with the old backend.
func TestRestartCostsNoCall(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv, err := pgtest.StartLocal(ctx)
	if err != nil {
		pgtest.Fail(t, err)
	}
	t.Cleanup(srv.Remove)
	dsn, app := withApp(t, srv.NewSchema(t))
	st := open(t, dsn)
	g := newGated(t)
	close(g.release)
	svc, err := service.New(g.reg, &service.Options{Store: st, AwaitRunning: -1})
	require.NoError(t, err)
	n := 0
	calls := func(what string) {
		t.Helper()
		for range 12 {
			n++
			id := "toolu_" + strconv.Itoa(n)
			ctx := tool.WithInvocation(ctx, &tool.Invocation{Principal: tool.Principal{ID: "alice"}, Conversation: "c1", CallID: id})
			res, err := svc.Call(ctx, "act", nil)
			if assert.NoError(t, err, "%s: call %s", what, id) {
				assert.Equal(t, "act done", res.Text())
			}
			select {
			case <-g.running: // it ran
			default:
			}
		}
	}
	calls("before")
	require.NoError(t, srv.Stop())
	require.NoError(t, srv.Restart(ctx))
	calls("after a restart")
	for i := range 3 {
		killConnections(t, srv.DSN, app)
		gone(t, srv.DSN, app)
		calls("after every backend was killed, " + strconv.Itoa(i+1))
	}
	recs, err := st.Records(ctx, service.Query{Limit: 1000})
	require.NoError(t, err)
	assert.Len(t, recs, n, "every call recorded once")
	assert.EqualValues(t, n, g.runs.Load(), "every call ran once")
}

// gone waits until the server's connections named app have ended.
func gone(t *testing.T, admin, app string) {
	t.Helper()
	db, err := sql.Open("pgx", admin)
	require.NoError(t, err)
	defer db.Close()
	require.Eventually(t, func() bool {
		var n int
		return db.QueryRow(`SELECT count(*) FROM pg_stat_activity WHERE application_name = $1`, app).Scan(&n) == nil && n == 0
	}, 10*time.Second, 10*time.Millisecond, "the killed backends end")
}
