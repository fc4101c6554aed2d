package mcpserver_test

// The interoperability tests check examples/mcpserver against clients
// written elsewhere: the official TypeScript MCP client
// (testdata/interop/client.mjs) over stdio and streamable HTTP (without
// and with bearer tokens, answering the server's questions about
// proposals, and following a long-running tool's progress and cancelling
// it, stateful and stateless), and the
// generic server scenarios of the MCP conformance suite
// (testdata/interop/conformance.mjs) over HTTP; TestInteropTasks
// (interop_tasks_test.go) drives the Tasks extension with the official
// requester across two server processes. The node dependencies are
// pinned in testdata/interop/package-lock.json; `make test` installs them
// with `npm ci` (CI does too). Without node_modules the tests skip, except
// under CI, where they fail.

import (
	"bufio"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// interopDir holds the node scripts and their pinned dependencies.
const interopDir = "testdata/interop"

// scriptLimit bounds one node script; it only turns a hang into a failure.
const scriptLimit = 5 * time.Minute

// example is the package of the server under test.
const example = "github.com/toolgen-go/toolgen/examples/mcpserver"

// requireNode returns the node executable, skipping the test when the node
// dependencies are not installed, outside CI only.
func requireNode(t *testing.T) string {
	t.Helper()
	for _, dep := range []string{"@modelcontextprotocol/sdk", "@modelcontextprotocol/conformance", "@modelcontextprotocol/client", "@modelcontextprotocol/ext-tasks", "ajv", "ajv-formats"} {
		if _, err := os.Stat(filepath.Join(interopDir, "node_modules", filepath.FromSlash(dep), "package.json")); err != nil {
			if os.Getenv("CI") == "" {
				t.Skipf("interop: node_modules/%s is absent: run `npm ci` in runtime/mcpserver/testdata/interop (or `make test`) to run the interoperability tests (CI always runs them)", dep)
			}
			t.Fatalf("interop: CI is set but node_modules/%s is absent (is `npm ci` in runtime/mcpserver/testdata/interop missing from .ci/run?): %v", dep, err)
		}
	}
	node, err := exec.LookPath("node")
	require.NoError(t, err, "interop: node_modules is installed but node is not on PATH")
	return node
}

// buildExample builds examples/mcpserver into a temporary directory.
func buildExample(t *testing.T) string {
	t.Helper()
	goCmd, err := exec.LookPath("go")
	require.NoError(t, err)
	bin := filepath.Join(t.TempDir(), "mcpserver")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	out, err := exec.CommandContext(t.Context(), goCmd, "build", "-o", bin, example).CombinedOutput()
	require.NoError(t, err, "go build %s:\n%s", example, out)
	return bin
}

// runNode runs a node script of interopDir, fails the test with its
// output when it fails, and returns the output (with the stderr of a
// server it started over stdio).
func runNode(t *testing.T, node string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), scriptLimit)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, args...)
	cmd.Dir = interopDir
	out, err := cmd.CombinedOutput()
	t.Logf("node %s:\n%s", strings.Join(args, " "), out)
	require.NoError(t, err, "node %s failed:\n%s", strings.Join(args, " "), out)
	return string(out)
}

// Records the example logs with -v: a clock_wait run to its end, and one
// cancelled mid-run that stopped (not failed, not abandoned).
var (
	waitedRecord    = regexp.MustCompile(`msg="mcpserver: record" event=call tool=clock_wait outcome=ok code=- duration=`)
	cancelledRecord = regexp.MustCompile(`msg="mcpserver: record" event=call tool=clock_wait outcome=cancelled code=cancelled duration=(\S+)`)
)

// requireCancelled checks the server's log: the cancelled call was
// recorded as cancelled, well before its 30 seconds.
func requireCancelled(t *testing.T, log string) {
	t.Helper()
	assert.Regexp(t, waitedRecord, log, "the wait run to its end is recorded ok")
	m := cancelledRecord.FindStringSubmatch(log)
	require.NotNil(t, m, "the cancelled call is recorded cancelled: the tool saw its context done and stopped")
	d, err := time.ParseDuration(m[1])
	require.NoError(t, err)
	assert.Less(t, d, 30*time.Second, "it stopped before its 30 seconds")
}

