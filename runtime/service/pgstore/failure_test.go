package pgstore_test

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/internal/pgtest"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/runtime/toolimpl"
)

// gated is a registry of act (an action) and notes_delete (a propose
// tool) that, once started, say so on running and wait for release.
type gated struct {
	reg     tool.Registry
	runs    atomic.Int64
	running chan struct{}
	release chan struct{}
}

func newGated(t *testing.T) *gated {
	t.Helper()
	g := &gated{running: make(chan struct{}, 16), release: make(chan struct{})}
	specs := []*tool.Spec{{Name: "act", Kind: tool.KindAction}, {Name: "notes_delete", Kind: tool.KindPropose}}
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
		g.runs.Add(1)
		g.running <- struct{}{}
		<-g.release
		out.RawText(specs[i].Name + " done")
		return toolimpl.OutputText, nil
	}, nil)
	require.NoError(t, err)
	g.reg = reg
	return g
}

// withApp returns dsn, a URL, naming its connections app.
func withApp(t *testing.T, dsn string) (string, string) {
	t.Helper()
	var b [4]byte
	_, _ = rand.Read(b[:])
	app := "toolgen_kill_" + hex.EncodeToString(b[:])
	u, err := url.Parse(dsn)
	require.NoError(t, err)
	q := u.Query()
	q.Set("application_name", app)
	u.RawQuery = q.Encode()
	return u.String(), app
}

// killConnections terminates the server's connections named app.
func killConnections(t *testing.T, admin, app string) {
	t.Helper()
	db, err := sql.Open("pgx", admin)
	require.NoError(t, err)
	defer db.Close()
	var n int
	require.NoError(t, db.QueryRow(`SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = $1`, app).Scan(&n))
	require.NotZero(t, n, "connections killed")
}

// TestConnectionKilledBetweenClaimAndFinish: the store's connections are
// killed while a confirmed proposal, and a call with a call ID, run: the
// end of each run is still recorded, so a repeat reads the real outcome
// (not outcome_unknown), and nothing runs twice.
func TestConnectionKilledBetweenClaimAndFinish(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := pg.Need(t)
	dsn, app := withApp(t, srv.NewSchema(t))
	st := open(t, dsn)
	g := newGated(t)
	svc, err := service.New(g.reg, &service.Options{Store: st, AwaitRunning: -1})
	require.NoError(t, err)
	alice := tool.Principal{ID: "alice"}
	as := func(callID string) context.Context {
		return tool.WithInvocation(ctx, &tool.Invocation{Principal: alice, Conversation: "c1", CallID: callID})
	}
	p, err := svc.Propose(as(""), "notes_delete", nil)
	require.NoError(t, err)

	for _, c := range []struct {
		name   string
		run    func() (string, error)
		repeat func() (string, tool.Code)
	}{
		{"a confirmation", func() (string, error) {
			conf, err := svc.Confirm(ctx, p.ID, alice)
			if err != nil {
				return "", err
			}
			return conf.Result.Text(), nil
		}, func() (string, tool.Code) {
			conf, err := svc.Confirm(ctx, p.ID, alice)
			if conf == nil {
				return "", tool.CodeOf(err)
			}
			return conf.Result.Text(), tool.CodeOf(err)
		}},
		{"a call with a call ID", func() (string, error) {
			res, err := svc.Call(as("toolu_1"), "act", nil)
			return res.Text(), err
		}, func() (string, tool.Code) {
			res, err := svc.Call(as("toolu_1"), "act", nil)
			return res.Text(), tool.CodeOf(err)
		}},
	} {
		before := g.runs.Load()
		done := make(chan struct{})
		var text string
		var runErr error
		go func() {
			defer close(done)
			text, runErr = c.run()
		}()
		<-g.running
		killConnections(t, srv.DSN, app)
		g.release <- struct{}{}
		<-done
		require.NoError(t, runErr, c.name)
		text2, code := c.repeat()
		if c.name == "a confirmation" {
			assert.Equal(t, tool.CodeAlreadyConfirmed, code, "%s: the repeat reads the recorded outcome", c.name)
		} else {
			assert.Zero(t, code, "%s: the repeat reads the recorded outcome", c.name)
		}
		assert.Equal(t, text, text2, c.name)
		assert.Equal(t, before+1, g.runs.Load(), "%s: ran once", c.name)
	}
	got, err := st.Proposal(ctx, p.ID)
	require.NoError(t, err)
	assert.Equal(t, service.StateDone, got.State, "settled")
}

// TestServerStoppedMidRun: the server stops while a call with a call ID
// and a confirmed proposal run, and comes back after: the runs' answers
// reach their callers, neither runs again, and a repeat of either reads
// outcome_unknown (their ends could not be recorded), on every instance.
func TestServerStoppedMidRun(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv, err := pgtest.StartLocal(ctx)
	if err != nil {
		pgtest.Fail(t, err)
	}
	t.Cleanup(srv.Remove)
	dsn := srv.NewSchema(t)
	st := open(t, dsn)
	g := newGated(t)
	svc, err := service.New(g.reg, &service.Options{Store: st, AwaitRunning: -1})
	require.NoError(t, err)
	alice := tool.Principal{ID: "alice"}
	as := func(callID string) context.Context {
		return tool.WithInvocation(ctx, &tool.Invocation{Principal: alice, Conversation: "c1", CallID: callID})
	}
	p, err := svc.Propose(as(""), "notes_delete", nil)
	require.NoError(t, err)

	done := make(chan struct{}, 2)
	var callErr, confErr error
	go func() {
		_, callErr = svc.Call(as("toolu_1"), "act", nil)
		done <- struct{}{}
	}()
	go func() {
		_, confErr = svc.Confirm(ctx, p.ID, alice)
		done <- struct{}{}
	}()
	<-g.running
	<-g.running
	require.NoError(t, srv.Stop())
	close(g.release)
	<-done
	<-done
	assert.NoError(t, callErr, "the call ran: its answer reaches the caller")
	assert.NoError(t, confErr, "the confirmation ran")

	require.NoError(t, srv.Restart(ctx))
	other, err := service.New(g.reg, &service.Options{Store: open(t, dsn), AwaitRunning: -1})
	require.NoError(t, err)
	for _, s := range []*service.Service{svc, other} {
		require.Eventually(t, func() bool {
			_, err := s.Call(as("toolu_1"), "act", nil)
			return tool.CodeOf(err) == tool.CodeOutcomeUnknown
		}, 20*time.Second, 100*time.Millisecond, "a repeat of the call ID is outcome_unknown")
		_, err := s.Confirm(ctx, p.ID, alice)
		assert.Equal(t, tool.CodeOutcomeUnknown, tool.CodeOf(err), "a repeated confirmation too")
	}
	assert.EqualValues(t, 2, g.runs.Load(), "nothing ran twice")
}
