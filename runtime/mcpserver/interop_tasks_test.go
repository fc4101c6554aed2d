package mcpserver_test

// The Tasks interoperability test drives two processes of
// examples/mcpserver (-http -stateless), sharing one throwaway
// PostgreSQL database (-store), with the official Tasks requester,
// @modelcontextprotocol/ext-tasks over the TypeScript SDK's v2 client
// (testdata/interop/tasks.mjs, pinned in package-lock.json): a task
// started on the first process is polled to completion on the second, a
// task running on the first is cancelled through the second (the first
// process's log shows the tool's context ended: the record says
// cancelled), a propose tool's task goes input_required → accepted →
// completed, and the same kind of proposal is confirmed in the console
// (runtime/console, in this process, on the same database) with Chromium
// while the requester polls.

import (
	"bufio"
	"context"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/examples/demo"
	"github.com/toolgen-go/toolgen/runtime/console"
	"github.com/toolgen-go/toolgen/runtime/internal/pgtest"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/service/pgstore"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// waitingLine is what tasks.mjs console prints once its task waits for
// the person.
var waitingLine = regexp.MustCompile(`^WAITING (\S+)$`)

// callRecord matches a record of a clock_wait call in a server's log.
var callRecord = regexp.MustCompile(`msg="mcpserver: record" event=call tool=clock_wait `)

func TestInteropTasks(t *testing.T) {
	node := requireNode(t)
	bin := buildExample(t)
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	pg, err := pgtest.Start(ctx)
	cancel()
	if err != nil {
		pgtest.Fail(t, err)
	}
	t.Cleanup(pg.Remove)
	dsn := pg.NewSchema(t)

	args := []string{"-stateless", "-store", dsn, "-v"}
	url1, stop1, log1 := startHTTPLogged(t, bin, args...)
	url2, stop2, log2 := startHTTPLogged(t, bin, args...)

	t.Run("resume on a second process", func(t *testing.T) {
		runNode(t, node, "tasks.mjs", "resume", url1, url2)
		assert.Regexp(t, waitedRecord, log1(), "clock_wait ran in the first process, to its end")
		assert.NotRegexp(t, callRecord, log2(), "the second process only answered for the task")
	})

	t.Run("cancel from a second process", func(t *testing.T) {
		runNode(t, node, "tasks.mjs", "cancel", url1, url2)
		// The first process writes the record once the tool stopped.
		deadline := time.Now().Add(scriptLimit)
		for !cancelledRecord.MatchString(log1()) && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		requireCancelled(t, log1())
		assert.NotRegexp(t, callRecord, log2(), "the tool ran in the first process only")
	})

	t.Run("propose accepted", func(t *testing.T) {
		runNode(t, node, "tasks.mjs", "propose", url2)
	})

	t.Run("propose confirmed in the console", func(t *testing.T) {
		consoleConfirms(t, node, url1, dsn)
	})

	stop1()
	stop2()
}

// consoleConfirms runs tasks.mjs console against url and, once its task
// waits for the person, confirms the proposal in the console (on the
// store at dsn) with Chromium, as the person "local" (the example's
// principal) does.
func consoleConfirms(t *testing.T, node, url, dsn string) {
	chromium := browserPath(t)
	const token = "interop-console-3c9e1f"
	reg, err := demo.Registry()
	require.NoError(t, err)
	st, err := pgstore.Open(t.Context(), dsn, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	svc, err := service.New(reg, &service.Options{Store: st})
	require.NoError(t, err)
	c, err := console.New(svc, &console.Options{
		Principal: console.BearerTokens(map[string]tool.Principal{token: {ID: "local", Permissions: []string{"notes.read", "notes.write", "notes.delete", "notes.share"}}}),
		Key:       []byte("interop-console-key-0123456789abcdef"),
	})
	require.NoError(t, err)
	mux := http.NewServeMux()
	mux.Handle("/console/", http.StripPrefix("/console", c))
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)

	ctx, cancel := context.WithTimeout(t.Context(), scriptLimit)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "tasks.mjs", "console", url)
	cmd.Dir = interopDir
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	var out strings.Builder
	var mu sync.Mutex
	cmd.Stderr = writerFunc(func(p []byte) {
		mu.Lock()
		out.Write(p)
		mu.Unlock()
	})
	require.NoError(t, cmd.Start())
	waiting := make(chan string, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			mu.Lock()
			out.WriteString(sc.Text() + "\n")
			mu.Unlock()
			if m := waitingLine.FindStringSubmatch(sc.Text()); m != nil {
				waiting <- m[1]
			}
		}
	}()
	logOut := func() string {
		mu.Lock()
		defer mu.Unlock()
		return out.String()
	}
	var id string
	select {
	case id = <-waiting:
	case <-done:
		_ = cmd.Wait()
		t.Fatalf("tasks.mjs console ended before its task waited:\n%s", logOut())
	case <-ctx.Done():
		t.Fatalf("tasks.mjs console: no task waited:\n%s", logOut())
	}

	// The person confirms the proposal (the task's ID is the proposal's)
	// in the console.
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chromium), chromedp.NoSandbox, chromedp.Flag("lang", "en-US"))
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	defer cancelAlloc()
	bctx, cancelBrowser := chromedp.NewContext(actx)
	defer cancelBrowser()
	card := `[data-proposal="` + id + `"]`
	require.NoError(t, chromedp.Do(bctx,
		chromedp.Navigate(ts.URL+"/console/"),
		chromedp.WaitVisible(chromedp.ID("token")),
		chromedp.SendKeys(chromedp.ID("token"), token),
		chromedp.Click(chromedp.CSS(`button.confirm`)),
		chromedp.WaitVisible(chromedp.CSS(card)),
		chromedp.Click(chromedp.CSS(card+" button.confirm")),
		chromedp.WaitVisible(chromedp.ID("notice")),
	), "confirm %s in the console", id)
	notice, err := chromedp.Run(bctx, chromedp.Text(chromedp.ID("notice")))
	require.NoError(t, err)
	assert.Equal(t, "Confirmed: it ran.", notice)

	<-done
	err = cmd.Wait()
	t.Logf("node tasks.mjs console:\n%s", logOut())
	require.NoError(t, err, "tasks.mjs console failed")
	recs, err := svc.Records(t.Context(), service.Query{Proposal: id})
	require.NoError(t, err)
	var events []string
	for _, r := range recs {
		events = append(events, string(r.Event))
	}
	assert.ElementsMatch(t, []string{string(service.EventProposal), string(service.EventConfirmation)}, events, "proposed once, confirmed once (in the console)")
}

// browserPath returns the Chromium binary, skipping the console step
// under -short (as runtime/console's browser tests skip); without -short
// it fails when none is installed (.ci/run installs it).
func browserPath(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("the console step drives Chromium: run without -short")
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Fatal("the console step of the Tasks interop test needs Chromium (Debian: apt-get install chromium)")
	return ""
}

// writerFunc is an io.Writer calling f.
type writerFunc func(p []byte)

// Write implements io.Writer.
func (f writerFunc) Write(p []byte) (int, error) {
	f(p)
	return len(p), nil
}
