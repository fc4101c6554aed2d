package pgstore_test

import (
	"context"
	"os"
	"time"

	"github.com/toolgen-go/toolgen/examples/demo"
	"github.com/toolgen-go/toolgen/generated"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/service/pgstore"
	"github.com/toolgen-go/toolgen/tools/notes"
)

// Every instance behind the load balancer opens the same database: a
// proposal made on one is confirmed on another, a retried call is answered
// from the record wherever it lands, and the rate limit is one per
// principal for all of them.
//
// This example is compiled but not run (it has no Output): it needs a
// PostgreSQL server, which a machine running go test may not have. The
// package's tests run the same calls, and the store contract
// (runtime/service/storetest) with several instances and processes, on the
// server TOOLGEN_PG_DSN names or on a throwaway one they start.
func ExampleOpen() {
	ctx := context.Background()
	st, err := pgstore.Open(ctx, os.Getenv("DATABASE_URL"), nil) // say postgres://toolgen@db.internal/app?search_path=toolcalls
	if err != nil {
		panic(err)
	}
	defer st.Close()

	reg, err := generated.New(demo.All(notes.NewStore(time.Now), time.Now))
	if err != nil {
		panic(err)
	}
	svc, err := service.New(reg, &service.Options{
		Store:   st,
		Limiter: st.NewLimiter("calls", 2, 20), // 2 calls a second per principal, bursts of 20, for every instance
	})
	if err != nil {
		panic(err)
	}
	_ = svc // serve it: runtime/mcpserver, runtime/palette, a provider's adapter
}
