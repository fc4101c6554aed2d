package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
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

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/examples/demo"
)

// waitLimit turns a hang into a failure.
const waitLimit = 60 * time.Second

// newClient returns an MCP client for the tests.
func newClient() *mcp.Client {
	return mcp.NewClient(&mcp.Implementation{Name: "example-test", Version: "1"}, nil)
}

// exercise lists the tools and makes a good and a bad call.
func exercise(t *testing.T, cs *mcp.ClientSession) {
	t.Helper()
	reg, err := demo.Registry()
	require.NoError(t, err)
	res, err := cs.ListTools(t.Context(), nil)
	require.NoError(t, err)
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	var want []string
	for _, sp := range reg.Tools() {
		want = append(want, sp.Name)
	}
	assert.Equal(t, want, names)

	good, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "notes_search", Arguments: map[string]any{"query": "go"}})
	require.NoError(t, err)
	assert.False(t, good.IsError)
	assert.NotNil(t, good.StructuredContent)

	bad, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "notes_search", Arguments: map[string]any{"limit": 500}})
	require.NoError(t, err)
	assert.True(t, bad.IsError)
	require.Len(t, bad.Content, 1)
	assert.Contains(t, bad.Content[0].(*mcp.TextContent).Text, "/query")
}

func TestStdio(t *testing.T) {
	t.Parallel()
	clientIn, serverOut := io.Pipe()
	serverIn, clientOut := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(t.Context(), nil, serverIn, serverOut, io.Discard)
		serverOut.Close()
	}()
	cs, err := newClient().Connect(t.Context(), &mcp.IOTransport{Reader: clientIn, Writer: clientOut}, nil)
	require.NoError(t, err)
	exercise(t, cs)
	require.NoError(t, cs.Close()) // closes stdin: the server's session ends
	select {
	case err := <-done:
		assert.NoError(t, err)
	case <-time.After(waitLimit):
		t.Fatal("the server did not stop when the client left")
	}
}

// lineWriter hands each line written to it to a channel.
type lineWriter struct {
	mu    sync.Mutex
	buf   []byte
	lines chan string
}

func (w *lineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, p...)
	for {
		i := bytes.IndexByte(w.buf, '\n')
		if i < 0 {
			return len(p), nil
		}
		select {
		case w.lines <- string(w.buf[:i]):
		default: // nobody listens any more
		}
		w.buf = w.buf[i+1:]
	}
}

// servingURL matches the line that announces the endpoint.
var servingURL = regexp.MustCompile(`serving \d+ tools at (http://\S+)`)

// awaitURL returns the endpoint announced on lines.
func awaitURL(t *testing.T, lines <-chan string) string {
	t.Helper()
	timeout := time.After(waitLimit)
	for {
		select {
		case line, ok := <-lines:
			if !ok {
				t.Fatal("the server ended before announcing its endpoint")
			}
			if m := servingURL.FindStringSubmatch(line); m != nil {
				return m[1]
			}
		case <-timeout:
			t.Fatal("the server did not announce its endpoint")
		}
	}
}

func TestHTTP(t *testing.T) {
	t.Parallel()
	ctx, stop := context.WithCancel(t.Context())
	defer stop()
	stderr := &lineWriter{lines: make(chan string, 64)}
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"-http", "127.0.0.1:0"}, nil, io.Discard, stderr) }()
	url := awaitURL(t, stderr.lines)
	assert.Regexp(t, `^http://127\.0\.0\.1:\d+/mcp$`, url)

	cs, err := newClient().Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: url}, nil)
	require.NoError(t, err)
	defer cs.Close()
	exercise(t, cs)

	stop()
	select {
	case err := <-done:
		assert.NoError(t, err)
	case <-time.After(waitLimit):
		t.Fatal("the server did not shut down")
	}
}

func TestBadFlags(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"-nope"}, {"extra"}, {"-http", "no-port"}} {
		assert.Error(t, run(t.Context(), args, nil, io.Discard, io.Discard), "%q", args)
	}
}

// binDir holds the command built for the tests; TestMain removes it.
var binDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "mcpserver-test")
	if err != nil {
		panic(err)
	}
	binDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// buildBinary builds the command once for the tests that run it.
var buildBinary = sync.OnceValues(func() (string, error) {
	bin := filepath.Join(binDir, "mcpserver")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Stderr = os.Stderr
	return bin, build.Run()
})

// TestBadOptionsAnnounceNothing runs the command with bad options: it must
// fail before announcing anything, saying why.
func TestBadOptionsAnnounceNothing(t *testing.T) {
	t.Parallel()
	bin, err := buildBinary()
	require.NoError(t, err)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-http", "127.0.0.1:0", "-allow-origin", "app.example"}, `allowed origin "app.example"`},
		{[]string{"-http", "127.0.0.1:0", "-allow-origin", "https://ok.example", "-allow-host", "bad host"}, `allowed host "bad host"`},
		{[]string{"-http", "127.0.0.1:0", "-path", "mcp"}, `path "mcp"`},
		{[]string{"-http", "0.0.0.0:0"}, "pass -allow-host"},
		{[]string{"-http", "[::]:0"}, "pass -allow-host"},
		{[]string{"-http", "0.0.0.0:0", "-allow-host", "mcp.example.com"}, "pass -tokens"},
		{[]string{"-tokens", "tokens.txt"}, "-tokens needs -http"},
		{[]string{"-http", "127.0.0.1:0", "-tokens", "/nonexistent/tokens.txt"}, "-tokens: open"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			t.Parallel()
			cmd := exec.CommandContext(t.Context(), bin, tc.args...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			var exit *exec.ExitError
			require.ErrorAs(t, err, &exit, "stderr: %s", stderr.String())
			assert.Equal(t, 1, exit.ExitCode())
			assert.NotContains(t, stderr.String(), "serving")
			assert.Contains(t, stderr.String(), tc.want)
			assert.Empty(t, stdout.String())
		})
	}
}

