package storetest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/service/sqlstore"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// Backend is a durable store under test: what RunShared needs to open
// several instances of one database, and what Child needs to open one in
// a child process.
type Backend struct {
	// Name tells the child processes which backend to open: the same for
	// the Backend given to RunShared and to Child.
	Name string
	// NewDB returns the data source name of a new, empty database.
	NewDB func(t *testing.T) string
	// Open opens an instance: a store on the database dsn names. Every
	// call opens another, with connections of its own.
	Open func(ctx context.Context, dsn string) (service.Store, error)
	// CloseStore closes a store Open returned.
	CloseStore func(st service.Store) error
	// Limiter returns a durable limiter kept in st, shared by every
	// instance of its database under the same name.
	Limiter func(st service.Store, name string, r float64, burst int) service.Limiter
	// Confirms is how many confirmations of one proposal each of two
	// processes makes at once; 0 means 500 (1,000 in all). SQLite, whose
	// pure-Go build is slow under the race detector and whose writers
	// across processes take turns by polling, runs fewer.
	Confirms int
}

// SQLBackend returns the Backend of a store of runtime/service/sqlstore:
// open opens an instance on dsn (sqlitestore.Open, pgstore.Open), and the
// limiter is the store's own.
func SQLBackend(name string, newDB func(t *testing.T) string, open func(ctx context.Context, dsn string) (*sqlstore.Store, error)) Backend {
	return Backend{
		Name:       name,
		NewDB:      newDB,
		Open:       func(ctx context.Context, dsn string) (service.Store, error) { return open(ctx, dsn) },
		CloseStore: func(st service.Store) error { return st.(*sqlstore.Store).Close() },
		Limiter: func(st service.Store, name string, r float64, burst int) service.Limiter {
			return st.(*sqlstore.Store).NewLimiter(name, r, burst)
		},
	}
}

// The environment of a child process.
const (
	envRole    = "TOOLGEN_STORETEST_ROLE"
	envBackend = "TOOLGEN_STORETEST_BACKEND"
	envDSN     = "TOOLGEN_STORETEST_DSN"
	envRuns    = "TOOLGEN_STORETEST_RUNS"
	envArg     = "TOOLGEN_STORETEST_ARG"  // a proposal ID, a call ID
	envArgs    = "TOOLGEN_STORETEST_ARGS" // a tool's arguments
	envN       = "TOOLGEN_STORETEST_N"
)

// linePrefix starts every line a child writes for its parent.
const linePrefix = "storetest: "

// Child makes this process a child of RunShared when its environment says
// it is one: it plays its role (propose, confirm, call, open, bench) and
// exits. Otherwise it returns at once. Call it first in TestMain, with
// the package's backends.
func Child(backends ...Backend) {
	role := os.Getenv(envRole)
	if role == "" {
		return
	}
	name := os.Getenv(envBackend)
	for _, b := range backends {
		if b.Name == name {
			if err := runChild(b, role); err != nil {
				fmt.Fprintf(os.Stderr, "storetest child %s (%s): %v\n", role, name, err)
				os.Exit(2)
			}
			os.Exit(0)
		}
	}
	fmt.Fprintf(os.Stderr, "storetest child: no backend %q\n", name)
	os.Exit(2)
}

// say writes a line for the parent.
func say(format string, args ...any) {
	fmt.Printf(linePrefix+format+"\n", args...)
}

// runChild plays role over b.
func runChild(b Backend, role string) error {
	ctx := context.Background()
	n, _ := strconv.Atoi(os.Getenv(envN))
	arg := os.Getenv(envArg)
	stdin := bufio.NewScanner(os.Stdin)
	waitGo := func() error {
		say("ready")
		if !stdin.Scan() {
			return errors.New("no go from the parent")
		}
		return nil
	}
	if role == "open" { // two instances migrating at once
		if err := waitGo(); err != nil {
			return err
		}
		st, err := b.Open(ctx, os.Getenv(envDSN))
		if err != nil {
			return err
		}
		say("opened")
		return b.CloseStore(st)
	}
	st, err := b.Open(ctx, os.Getenv(envDSN))
	if err != nil {
		return err
	}
	defer b.CloseStore(st)
	svc, err := newService(st, nil, os.Getenv(envRuns))
	if err != nil {
		return err
	}
	switch role {
	case "propose": // propose, say its ID, and wait to be killed
		p, err := svc.Propose(as(""), "notes_delete", []byte(os.Getenv(envArgs)))
		if err != nil {
			return err
		}
		say("proposal %s", p.ID)
		for { // until the process is killed
			time.Sleep(time.Hour)
		}
	case "confirm": // confirm arg n times at once, say the codes
		if err := waitGo(); err != nil {
			return err
		}
		codes := make([]string, max(n, 1))
		var wg sync.WaitGroup
		for i := range codes {
			wg.Go(func() {
				_, err := svc.Confirm(ctx, arg, alice)
				codes[i] = codeName(err)
			})
		}
		wg.Wait()
		return sayCounts(codes)
	case "call": // call act with the call ID in arg, say the code
		_, err := svc.Call(as(arg), "act", []byte(os.Getenv(envArgs)))
		return sayCounts([]string{codeName(err)})
	case "task": // a propose tool's task, accepted: its tool runs until killed
		return runTaskChild(st, os.Getenv(envRuns), os.Getenv(envArgs))
	case "bench": // n proposals, each confirmed, by 8 goroutines
		if err := waitGo(); err != nil {
			return err
		}
		if err := proposeConfirm(svc, n, 8); err != nil {
			return err
		}
		say("done")
		return nil
	}
	return fmt.Errorf("unknown role %q", role)
}

