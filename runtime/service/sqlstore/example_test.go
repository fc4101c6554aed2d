package sqlstore_test

import (
	"context"
	"fmt"
	"time"

	"github.com/toolgen-go/toolgen/runtime/service/sqlitestore"
	"github.com/toolgen-go/toolgen/runtime/service/sqlstore"
)

// A durable rate limit: a token bucket per principal in the store's
// database, shared by every instance that opens it and kept across
// restarts. Here, 1 call a second in bursts of 2, on a clock the example
// moves.
func ExampleStore_NewLimiter() {
	ctx := context.Background()
	now := time.Date(2025, 3, 20, 12, 0, 0, 0, time.UTC)
	st, err := sqlitestore.Open(ctx, ":memory:", &sqlstore.Options{Now: func() time.Time { return now }})
	if err != nil {
		panic(err)
	}
	defer st.Close()
	lim := st.NewLimiter("calls", 1, 2) // service.Options.Limiter

	for i := range 3 {
		ok, err := lim.Allow(ctx, "ana")
		fmt.Println("ana, call", i+1, ok, err)
	}
	ok, _ := lim.Allow(ctx, "ben")
	fmt.Println("ben, call 1", ok)
	now = now.Add(time.Second)
	ok, _ = lim.Allow(ctx, "ana")
	fmt.Println("ana, a second later", ok)
	// Output:
	// ana, call 1 true <nil>
	// ana, call 2 true <nil>
	// ana, call 3 false <nil>
	// ben, call 1 true
	// ana, a second later true
}
