package pgstore_test

import (
	"context"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/internal/pgtest"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/service/pgstore"
	"github.com/toolgen-go/toolgen/runtime/service/sqlstore"
	"github.com/toolgen-go/toolgen/runtime/service/storetest"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/runtime/toolimpl"
)

// pg is the package's PostgreSQL server, started when a test first needs
// it.
var pg pgtest.Lazy

// backend is PostgreSQL for storetest: a database is a schema of the
// package's server.
var backend = storetest.SQLBackend("postgres", newDB, func(ctx context.Context, dsn string) (*sqlstore.Store, error) {
	return pgstore.Open(ctx, dsn, nil)
})

func TestMain(m *testing.M) {
	storetest.Child(backend) // a child process of RunShared's plays its role and exits
	os.Exit(pgtest.Main(m, &pg))
}

// newDB returns the DSN of a new, empty database (a schema of its own).
func newDB(t *testing.T) string {
	t.Helper()
	return pg.Need(t).NewSchema(t)
}

// open opens a store on dsn, closed when t ends.
func open(t *testing.T, dsn string) *sqlstore.Store {
	t.Helper()
	st, err := pgstore.Open(context.Background(), dsn, nil)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, st.Close()) })
	return st
}

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) service.Store { return open(t, newDB(t)) })
}

func TestShared(t *testing.T) {
	storetest.RunShared(t, backend)
}

func TestMigrationsRecordedOnce(t *testing.T) {
	dsn := newDB(t)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			st, err := pgstore.Open(context.Background(), dsn, nil)
			if assert.NoError(t, err) {
				assert.NoError(t, st.Close())
			}
		})
	}
	wg.Wait()
	st := open(t, dsn)
	v, err := st.SchemaVersion(context.Background())
	require.NoError(t, err)
	assert.Equal(t, len(sqlstore.Postgres.Migrations()), v)
	var n int
	require.NoError(t, st.DB().QueryRow("SELECT COUNT(*) FROM toolgen_migrations").Scan(&n))
	assert.Equal(t, v, n, "each step once")

	// A schema newer than this package knows is refused.
	_, err = st.DB().Exec("INSERT INTO toolgen_migrations (version, name, applied_ns) VALUES ($1, 'from the future', 0)", v+1)
	require.NoError(t, err)
	_, err = pgstore.Open(context.Background(), dsn, nil)
	assert.ErrorIs(t, err, sqlstore.ErrSchemaTooNew)
}

// TestDatabaseUnavailable stops the server mid-test: every call that
// needs a row is refused (nothing runs), and the service recovers when
// the server is back.
func TestDatabaseUnavailable(t *testing.T) {
	ctx := context.Background()
	srv, err := pgtest.StartLocal(ctx) // a server of its own, to stop
	if err != nil {
		pgtest.Fail(t, err)
	}
	t.Cleanup(srv.Remove)
	st := open(t, srv.NewSchema(t))

	runs := map[string]*atomic.Int64{"act": {}, "echo": {}, "notes_delete": {}}
	total := func() (n int64) {
		for _, r := range runs {
			n += r.Load()
		}
		return n
	}
	reg := registry(t, runs)
	svc, err := service.New(reg, &service.Options{Store: st})
	require.NoError(t, err)
	limited, err := service.New(reg, &service.Options{Store: st, Limiter: st.NewLimiter("calls", 100, 100)})
	require.NoError(t, err)
	alice := tool.Principal{ID: "alice"}
	as := func(callID string) context.Context {
		return tool.WithInvocation(ctx, &tool.Invocation{Principal: alice, Conversation: "c1", CallID: callID})
	}
	p, err := svc.Propose(as(""), "notes_delete", []byte(`{}`))
	require.NoError(t, err)

	require.NoError(t, srv.Stop())
	start := time.Now()
	for _, c := range []struct {
		name string
		call func() error
		says string
	}{
		{"a read", func() error { _, err := svc.Call(as(""), "echo", nil); return err }, "could not be recorded"},
		{"an action with a call ID", func() error { _, err := svc.Call(as("toolu_1"), "act", nil); return err }, "could not be recorded"},
		{"a proposal", func() error { _, err := svc.Call(as(""), "notes_delete", nil); return err }, "could not be recorded"},
		{"a confirmation", func() error { _, err := svc.Confirm(ctx, p.ID, alice); return err }, "could not be read"},
		{"a call under the durable rate limit", func() error { _, err := limited.Call(as(""), "echo", nil); return err }, "nothing was run"},
	} {
		err := c.call()
		assert.Equal(t, tool.CodeRefused, tool.CodeOf(err), "%s fails closed", c.name)
		if assert.Error(t, err) {
			assert.Contains(t, err.Error(), c.says, c.name)
			assert.Contains(t, err.Error(), "nothing was run", c.name)
		}
	}
	assert.Zero(t, total(), "nothing ran")
	assert.Less(t, time.Since(start), 10*time.Second, "refused promptly")

	require.NoError(t, srv.Restart(ctx))
	// The pool drops the connections the stop broke; the first calls may
	// still meet one.
	require.Eventually(t, func() bool {
		_, err := svc.Call(as(""), "echo", nil)
		return err == nil
	}, 20*time.Second, 100*time.Millisecond, "the service recovers")
	conf, err := svc.Confirm(ctx, p.ID, alice)
	require.NoError(t, err, "the proposal stayed pending")
	assert.Equal(t, "deleted for alice", conf.Result.Text())
	_, err = svc.Call(as("toolu_1"), "act", nil)
	require.NoError(t, err, "the call ID was never recorded: it runs now")
	_, err = limited.Call(as(""), "echo", nil)
	require.NoError(t, err)
	assert.EqualValues(t, 1, runs["notes_delete"].Load())
	assert.EqualValues(t, 1, runs["act"].Load())

	// The rows: the proposal confirmed once, the call ID's run recorded.
	got, err := st.Proposal(ctx, p.ID)
	require.NoError(t, err)
	assert.Equal(t, service.StateDone, got.State)
	recs, err := st.Records(ctx, service.Query{CallID: "toolu_1"})
	require.NoError(t, err)
	require.Len(t, recs, 1)
	assert.Equal(t, service.OutcomeOK, recs[0].Outcome)
}

// registry is a registry of echo (a read), act (an action) and
// notes_delete (a propose tool), which count their runs in runs.
func registry(t *testing.T, runs map[string]*atomic.Int64) tool.Registry {
	t.Helper()
	specs := []*tool.Spec{
		{Name: "act", Kind: tool.KindAction},
		{Name: "echo", Kind: tool.KindRead},
		{Name: "notes_delete", Kind: tool.KindPropose},
	}
	reg, err := toolimpl.NewRegistry(specs, nil, func(ctx context.Context, i int, mode toolimpl.Mode, in *codec.Decoder, out *codec.Encoder) (toolimpl.Output, error) {
		if in.Object("object") {
			for {
				key, ok := in.Key()
				if !ok {
					break
				}
				in.Unknown(key)
			}
		}
		in.End()
		if err := toolimpl.InvalidArguments(in.Err()); err != nil || mode != toolimpl.ModeCall {
			return 0, err
		}
		runs[specs[i].Name].Add(1)
		inv, _ := tool.InvocationFrom(ctx)
		out.RawText(map[string]string{"act": "acted", "echo": "echoed", "notes_delete": "deleted"}[specs[i].Name] + " for " + inv.Principal.ID)
		return toolimpl.OutputText, nil
	}, nil)
	require.NoError(t, err)
	return reg
}
