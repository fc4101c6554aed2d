package storetest

import (
	"context"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

func testLimiter(t *testing.T, b Backend) {
	if b.Limiter == nil {
		t.Skip("no durable limiter")
	}
	dsn, runs := b.NewDB(t), filepath.Join(t.TempDir(), "runs")
	const burst = 3
	st1, st2 := instance(t, b, dsn), instance(t, b, dsn)
	one := serve(t, st1, b.Limiter(st1, "calls", 1.0/3600, burst), runs)
	two := serve(t, st2, b.Limiter(st2, "calls", 1.0/3600, burst), runs)
	ok := 0
	for i := range 2 * burst {
		svc := []*service.Service{one, two}[i%2]
		_, err := svc.Call(as(""), "echo", nil)
		if err == nil {
			ok++
		} else {
			assert.Equal(t, tool.CodeRefused, tool.CodeOf(err))
			assert.Contains(t, err.Error(), "too many tool calls")
		}
	}
	assert.Equal(t, burst, ok, "one bucket for both instances")

	// A restart: a new instance finds the bucket empty.
	st3 := instance(t, b, dsn)
	three := serve(t, st3, b.Limiter(st3, "calls", 1.0/3600, burst), runs)
	_, err := three.Call(as(""), "echo", nil)
	assert.Equal(t, tool.CodeRefused, tool.CodeOf(err), "the limit survives a restart")

	// Another name, another bucket; another principal, another bucket.
	other := serve(t, st3, b.Limiter(st3, "other", 1.0/3600, burst), runs)
	_, err = other.Call(as(""), "echo", nil)
	assert.NoError(t, err)
	bob := tool.WithInvocation(context.Background(), &tool.Invocation{Principal: tool.Principal{ID: "bob"}})
	_, err = three.Call(bob, "echo", nil)
	assert.NoError(t, err)
}

// testLimitsUnderLoad: the durable rate limit holds for calls made at
// once on two instances, in parallel turns, and the cap on a turn's calls
// holds for a turn's calls made at once on two instances sharing its
// TurnState; every refused call is recorded and runs nothing.
func testLimitsUnderLoad(t *testing.T, b Backend) {
	if b.Limiter == nil {
		t.Skip("no durable limiter")
	}
	ctx := context.Background()
	dsn, runs := b.NewDB(t), filepath.Join(t.TempDir(), "runs")
	const burst = 7
	st1, st2 := instance(t, b, dsn), instance(t, b, dsn)
	svcs := []*service.Service{
		serve(t, st1, b.Limiter(st1, "calls", 1.0/3600, burst), runs),
		serve(t, st2, b.Limiter(st2, "calls", 1.0/3600, burst), runs),
	}
	// Four turns of eight calls at once, two on each instance.
	var wg sync.WaitGroup
	outs := make([][]service.Response, 4)
	for i := range outs {
		wg.Go(func() {
			reqs := make([]service.Request, 8)
			for j := range reqs {
				reqs[j] = service.Request{CallID: "toolu_" + strconv.Itoa(i) + "_" + strconv.Itoa(j), Name: "act", Args: []byte(`{"text":"` + strconv.Itoa(i*8+j) + `"}`)}
			}
			outs[i] = svcs[i%2].RunTurn(as(""), reqs)
		})
	}
	wg.Wait()
	ok := 0
	for _, out := range outs {
		for _, r := range out {
			if r.Err == nil {
				ok++
				continue
			}
			assert.Equal(t, tool.CodeRefused, tool.CodeOf(r.Err))
			assert.Contains(t, r.Err.Error(), "too many tool calls")
		}
	}
	assert.Equal(t, burst, ok, "one bucket for both instances, whatever runs at once")
	assert.Len(t, runLines(t, runs), burst, "the refused calls ran nothing")
	recs, err := st1.Records(ctx, service.Query{Principal: "alice"})
	require.NoError(t, err)
	assert.Len(t, recs, 32, "each call recorded once")

	// The cap on a turn: one TurnState, its calls made at once through
	// two instances (in one process: a TurnState lives in one).
	dsn2, runs2 := b.NewDB(t), filepath.Join(t.TempDir(), "runs")
	reg1, err := newRegistry(runs2)
	require.NoError(t, err)
	const maxTurn = 5
	capped := make([]*service.Service, 2)
	for i := range capped {
		capped[i], err = service.New(reg1, &service.Options{Store: instance(t, b, dsn2), MaxCallsPerTurn: maxTurn, Parallel: 8})
		require.NoError(t, err)
	}
	turn := tool.WithInvocation(ctx, &tool.Invocation{Principal: alice, Conversation: "c1", Turn: "t1", State: new(tool.TurnState)})
	var ran atomic.Int64
	for i := range 2 {
		wg.Go(func() {
			reqs := make([]service.Request, 10)
			for j := range reqs {
				reqs[j] = service.Request{Name: "act", Args: []byte(`{"text":"t"}`)}
			}
			for _, r := range capped[i].RunTurn(turn, reqs) {
				if r.Err == nil {
					ran.Add(1)
				} else {
					assert.Contains(t, r.Err.Error(), "too many tool calls in this turn")
				}
			}
		})
	}
	wg.Wait()
	assert.EqualValues(t, maxTurn, ran.Load(), "the turn's cap, across both")
	assert.Len(t, runLines(t, runs2), maxTurn)
}
