package mcpserver_test

import (
	"context"
	"encoding/json"
	"flag"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/examples/demo"
	"github.com/toolgen-go/toolgen/generated"
	"github.com/toolgen-go/toolgen/runtime/mcpserver"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/tools/notes"
)

// appShot, when set, is the PNG the browser test writes of the test host
// with both sample apps drawn (the README's picture): go test -run
// TestAppsInBrowser ./runtime/mcpserver -args -app-shot=$PWD/runtime/mcpserver/testdata/apps.png
var appShot = flag.String("app-shot", "", "write a screenshot of the sample apps in the test host to this PNG file")

// apphostDir holds the test host page: a node package pinning
// @modelcontextprotocol/ext-apps (AppBridge), the TypeScript SDK v2 client
// and esbuild, which bundles host.js for the page.
const apphostDir = "testdata/apphost"

// requireAppHost returns the path of node after checking the host's node
// packages are installed (make test installs them; CI must have them).
func requireAppHost(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("the apps browser test drives Chromium: run without -short")
	}
	for _, dep := range []string{"@modelcontextprotocol/ext-apps", "@modelcontextprotocol/client", "esbuild"} {
		if _, err := os.Stat(filepath.Join(apphostDir, "node_modules", filepath.FromSlash(dep), "package.json")); err != nil {
			if os.Getenv("CI") == "" {
				t.Skipf("apps: node_modules/%s is absent: run `npm ci` in %s (or `make test`) to run the MCP Apps browser test (CI always runs it)", dep, apphostDir)
			}
			t.Fatalf("apps: CI is set but node_modules/%s is absent (is `npm ci` in %s missing from .ci/run?): %v", dep, apphostDir, err)
		}
	}
	node, err := exec.LookPath("node")
	require.NoError(t, err, "node_modules is installed but node is not on PATH")
	return node
}

// hostPage bundles host.js and returns the directory the page is served
// from: index.html and the bundle.
func hostPage(t *testing.T, node string) string {
	t.Helper()
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "build.mjs", filepath.Join(dir, "host.js"))
	cmd.Dir = apphostDir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "bundle the host page:\n%s", out)
	page, err := os.ReadFile(filepath.Join(apphostDir, "index.html"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "index.html"), page, 0o644))
	return dir
}

// frameContexts follows the default JavaScript context of every frame of
// a tab, by frame ID.
type frameContexts struct {
	mu  sync.Mutex
	ids map[string]runtime.ExecutionContextID
}

func (f *frameContexts) created(e runtime.EventExecutionContextCreated) {
	var aux struct {
		FrameID   string `json:"frameId"`
		IsDefault bool   `json:"isDefault"`
	}
	if e.Context != nil && json.Unmarshal(e.Context.AuxData, &aux) == nil && aux.IsDefault {
		f.mu.Lock()
		f.ids[aux.FrameID] = e.Context.ID
		f.mu.Unlock()
	}
}

func (f *frameContexts) of(frame string) (runtime.ExecutionContextID, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	id, ok := f.ids[frame]
	return id, ok
}

