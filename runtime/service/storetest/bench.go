package storetest

import (
	"context"
	"strconv"
	"testing"
)

// BenchProposeConfirm measures proposals made and confirmed, each pair a
// proposal stored and then claimed, run and settled through the call
// service over b's database dsn, by 8 goroutines in each instance. With
// processes 0 the one instance is this process; otherwise it is that
// many child processes (Child must be in TestMain), which share b.N pairs
// and are released together once each has opened its store, so that the
// time counts the pairs only (and -benchmem, which sees this process
// alone, reports nothing).
func BenchProposeConfirm(tb *testing.B, b Backend, dsn string, processes int) {
	const runs = "" // the tools count nothing
	if processes == 0 {
		st, err := b.Open(context.Background(), dsn)
		if err != nil {
			tb.Fatal(err)
		}
		defer b.CloseStore(st)
		svc, err := newService(st, nil, runs)
		if err != nil {
			tb.Fatal(err)
		}
		tb.ResetTimer()
		if err := proposeConfirm(svc, tb.N, 8); err != nil {
			tb.Fatal(err)
		}
		return
	}
	kids := make([]*child, processes)
	for i := range kids {
		n := tb.N / processes
		if i < tb.N%processes {
			n++
		}
		kids[i] = startChild(tb, b, "bench", dsn, runs, envN+"="+strconv.Itoa(n))
	}
	for _, k := range kids {
		k.expect("ready")
	}
	tb.ResetTimer()
	for _, k := range kids {
		k.send("go")
	}
	for _, k := range kids {
		k.expect("done")
	}
	tb.StopTimer()
	for _, k := range kids {
		k.wait()
	}
}
