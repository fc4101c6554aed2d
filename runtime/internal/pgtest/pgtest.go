// Package pgtest gives tests a PostgreSQL server: the one TOOLGEN_PG_DSN
// names, or a throwaway one it starts from the binaries it finds (initdb
// and postgres on PATH or under /usr/lib/postgresql/*/bin), initialised in
// a temporary directory, listening on a free loopback port, and stopped
// at the end. As root it runs them as the postgres user (or nobody),
// since PostgreSQL refuses to run as root. Each test gets a schema of its
// own (NewSchema), so that tests share one server.
package pgtest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver
)

// EnvDSN names the environment variable that points the tests at an
// existing server instead of a throwaway one: a DSN whose user may create
// schemas.
const EnvDSN = "TOOLGEN_PG_DSN"

// ErrNoPostgres is returned by Start when no PostgreSQL binaries are
// installed.
var ErrNoPostgres = errors.New("no PostgreSQL server binaries (initdb, postgres) on PATH or under /usr/lib/postgresql/*/bin; install them (Debian: apt-get install postgresql) or set " + EnvDSN)

// Server is a PostgreSQL server for tests.
type Server struct {
	// DSN connects to its database as a user who may create schemas.
	DSN string
	// Log is the server's log file ("" for a server TOOLGEN_PG_DSN names).
	Log string

	dir, bin string
	port     int
	cred     *ids
	cmd      *exec.Cmd
	exited   chan struct{}
}

// Start returns the server TOOLGEN_PG_DSN names, or starts a throwaway
// one; ErrNoPostgres when there is neither.
func Start(ctx context.Context) (*Server, error) {
	if dsn := os.Getenv(EnvDSN); dsn != "" {
		s := &Server{DSN: dsn}
		return s, s.wait(ctx, 10*time.Second)
	}
	return StartLocal(ctx)
}

// StartLocal starts a throwaway server, whatever TOOLGEN_PG_DSN says: one
// a test may stop and restart. Remove removes it.
func StartLocal(ctx context.Context) (*Server, error) {
	bin, err := findBinaries()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "toolgen-pg-")
	if err != nil {
		return nil, err
	}
	s := &Server{dir: dir, bin: bin, Log: filepath.Join(dir, "postgres.log")}
	if err := s.init(ctx); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	if err := s.Restart(ctx); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return s, nil
}

// findBinaries returns the directory of initdb and postgres.
func findBinaries() (string, error) {
	var dirs []string
	if p, err := exec.LookPath("initdb"); err == nil {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			p = real
		}
		dirs = append(dirs, filepath.Dir(p))
	}
	found, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	slices.SortFunc(found, func(a, b string) int { // newest version first
		va, _ := strconv.Atoi(filepath.Base(filepath.Dir(a)))
		vb, _ := strconv.Atoi(filepath.Base(filepath.Dir(b)))
		return vb - va
	})
	dirs = append(dirs, found...)
	for _, d := range dirs {
		if isExec(filepath.Join(d, "initdb")) && isExec(filepath.Join(d, "postgres")) {
			return d, nil
		}
	}
	return "", ErrNoPostgres
}

func isExec(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
}

// init runs initdb into s.dir/data, as an unprivileged user when this
// process is root.
func (s *Server) init(ctx context.Context) error {
	data := filepath.Join(s.dir, "data")
	if err := os.Mkdir(data, 0o700); err != nil {
		return err
	}
	if os.Geteuid() == 0 {
		cred, err := unprivileged()
		if err != nil {
			return err
		}
		s.cred = cred
		// The user must reach the directory, and own the data and the log.
		if err := os.Chmod(s.dir, 0o755); err != nil {
			return err
		}
		for _, p := range []string{data, s.dir} {
			if err := os.Chown(p, int(cred.uid), int(cred.gid)); err != nil {
				return err
			}
		}
	}
	cmd := exec.CommandContext(ctx, filepath.Join(s.bin, "initdb"), "-D", data, "-U", "toolgen", "--auth=trust",
		"-E", "UTF8", "--locale=C", "--no-instructions", "--no-sync")
	cmd.SysProcAttr = procAttr(s.cred)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("initdb: %w\n%s", err, out)
	}
	return nil
}

// ids are a user's and its group's.
type ids struct{ uid, gid uint32 }

// unprivileged returns the IDs of the postgres user, or of nobody.
func unprivileged() (*ids, error) {
	for _, name := range []string{"postgres", "nobody"} {
		u, err := user.Lookup(name)
		if err != nil {
			continue
		}
		uid, err1 := strconv.ParseUint(u.Uid, 10, 32)
		gid, err2 := strconv.ParseUint(u.Gid, 10, 32)
		if err1 == nil && err2 == nil {
			return &ids{uid: uint32(uid), gid: uint32(gid)}, nil
		}
	}
	return nil, errors.New("running as root, and neither a postgres nor a nobody user exists to run PostgreSQL as")
}