// TestSignals builds the command and stops it with SIGTERM and SIGINT
// while a client is connected over HTTP: it must exit 0.
func TestSignals(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("no SIGTERM on Windows")
	}
	bin, err := buildBinary()
	require.NoError(t, err)
	for _, sig := range []os.Signal{syscall.SIGTERM, os.Interrupt} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			cmd := exec.CommandContext(t.Context(), bin, "-http", "127.0.0.1:0")
			stderr, err := cmd.StderrPipe()
			require.NoError(t, err)
			require.NoError(t, cmd.Start())
			lines := make(chan string, 64)
			go func() {
				sc := bufio.NewScanner(stderr)
				for sc.Scan() {
					lines <- sc.Text()
				}
				close(lines)
			}()
			url := awaitURL(t, lines)
			cs, err := newClient().Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: url}, nil)
			require.NoError(t, err)
			defer cs.Close()
			_, err = cs.ListTools(t.Context(), nil)
			require.NoError(t, err)

			require.NoError(t, cmd.Process.Signal(sig))
			var rest []string
			for line := range lines {
				rest = append(rest, line)
			}
			require.NoError(t, cmd.Wait(), "stderr: %q", rest)
			assert.Contains(t, rest, "mcpserver: shut down")
		})
	}
}

// TestTokens serves HTTP with a tokens file: a request without a token is
// refused, and each token's principal is listed the tools its permissions
// allow and refused the others.
func TestTokens(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "tokens.txt")
	require.NoError(t, os.WriteFile(file, []byte("# test tokens\n\nana-secret-token ana notes.read,notes.write\nben-secret-token ben notes.read\n"), 0o600))
	ctx, stop := context.WithCancel(t.Context())
	defer stop()
	stderr := &lineWriter{lines: make(chan string, 64)}
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"-http", "127.0.0.1:0", "-tokens", file}, nil, io.Discard, stderr) }()
	url := awaitURL(t, stderr.lines)

	_, err := newClient().Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: url}, nil)
	require.Error(t, err, "no token, no session")

	listed := map[string][]string{}
	for _, who := range []string{"ana", "ben"} {
		cs, err := newClient().Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: bearer(who + "-secret-token")}, nil)
		require.NoError(t, err)
		res, err := cs.ListTools(t.Context(), nil)
		require.NoError(t, err)
		for _, tl := range res.Tools {
			listed[who] = append(listed[who], tl.Name)
		}
		_, err = cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "notes_tag", Arguments: map[string]any{"id": "n1", "add": []string{"x"}}})
		if who == "ben" {
			require.Error(t, err, "ben may not tag")
			assert.Contains(t, err.Error(), "unknown tool")
		} else {
			require.NoError(t, err)
		}
		require.NoError(t, cs.Close())
	}
	assert.Contains(t, listed["ana"], "notes_tag")
	assert.NotContains(t, listed["ben"], "notes_tag")
	assert.Contains(t, listed["ben"], "notes_search")
	assert.Less(t, len(listed["ben"]), len(listed["ana"]))

	http.DefaultClient.CloseIdleConnections()
	stop()
	select {
	case err := <-done:
		assert.NoError(t, err)
	case <-time.After(waitLimit):
		t.Fatal("the server did not shut down")
	}
}

// bearer returns an HTTP client sending token.
func bearer(token string) *http.Client {
	return &http.Client{Transport: bearerTransport(token)}
}

type bearerTransport string

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+string(b))
	return http.DefaultTransport.RoundTrip(r)
}

// TestConfirmStdio runs the server with -confirm over stdio: a client that
// elicits is asked, and the note is deleted once the person accepts.
func TestConfirmStdio(t *testing.T) {
	t.Parallel()
	clientIn, serverOut := io.Pipe()
	serverIn, clientOut := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(t.Context(), []string{"-confirm"}, serverIn, serverOut, io.Discard)
		serverOut.Close()
	}()
	var mu sync.Mutex
	var asked []string
	client := mcp.NewClient(&mcp.Implementation{Name: "example-test", Version: "1"}, &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			mu.Lock()
			defer mu.Unlock()
			asked = append(asked, req.Params.Message)
			return &mcp.ElicitResult{Action: "accept"}, nil
		},
	})
	cs, err := client.Connect(t.Context(), &mcp.IOTransport{Reader: clientIn, Writer: clientOut}, nil)
	require.NoError(t, err)
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "notes_delete", Arguments: map[string]any{"id": "n2"}})
	require.NoError(t, err)
	require.False(t, res.IsError, "%v", res.Content)
	out, _ := res.StructuredContent.(map[string]any)
	assert.Equal(t, "confirmed", out["status"])
	mu.Lock()
	require.Len(t, asked, 1)
	assert.Contains(t, asked[0], "Delete this note? This cannot be undone.")
	mu.Unlock()
	gone, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "notes_get", Arguments: map[string]any{"id": "n2"}})
	require.NoError(t, err)
	assert.True(t, gone.IsError, "the note is deleted")
	require.NoError(t, cs.Close())
	select {
	case err := <-done:
		assert.NoError(t, err)
	case <-time.After(waitLimit):
		t.Fatal("the server did not stop when the client left")
	}
}
