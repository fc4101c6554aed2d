// Package storetest checks that a service.Store keeps the contract the
// call service relies on: call-ID deduplication, a claim that one of any
// number of concurrent confirmations wins, expiry decided at claim time,
// the Close rules, Settle, Release (a claim undone), the Records and
// Proposals queries (filters, limits, order), Purge, one digest key for
// all (Key) and none made when it is gone under open proposals
// (ErrKeyLost), tasks (written once, updated under their version by one
// of any number of concurrent writers, purged past their expiry, a
// principal's unfinished ones listed newest first), and any bytes in
// every text field a caller reaches (NUL, invalid UTF-8) read back as
// they were written; with the call service on top, services with
// different keys or rotated keys, and confirmations cancelled at any
// moment, which never leave a proposal spent without a run. Every store
// runs it: the memory store in runtime/service, SQLite in
// runtime/service/sqlitestore, PostgreSQL in runtime/service/pgstore.
//
//	func TestConformance(t *testing.T) {
//		storetest.Run(t, func(t *testing.T) service.Store {
//			st, err := mystore.Open(ctx, t.TempDir()+"/db")
//			require.NoError(t, err)
//			t.Cleanup(func() { st.Close() })
//			return st
//		})
//	}
//
// RunShared goes further for durable stores: several instances (stores
// opened on one database) and processes, which a test binary re-executes
// as itself (Child) and kills with SIGKILL at chosen moments.
package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// t0 is the suite's clock: a time with nanoseconds, which a store must
// keep.
var t0 = time.Date(2026, 12, 2, 10, 0, 0, 123456789, time.UTC)

// Run checks the store open returns (a new, empty one on each call)
// against the contract of service.Store.
func Run(t *testing.T, open func(t *testing.T) service.Store) {
	for _, c := range []struct {
		name string
		test func(*testing.T, service.Store)
	}{
		{"StartFinishAppendRoundTrip", testRoundTrip},
		{"CallIDDeduplicates", testCallID},
		{"ConcurrentStartsOfOneCallID", testConcurrentStarts},
		{"ProposeAndRead", testPropose},
		{"Claim", testClaim},
		{"ClaimExpiry", testClaimExpiry},
		{"ConcurrentClaimsOneWins", testConcurrentClaims},
		{"Settle", testSettle},
		{"Close", testClose},
		{"Records", testRecords},
		{"RecordsDefaultLimit", testDefaultLimit},
		{"RecordPages", testPages},
		{"Sessions", testSessions},
		{"Proposals", testProposals},
		{"Purge", testPurge},
		{"AnyBytes", testAnyBytes},
		{"Key", testKey},
		{"TaskRoundTrip", testTaskRoundTrip},
		{"TaskUpdateVersion", testTaskUpdateVersion},
		{"ConcurrentTaskUpdatesOneWins", testConcurrentTaskUpdates},
		{"PurgeTasks", testPurgeTasks},
		{"Release", testRelease},
		{"KeyLost", testKeyLost},
		{"KeysDiffer", testKeysDiffer},
		{"KeyRotation", testKeyRotation},
		{"CancelledConfirms", testCancelledConfirms},
		{"TasksOfPrincipal", testTasksOfPrincipal},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel() // each on a store of its own
			c.test(t, open(t))
		})
	}
}

// all returns every record of st.
func all(t *testing.T, st service.Store) []service.Record {
	t.Helper()
	recs, err := st.Records(context.Background(), service.Query{Limit: 1 << 20})
	require.NoError(t, err)
	return recs
}

// equalRecord asserts that got is want, times compared as instants.
func equalRecord(t *testing.T, want, got service.Record, msg string) {
	t.Helper()
	assert.True(t, want.Time.Equal(got.Time), "%s: time %v, want %v", msg, got.Time, want.Time)
	want.Time, got.Time = time.Time{}, time.Time{}
	normBytes(&want.Args, &got.Args)
	normBytes(&want.Result, &got.Result)
	assert.Equal(t, want, got, msg)
}

// normBytes makes nil and empty alike: a store may keep either.
func normBytes(a, b *[]byte) {
	if len(*a) == 0 && len(*b) == 0 {
		*a, *b = nil, nil
	}
}

// equalProposal asserts that got is want, times compared as instants.
func equalProposal(t *testing.T, want, got service.Proposal, msg string) {
	t.Helper()
	for _, p := range [][2]time.Time{{want.Created, got.Created}, {want.Expires, got.Expires}, {want.Decided, got.Decided}} {
		assert.True(t, p[0].Equal(p[1]), "%s: time %v, want %v", msg, p[1], p[0])
	}
	want.Created, want.Expires, want.Decided = time.Time{}, time.Time{}, time.Time{}
	got.Created, got.Expires, got.Decided = time.Time{}, time.Time{}, time.Time{}
	normBytes(&want.Args, &got.Args)
	assert.Equal(t, want, got, msg)
}

// call returns the record of a call about to run.
func call(principal, conv, callID string, at time.Time) *service.Record {
	return &service.Record{Time: at, Principal: principal, Conversation: conv, Turn: "t1", CallID: callID, Agent: "helper",
		Tool: "act", Kind: tool.KindAction, Event: service.EventCall, Outcome: service.OutcomeStarted, Args: []byte(`{"x":1}`)}
}