// Restart starts the server (again, after Stop), on the port it had, and
// waits until it accepts connections.
func (s *Server) Restart(ctx context.Context) error {
	if s.dir == "" {
		return errors.New("pgtest: the server " + EnvDSN + " names is not this process's to start")
	}
	if s.port == 0 {
		p, err := freePort()
		if err != nil {
			return err
		}
		s.port = p
		s.DSN = fmt.Sprintf("postgres://toolgen@127.0.0.1:%d/postgres?sslmode=disable", p)
	}
	logf, err := os.OpenFile(s.Log, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	defer logf.Close()
	if s.cred != nil {
		_ = os.Chown(s.Log, int(s.cred.uid), int(s.cred.gid))
	}
	cmd := exec.Command(filepath.Join(s.bin, "postgres"), "-D", filepath.Join(s.dir, "data"),
		"-p", strconv.Itoa(s.port), "-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=",
		"-c", "max_connections=300", "-c", "shared_buffers=64MB")
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = procAttr(s.cred)
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start postgres: %w", err)
	}
	s.cmd, s.exited = cmd, make(chan struct{})
	go func(exited chan struct{}) {
		_ = cmd.Wait()
		close(exited)
	}(s.exited)
	if err := s.wait(ctx, 30*time.Second); err != nil {
		_ = s.Stop()
		return fmt.Errorf("%w (log: %s)", err, s.tail())
	}
	return nil
}

// tail returns the end of the server's log.
func (s *Server) tail() string {
	b, _ := os.ReadFile(s.Log)
	if len(b) > 2000 {
		b = b[len(b)-2000:]
	}
	return strings.TrimSpace(string(b))
}

// freePort returns a loopback TCP port no one listens on.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// wait waits until the server accepts a query.
func (s *Server) wait(ctx context.Context, d time.Duration) error {
	db, err := sql.Open("pgx", s.DSN)
	if err != nil {
		return err
	}
	defer db.Close()
	deadline := time.Now().Add(d)
	for {
		cctx, cancel := context.WithTimeout(ctx, time.Second)
		err = db.QueryRowContext(cctx, "SELECT 1").Scan(new(int))
		cancel()
		if err == nil {
			return nil
		}
		if s.exited != nil {
			select {
			case <-s.exited:
				return fmt.Errorf("postgres exited: %w", err)
			default:
			}
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("postgres not ready after %s: %w", d, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Stop stops the server (fast shutdown: open connections are closed) and
// waits for it; Restart starts it again. A server TOOLGEN_PG_DSN names is
// left alone.
func (s *Server) Stop() error {
	if s.cmd == nil {
		return nil
	}
	_ = s.cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-s.exited:
	case <-time.After(20 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.exited
	}
	s.cmd = nil
	return nil
}

// Remove stops the server and deletes its directory.
func (s *Server) Remove() {
	_ = s.Stop()
	if s.dir != "" {
		os.RemoveAll(s.dir)
	}
}

// NewSchema creates a schema of a unique name and returns a DSN whose
// search_path is it: an empty database for one test. tb.Cleanup drops it.
func (s *Server) NewSchema(tb testing.TB) string {
	tb.Helper()
	var b [6]byte
	_, _ = rand.Read(b[:])
	name := "t_" + hex.EncodeToString(b[:])
	db, err := sql.Open("pgx", s.DSN)
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("CREATE SCHEMA " + name); err != nil {
		tb.Fatalf("create schema: %v", err)
	}
	tb.Cleanup(func() {
		db, err := sql.Open("pgx", s.DSN)
		if err != nil {
			return
		}
		defer db.Close()
		_, _ = db.Exec("DROP SCHEMA IF EXISTS " + name + " CASCADE")
	})
	return WithSearchPath(s.DSN, name)
}

// WithSearchPath returns dsn, a URL, with its search_path set to schema.
func WithSearchPath(dsn, schema string) string {
	u, err := url.Parse(dsn)
	if err != nil || u.Scheme == "" {
		return dsn + " search_path=" + schema
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// Lazy is a test binary's server: started (see Start) when a test first
// needs it, so that a run of other tests, or a -list, starts none, and
// removed by Main.
type Lazy struct {
	once sync.Once
	srv  *Server
	err  error
}

// Main is TestMain for a package whose tests use l: it runs the tests,
// removes the server if one was started, and returns their exit code.
func Main(m *testing.M, l *Lazy) int {
	code := m.Run()
	if l.srv != nil {
		l.srv.Remove()
	}
	return code
}

// Need returns the server, starting it on first use, or ends the test:
// skipped, with the reason, when no PostgreSQL is installed, except in CI
// (CI set), where the tests must run; failed when a server could not be
// started.
func (l *Lazy) Need(tb testing.TB) *Server {
	tb.Helper()
	l.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		l.srv, l.err = Start(ctx)
	})
	if l.srv == nil {
		Fail(tb, l.err)
	}
	return l.srv
}

// Fail ends a test that has no server because of err: skipped, with the
// reason, when no PostgreSQL is installed, except in CI (CI set), where
// the tests must run; failed otherwise.
func Fail(tb testing.TB, err error) {
	tb.Helper()
	if errors.Is(err, ErrNoPostgres) && os.Getenv("CI") == "" {
		tb.Skipf("PostgreSQL tests skipped: %v", err)
	}
	tb.Fatalf("PostgreSQL: %v", err)
}