func TestInterop(t *testing.T) {
	node := requireNode(t)
	bin := buildExample(t)

	t.Run("stdio", func(t *testing.T) {
		t.Parallel()
		runNode(t, node, "client.mjs", "stdio", bin)
	})

	t.Run("http", func(t *testing.T) {
		t.Parallel()
		url, stop := startHTTP(t, bin)
		runNode(t, node, "client.mjs", "http", url)
		runNode(t, node, "conformance.mjs", url)
		stop()
	})

	// With bearer tokens: the writer's token passes every check of the
	// unauthenticated run; without a valid token the client is refused
	// (401, a bearer challenge, nothing echoed), and the reader's token
	// is offered fewer tools and refused a write tool.
	t.Run("http with tokens", func(t *testing.T) {
		t.Parallel()
		const writer, reader = "interop-writer-7f3a9c", "interop-reader-2b8e1d"
		file := filepath.Join(t.TempDir(), "tokens.txt")
		require.NoError(t, os.WriteFile(file, []byte(writer+" ana notes.read,notes.write,notes.delete,notes.share\n"+reader+" ben notes.read\n"), 0o600))
		url, stop := startHTTP(t, bin, "-tokens", file)
		runNode(t, node, "client.mjs", "http", url, writer)
		runNode(t, node, "client.mjs", "auth", url, writer, reader)
		stop()
	})

	// With -confirm over stdio: the TypeScript client, which declares
	// elicitation, is asked to confirm each proposal.
	t.Run("confirm", func(t *testing.T) {
		t.Parallel()
		runNode(t, node, "client.mjs", "confirm", bin, "-confirm")
	})

	// A long-running tool's progress, and a call cancelled mid-run: over
	// stdio and stateful HTTP with notifications/cancelled (an
	// AbortSignal), over stateless HTTP by the client going away (a
	// stateless session cannot receive a cancellation). The server's log
	// (-v) holds the records.
	t.Run("progress stdio", func(t *testing.T) {
		t.Parallel()
		requireCancelled(t, runNode(t, node, "client.mjs", "progress", "abort", "stdio", bin, "-v"))
	})
	for _, c := range []struct {
		name, how string
		args      []string
	}{
		{"progress http", "abort", []string{"-v"}},
		{"progress http stateless", "close", []string{"-v", "-stateless"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			url, stop, log := startHTTPLogged(t, bin, c.args...)
			runNode(t, node, "client.mjs", "progress", c.how, "http", url)
			// The record of a call cancelled by a client that went away
			// is written once the server has seen it go.
			deadline := time.Now().Add(scriptLimit)
			for !cancelledRecord.MatchString(log()) && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			requireCancelled(t, log())
			stop()
		})
	}
}

// servingURL matches the line where the example announces its endpoint.
var servingURL = regexp.MustCompile(`serving \d+ tools at (http://\S+)`)

// startHTTP starts the example over HTTP on a free loopback port, with
// args, and returns its endpoint, and stop, which sends SIGTERM and requires a clean
// exit.
func startHTTP(t *testing.T, bin string, args ...string) (url string, stop func()) {
	t.Helper()
	url, stop, _ = startHTTPLogged(t, bin, args...)
	return url, stop
}

// startHTTPLogged is startHTTP, and log returns what the server has
// written to stderr so far.
func startHTTPLogged(t *testing.T, bin string, args ...string) (url string, stop func(), log func() string) {
	t.Helper()
	var mu sync.Mutex
	var kept strings.Builder
	log = func() string {
		mu.Lock()
		defer mu.Unlock()
		return kept.String()
	}
	cmd := exec.Command(bin, append([]string{"-http", "127.0.0.1:0"}, args...)...)
	stderr, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	exited := make(chan error, 1)
	lines := make(chan string, 256)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			mu.Lock()
			kept.WriteString(sc.Text() + "\n")
			mu.Unlock()
			select {
			case lines <- sc.Text():
			default:
			}
		}
		_, _ = io.Copy(io.Discard, stderr)
		close(lines)
		exited <- cmd.Wait()
	}()
	stopped := false
	t.Cleanup(func() {
		if !stopped {
			_ = cmd.Process.Kill()
			<-exited
		}
	})
	timeout := time.After(scriptLimit)
	for url == "" {
		select {
		case line, ok := <-lines:
			require.True(t, ok, "the server exited before announcing its endpoint")
			t.Log("server: " + line)
			if m := servingURL.FindStringSubmatch(line); m != nil {
				url = m[1]
			}
		case <-timeout:
			t.Fatal("the server did not announce its endpoint")
		}
	}
	return url, func() {
		t.Helper()
		stopped = true
		if runtime.GOOS == "windows" {
			_ = cmd.Process.Kill()
			<-exited
			return
		}
		require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
		select {
		case err := <-exited:
			assert.NoError(t, err, "the server exits cleanly on SIGTERM")
		case <-time.After(scriptLimit):
			_ = cmd.Process.Kill()
			t.Fatal("the server did not exit on SIGTERM")
		}
	}, log
}
