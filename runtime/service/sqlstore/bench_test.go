package sqlstore_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/internal/pgtest"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/service/pgstore"
	"github.com/toolgen-go/toolgen/runtime/service/sqlitestore"
	"github.com/toolgen-go/toolgen/runtime/service/sqlstore"
	"github.com/toolgen-go/toolgen/runtime/service/storetest"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/runtime/toolimpl"
)

// pg is the benchmarks' PostgreSQL server, started when one first needs
// it.
var pg pgtest.Lazy

var (
	sqliteBackend = storetest.SQLBackend("sqlite", func(t *testing.T) string { return filepath.Join(t.TempDir(), "calls.db") },
		func(ctx context.Context, dsn string) (*sqlstore.Store, error) { return sqlitestore.Open(ctx, dsn, nil) })
	pgBackend = storetest.SQLBackend("postgres", nil, func(ctx context.Context, dsn string) (*sqlstore.Store, error) {
		return pgstore.Open(ctx, dsn, nil)
	})
)

func TestMain(m *testing.M) {
	storetest.Child(sqliteBackend, pgBackend)
	os.Exit(pgtest.Main(m, &pg))
}

// echo is a registry of one read tool, echo.
func echo(tb testing.TB) tool.Registry {
	reg, err := toolimpl.NewRegistry([]*tool.Spec{{Name: "echo", Kind: tool.KindRead, ReadOnly: true}}, nil,
		func(_ context.Context, _ int, mode toolimpl.Mode, in *codec.Decoder, out *codec.Encoder) (toolimpl.Output, error) {
			text := ""
			if in.Object("object") {
				for {
					key, ok := in.Key()
					if !ok {
						break
					}
					if string(key) == "text" {
						in.Push("text")
						text, _ = in.String("string")
						in.Pop()
					} else {
						in.Unknown(key)
					}
				}
			}
			in.End()
			if err := toolimpl.InvalidArguments(in.Err()); err != nil || mode != toolimpl.ModeCall {
				return 0, err
			}
			out.RawText(text)
			return toolimpl.OutputText, nil
		}, nil)
	require.NoError(tb, err)
	return reg
}

// BenchmarkRecordedCall is one call of a read tool through the call
// service, recorded as started before it runs and finished after (two
// writes), on each store side by side: the memory store; SQLite in WAL
// mode with synchronous=FULL (the default: each write is synced to disk)
// and with synchronous=NORMAL (a commit may be lost on power loss, not on
// a crash of the process); PostgreSQL on loopback, fsync on. One call at
// a time: the latency a caller sees.
func BenchmarkRecordedCall(b *testing.B) {
	ctx := context.Background()
	stores := []struct {
		name string
		open func(b *testing.B) service.Store
	}{
		{"memory", func(*testing.B) service.Store { return service.NewMemoryStore() }},
		{"sqlite", func(b *testing.B) service.Store {
			st, err := sqlitestore.Open(ctx, filepath.Join(b.TempDir(), "calls.db"), nil)
			require.NoError(b, err)
			b.Cleanup(func() { st.Close() })
			return st
		}},
		{"sqlite-sync-normal", func(b *testing.B) service.Store {
			st, err := sqlitestore.Open(ctx, "file:"+filepath.Join(b.TempDir(), "calls.db")+"?_synchronous=NORMAL", nil)
			require.NoError(b, err)
			b.Cleanup(func() { st.Close() })
			return st
		}},
		{"postgres", func(b *testing.B) service.Store {
			st, err := pgstore.Open(ctx, pg.Need(b).NewSchema(b), nil)
			require.NoError(b, err)
			b.Cleanup(func() { st.Close() })
			return st
		}},
	}
	inv := tool.WithInvocation(ctx, &tool.Invocation{Principal: tool.Principal{ID: "alice"}, Conversation: "c1"})
	args := []byte(`{"text":"hello, world"}`)
	for _, s := range stores {
		b.Run(s.name, func(b *testing.B) {
			svc, err := service.New(echo(b), &service.Options{Store: s.open(b)})
			require.NoError(b, err)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := svc.Call(inv, "echo", args); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkProposeConfirm is a proposal stored and then confirmed (claim,
// run, settle: four writes and two reads), 8 at a time per instance: on
// SQLite and PostgreSQL with one instance (this process), and on
// PostgreSQL with two instances in two processes sharing the database,
// as behind a load balancer. ns/op is the time per pair of the whole.
func BenchmarkProposeConfirm(b *testing.B) {
	b.Run("sqlite-1", func(b *testing.B) {
		storetest.BenchProposeConfirm(b, sqliteBackend, filepath.Join(b.TempDir(), "calls.db"), 0)
	})
	b.Run("postgres-1", func(b *testing.B) {
		storetest.BenchProposeConfirm(b, pgBackend, pg.Need(b).NewSchema(b), 0)
	})
	b.Run("postgres-2-processes", func(b *testing.B) {
		storetest.BenchProposeConfirm(b, pgBackend, pg.Need(b).NewSchema(b), 2)
	})
}