// TestAppsInBrowser renders the sample apps in Chromium with the official
// host side: the test host page (AppBridge over the TypeScript SDK v2
// client) connects to the server over HTTP as ana, calls notes_render and
// notes_search as a model would, and renders each tool's app in a
// sandboxed iframe under the CSP its resource declares. The test checks
// in each app's own document that it received the tool's input and
// result and drew them in the host's dark theme (and follow it to light
// and back), clicks a search result
// so that the app calls notes_get through the host, finds that call in
// the service's record as the app's, and checks that a fetch to an origin
// the app did not declare is blocked by the CSP before it leaves the
// browser.
func TestAppsInBrowser(t *testing.T) {
	node := requireAppHost(t)
	chromium := appChromium(t)
	dir := hostPage(t, node)

	reg, err := generated.New(demo.All(notes.NewDemoStore(), demo.FixedClock(time.Date(2025, 3, 20, 12, 0, 0, 0, time.UTC))))
	require.NoError(t, err)
	svc, err := service.New(reg, nil)
	require.NoError(t, err)
	srv, err := mcpserver.New(svc, &mcpserver.Options{Name: "notes"})
	require.NoError(t, err)
	t.Cleanup(func() { _ = srv.Close() })
	const token = "ana-0123456789abcdef0123456789"
	h, err := srv.Handler(&mcpserver.HTTPOptions{Auth: &mcpserver.Auth{Verifier: mcpserver.StaticTokens(map[string]tool.Principal{
		token: {ID: "ana", Permissions: []string{"notes.read"}},
	})}})
	require.NoError(t, err)
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	mux.Handle("/", http.FileServer(http.Dir(dir)))
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)

	// An origin no app declares: a request reaching it was not blocked.
	var probes atomic.Int64
	probe := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		probes.Add(1)
		w.Header().Set("Access-Control-Allow-Origin", "*")
		_, _ = w.Write([]byte("reached"))
	}))
	t.Cleanup(probe.Close)

	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium), chromedp.NoSandbox, chromedp.WindowSize(1000, 640), chromedp.Flag("lang", "en-US"),
		// Keep the sandboxed iframes in the page's process, where the
		// test reaches their documents (Chromium otherwise puts them in
		// processes of their own, other DevTools targets).
		chromedp.Flag("disable-features", "IsolateSandboxedIframes"), chromedp.Flag("disable-site-isolation-trials", true))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() {
		cancel()
		cancelAlloc()
	})
	require.NoError(t, chromedp.Do(ctx), "start Chromium")
	frames := &frameContexts{ids: map[string]runtime.ExecutionContextID{}}
	go func() {
		for ev, err := range chromedp.Events(ctx, runtime.ExecutionContextCreated) {
			if err != nil {
				return
			}
			frames.created(ev)
		}
	}()
	var cmu sync.Mutex
	var thrown []string
	go func() {
		for ev, err := range chromedp.Events(ctx, runtime.ExceptionThrown) {
			if err != nil {
				return
			}
			cmu.Lock()
			thrown = append(thrown, ev.ExceptionDetails.Text)
			cmu.Unlock()
		}
	}()
	step := func(name string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		sctx, scancel := context.WithTimeout(ctx, 60*time.Second)
		defer scancel()
		require.NoError(t, chromedp.Do(sctx, actions...), name)
	}
	eval := func(expr string, out any) {
		t.Helper()
		sctx, scancel := context.WithTimeout(ctx, 60*time.Second)
		defer scancel()
		v, err := chromedp.Run(sctx, chromedp.Evaluate[json.RawMessage](expr, chromedp.EvalAwaitPromise))
		require.NoError(t, err, expr)
		require.NoError(t, json.Unmarshal(v, out), expr)
	}
	step("open the host page", chromedp.Navigate(ts.URL+"/index.html"))
	require.Eventually(t, func() bool {
		var ok bool
		eval(`typeof window.renderApp === "function"`, &ok)
		return ok
	}, 30*time.Second, 50*time.Millisecond, "the host page's script loads")

	render := func(tool string, args map[string]any) {
		t.Helper()
		in, err := json.Marshal(map[string]any{"token": token, "tool": tool, "args": args, "theme": "dark"})
		require.NoError(t, err)
		var id string
		eval(`window.renderApp(`+string(in)+`)`, &id)
		require.Equal(t, "app-"+tool, id)
	}
	// inApp evaluates expr in the document of the app of tool.
	inApp := func(tool, expr string, out any) {
		t.Helper()
		sctx, scancel := context.WithTimeout(ctx, 60*time.Second)
		defer scancel()
		tree, err := chromedp.Call(sctx, page.GetFrameTree, cdp.Empty{})
		require.NoError(t, err)
		// The child frames, in document order, are the apps'.
		var order []string
		eval(`[...document.querySelectorAll("iframe")].map(f => f.title)`, &order)
		var frame string
		for i, name := range order {
			if name == tool && i < len(tree.FrameTree.ChildFrames) {
				frame = string(tree.FrameTree.ChildFrames[i].Frame.ID)
			}
		}
		require.NotEmpty(t, frame, "the frame of %s", tool)
		var cid runtime.ExecutionContextID
		require.Eventually(t, func() bool {
			var ok bool
			cid, ok = frames.of(frame)
			return ok
		}, 30*time.Second, 50*time.Millisecond, "the JavaScript context of %s's app", tool)
		yes := true
		res, err := chromedp.Call(sctx, runtime.Evaluate, runtime.EvaluateParams{Expression: expr, ContextID: cid, AwaitPromise: &yes, ReturnByValue: &yes})
		require.NoError(t, err, expr)
		require.Nil(t, res.ExceptionDetails, expr)
		require.NoError(t, json.Unmarshal(res.Result.Value, out), expr)
	}
	waitApp := func(tool, expr string) {
		t.Helper()
		require.Eventually(t, func() bool {
			var ok bool
			inApp(tool, expr, &ok)
			return ok
		}, 30*time.Second, 100*time.Millisecond, "%s: %s", tool, expr)
	}

	// notes_render: the card drew the note the tool rendered.
	render("notes_render", map[string]any{"id": "n1"})
	waitApp("notes_render", `document.body.getAttribute("data-drawn") === "result"`)
	var card struct {
		Input, Title, Theme, Footer string
	}
	inApp("notes_render", `({input: document.body.getAttribute("data-input"), title: document.getElementById("title").textContent,
		theme: document.documentElement.getAttribute("data-theme"), footer: document.getElementById("footer").textContent})`, &card)
	assert.JSONEq(t, `{"id":"n1"}`, card.Input, "the app received the tool's input")
	assert.Equal(t, "Go generics cheat sheet", card.Title, "the app drew the tool's result")
	assert.Equal(t, "dark", card.Theme, "the host's theme")
	assert.Contains(t, card.Footer, "revision")

	// notes_search: the list, then a click that opens a note through the
	// host.
	render("notes_search", map[string]any{"query": "go"})
	waitApp("notes_search", `document.body.getAttribute("data-drawn") === "result"`)
	var list struct {
		Input string
		IDs   []string
	}
	inApp("notes_search", `({input: document.body.getAttribute("data-input"), ids: [...document.querySelectorAll("button[data-id]")].map(b => b.dataset.id)})`, &list)
	assert.JSONEq(t, `{"query":"go"}`, list.Input)
	require.NotEmpty(t, list.IDs, "the app listed the results")
	target := list.IDs[0]

	// A real click, at the button's place in the page.
	var frameBox, buttonBox struct{ X, Y, W, H float64 }
	eval(`(() => { const r = document.getElementById("app-notes_search").getBoundingClientRect(); return {x: r.x, y: r.y, w: r.width, h: r.height} })()`, &frameBox)
	inApp("notes_search", `(() => { const r = document.querySelector("button[data-id]").getBoundingClientRect(); return {x: r.x, y: r.y, w: r.width, h: r.height} })()`, &buttonBox)
	step("click the first result", chromedp.MouseClickXY(frameBox.X+buttonBox.X+buttonBox.W/2, frameBox.Y+buttonBox.Y+buttonBox.H/2))
	waitApp("notes_search", `document.body.getAttribute("data-opened") === `+jsString(target))
	var opened string
	inApp("notes_search", `document.getElementById("note-title").textContent`, &opened)
	assert.NotEmpty(t, opened)

	recs, err := svc.Records(t.Context(), service.Query{Tool: "notes_get"})
	require.NoError(t, err)
	require.Len(t, recs, 1, "the app's call went through the call service")
	assert.Equal(t, "ana", recs[0].Principal)
	assert.Equal(t, mcpserver.AppURI("notes", "notes_search"), recs[0].Agent, "recorded as the app's call")
	assert.Contains(t, string(recs[0].Args), target)

	// The CSP the app declared (no connect domains) blocks a fetch to
	// another origin before it leaves the browser.
	var blocked string
	inApp("notes_search", `new Promise(resolve => {
		document.addEventListener("securitypolicyviolation", e => resolve("csp " + e.effectiveDirective));
		fetch(`+jsString(probe.URL+"/probe")+`, {mode: "no-cors"}).then(() => resolve("fetched"), () => {});
		setTimeout(() => resolve("timeout"), 5000);
	})`, &blocked)
	assert.Equal(t, "csp connect-src", blocked)
	assert.Zero(t, probes.Load(), "nothing reached the undeclared origin")

	// The host switches to its light theme: each app follows.
	var none any
	eval(`window.setTheme("light")`, &none)
	waitApp("notes_render", `document.documentElement.getAttribute("data-theme") === "light"`)
	waitApp("notes_search", `document.documentElement.getAttribute("data-theme") === "light"`)
	var bg string
	inApp("notes_render", `getComputedStyle(document.body).backgroundColor`, &bg)
	assert.Equal(t, "rgb(255, 255, 255)", bg, "the card's light background")
	eval(`window.setTheme("dark")`, &none)
	waitApp("notes_search", `document.documentElement.getAttribute("data-theme") === "dark"`)

	if *appShot != "" {
		sctx, scancel := context.WithTimeout(ctx, 60*time.Second)
		defer scancel()
		png, err := chromedp.Run(sctx, chromedp.FullScreenshot(100))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(*appShot, png, 0o644))
	}
	cmu.Lock()
	assert.Empty(t, thrown, "no uncaught exception in the host or the apps")
	cmu.Unlock()
}

// appChromium returns the Chromium binary (Debian's package; .ci/run
// installs it), failing when it is missing.
func appChromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Fatal("the apps browser test needs Chromium, and none is on PATH: install it (Debian: apt-get install chromium, as .ci/run does), or run the other tests with go test -short")
	return ""
}

// jsString is s as a JavaScript string literal.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
