// Command mcpattack measures how toolgen's streamable HTTP server
// (runtime/mcpserver) holds up against resource exhaustion: slow and idle
// connections, JSON-RPC batch floods, session floods and a sustained load.
//
// It serves the sample registry (examples/demo) in process with
// Server.Serve's defaults on 127.0.0.1:0, so that it can read the
// process's goroutines, heap and RSS; it talks to that loopback address
// only, and every probe is bounded in count and time.
//
//	cd bench
//	go run ./mcpattack                                  # every probe, the sizes of bench/README.md
//	go run ./mcpattack -probes batch,sessions -idle 5s  # a quick look
//
// Goroutines and heap are read after a garbage collection, once the
// probe's own clients have closed their connections, so they count what
// the server keeps.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/toolgen-go/toolgen/examples/demo"
	"github.com/toolgen-go/toolgen/runtime/mcpserver"
)

// config holds the command's flags.
type config struct {
	probes       string
	slow         int
	hold         time.Duration
	batchBytes   int
	sessions     int
	idle         time.Duration
	loadSessions int
	loadTime     time.Duration
	heapProfile  string
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "mcpattack:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, out io.Writer) error {
	var c config
	fs := flag.NewFlagSet("mcpattack", flag.ContinueOnError)
	fs.StringVar(&c.probes, "probes", "http,slow,batch,sessions,load", "comma-separated `probes` to run")
	fs.IntVar(&c.slow, "slow", 200, "`connections` of each kind in the slow probe (slow body, idle keep-alive, silent)")
	fs.DurationVar(&c.hold, "hold", 65*time.Second, "how long the slow probe holds its connections before counting the open ones")
	fs.IntVar(&c.batchBytes, "batch-bytes", 1<<20, "approximate `size` of the batch probe's JSON-RPC batch")
	fs.IntVar(&c.sessions, "sessions", 2000, "initialize requests in the session probe")
	fs.DurationVar(&c.idle, "idle", time.Minute, "idle time before the session probe's second reading")
	fs.IntVar(&c.loadSessions, "load-sessions", 20, "concurrent client sessions in the load probe")
	fs.DurationVar(&c.loadTime, "load-time", 10*time.Second, "duration of the load probe")
	fs.StringVar(&c.heapProfile, "heapprofile", "", "write a heap profile to `file` while the batch probe's session is open")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}

	reg, err := demo.Registry()
	if err != nil {
		return err
	}
	srv, err := mcpserver.New(reg, &mcpserver.Options{Name: "mcpattack", Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		return err
	}
	defer srv.Close()
	ln, err := mcpserver.Listen(ctx, "127.0.0.1:0")
	if err != nil {
		return err
	}
	sctx, cancel := context.WithCancel(ctx)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(sctx, ln, nil) }()
	defer func() {
		cancel()
		<-served
	}()
	t := &target{heapProfile: c.heapProfile, addr: ln.Addr().String(), url: "http://" + ln.Addr().String() + mcpserver.DefaultPath, out: out}
	fmt.Fprintf(out, "server: %s, %s\n", t.url, readMem())

	for _, p := range strings.Split(c.probes, ",") {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		var err error
		switch strings.TrimSpace(p) {
		case "http":
			err = t.probeHTTP(ctx)
		case "slow":
			err = t.probeSlow(ctx, c.slow, c.hold)
		case "batch":
			err = t.probeBatch(ctx, c.batchBytes)
		case "sessions":
			err = t.probeSessions(ctx, c.sessions, c.idle)
		case "load":
			err = t.probeLoad(ctx, c.loadSessions, c.loadTime)
		default:
			err = fmt.Errorf("unknown probe %q", p)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
	}
	return nil
}

// target is the server under test.
type target struct {
	heapProfile string // where probeBatch writes a heap profile, if anywhere
	addr        string // host:port
	url         string // the MCP endpoint
	out         io.Writer
}

// printf writes one line of a probe's report.
func (t *target) printf(format string, args ...any) {
	fmt.Fprintf(t.out, format+"\n", args...)
}

// dial opens a TCP connection to the server.
func (t *target) dial(ctx context.Context) (net.Conn, error) {
	var d net.Dialer
	dctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	return d.DialContext(dctx, "tcp", t.addr)
}

// isOpen reports whether the server still holds conn open: a read that
// times out means it does; data, EOF or a reset mean it answered or
// closed it.
func isOpen(conn net.Conn) bool {
	_ = conn.SetReadDeadline(time.Now().Add(20 * time.Millisecond))
	var b [1]byte
	_, err := conn.Read(b[:])
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