// codeName names err's code: "ok" for nil.
func codeName(err error) string {
	if err == nil {
		return "ok"
	}
	return tool.CodeOf(err).String()
}

// sayCounts says how many of each code there were, as JSON.
func sayCounts(codes []string) error {
	counts := map[string]int{}
	for _, c := range codes {
		counts[c]++
	}
	b, err := json.Marshal(counts)
	if err != nil {
		return err
	}
	say("result %s", b)
	return nil
}

// proposeConfirm makes n proposals and confirms each, with p goroutines.
func proposeConfirm(svc *service.Service, n, p int) error {
	var wg sync.WaitGroup
	errs := make(chan error, p)
	per := (n + p - 1) / p
	for g := range p {
		wg.Go(func() {
			for i := g * per; i < min(n, (g+1)*per); i++ {
				prop, err := svc.Propose(as(""), "notes_delete", []byte(`{"id":`+strconv.Itoa(i)+`}`))
				if err == nil {
					_, err = svc.Confirm(context.Background(), prop.ID, alice)
				}
				if err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	return <-errs
}

// child is a child process of a test: this test binary run again in a
// role.
type child struct {
	t      testing.TB
	role   string
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan string
	stderr *lockedBuffer
	exited chan struct{}
	err    error
}

// lockedBuffer is a bytes.Buffer written by one goroutine and read by
// another.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// startChild runs this test binary as a child in role over b's database
// dsn, counting runs in the file runs; env adds to its environment. The
// child is killed when the test ends, if it has not exited.
func startChild(t testing.TB, b Backend, role, dsn, runs string, env ...string) *child {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), envRole+"="+role, envBackend+"="+b.Name, envDSN+"="+dsn, envRuns+"="+runs)
	cmd.Env = append(cmd.Env, env...)
	c := &child{t: t, role: role, cmd: cmd, lines: make(chan string, 16), stderr: &lockedBuffer{}, exited: make(chan struct{})}
	cmd.Stderr = c.stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if c.stdin, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if line, ok := strings.CutPrefix(sc.Text(), linePrefix); ok {
				c.lines <- line
			}
		}
		close(c.lines)
		c.err = cmd.Wait()
		close(c.exited)
	}()
	t.Cleanup(c.kill)
	return c
}

// childTimeout bounds each wait for a child: generous, for a race-built
// binary on a loaded machine.
const childTimeout = 2 * time.Minute

// expect waits for the child's next line, which must start with prefix,
// and returns the rest of it.
func (c *child) expect(prefix string) string {
	c.t.Helper()
	select {
	case line, ok := <-c.lines:
		if !ok {
			<-c.exited
			c.t.Fatalf("child %s exited (%v) before saying %q; stderr:\n%s", c.role, c.err, prefix, c.stderr)
		}
		rest, found := strings.CutPrefix(line, prefix)
		if !found {
			c.t.Fatalf("child %s said %q, want %q...", c.role, line, prefix)
		}
		return strings.TrimSpace(rest)
	case <-time.After(childTimeout):
		c.t.Fatalf("child %s said nothing for %s; stderr:\n%s", c.role, childTimeout, c.stderr)
	}
	return ""
}

// counts waits for the child's result line and returns its counts of
// codes.
func (c *child) counts() map[string]int {
	c.t.Helper()
	var counts map[string]int
	if err := json.Unmarshal([]byte(c.expect("result ")), &counts); err != nil {
		c.t.Fatal(err)
	}
	return counts
}

// send writes a line to the child's standard input.
func (c *child) send(line string) {
	c.t.Helper()
	if _, err := io.WriteString(c.stdin, line+"\n"); err != nil {
		c.t.Fatalf("child %s: %v", c.role, err)
	}
}

// wait waits for the child to exit, which it must do cleanly.
func (c *child) wait() {
	c.t.Helper()
	select {
	case <-c.exited:
	case <-time.After(childTimeout):
		c.t.Fatalf("child %s did not exit in %s", c.role, childTimeout)
	}
	if c.err != nil {
		c.t.Fatalf("child %s: %v; stderr:\n%s", c.role, c.err, c.stderr)
	}
}

// kill kills the child with SIGKILL, as a crash would, and waits for it.
func (c *child) kill() {
	select {
	case <-c.exited:
		return
	default:
	}
	_ = c.cmd.Process.Kill() // SIGKILL
	for range c.lines {      // drain, so that the reader reaches Wait
	}
	<-c.exited
}
