package console_test

import (
	"context"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/console"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// The browser tests drive Chromium (Debian's package: apt-get install
// chromium; .ci/run installs it) through the console as a person does.
// They run unless -short; without the browser they fail and say so. A
// test that fails writes a screenshot of each tab to testdata/out (which
// git ignores) and logs where.

// shots, when set, is a directory the screenshots test writes the pages
// to, light, dark and at phone width: go test -run TestBrowserLooks
// ./runtime/console -args -shots=DIR.
var shots = flag.String("shots", "", "write screenshots of the console's pages to this directory")

// stepTimeout bounds each step of a browser test.
const stepTimeout = 30 * time.Second

// chromiumPath returns the Chromium binary, skipping under -short and
// failing when it is missing.
func chromiumPath(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("the browser tests drive Chromium: run without -short")
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Fatal("the browser tests need Chromium, and none is on PATH: install it (Debian: apt-get install chromium, " +
		"as .ci/run does), or run the other tests with go test -short")
	return ""
}

// liveEnv is a console on the real clock (the browser's countdown reads
// it), mounted at /console/ of a test server.
func liveEnv(t *testing.T) *env {
	t.Helper()
	e := &env{f: newFixture(t)}
	svc, err := service.New(e.f.reg, nil)
	require.NoError(t, err)
	e.svc = svc
	e.c, err = console.New(svc, &console.Options{
		Principal:          console.BearerTokens(map[string]tool.Principal{anaToken: ana, benToken: ben, olgaToken: olga}),
		Key:                key,
		OperatorPermission: "console.operator",
	})
	require.NoError(t, err)
	e.url = mount(t, e.c)
	return e
}

// tab is one browser tab of a test.
type tab struct {
	t    *testing.T
	ctx  context.Context
	name string
}

// newBrowser starts Chromium and returns its first tab. Any JavaScript
// dialog (an alert an injected script would open) fails the test.
func newBrowser(t *testing.T) *tab {
	t.Helper()
	path := chromiumPath(t)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.WindowSize(1280, 900), chromedp.Flag("lang", "en-US"))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() {
		cancel()
		cancelAlloc()
	})
	require.NoError(t, chromedp.Do(ctx), "start Chromium") // without a timeout: it lives as long as ctx
	return newTab(t, ctx, "tab1")
}

// newTab returns a tab of ctx's browser; name names its screenshot.
func newTab(t *testing.T, browser context.Context, name string) *tab {
	t.Helper()
	ctx, cancel := chromedp.NewContext(browser)
	require.NoError(t, chromedp.Do(ctx))
	tb := &tab{t: t, ctx: ctx, name: name}
	dialogs := chromedp.Events(ctx, page.JavascriptDialogOpening)
	go func() {
		for ev, err := range dialogs {
			if err != nil {
				return
			}
			t.Errorf("%s: a JavaScript dialog opened: %q", name, ev.Message)
			_, _ = chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: true})
		}
	}()
	// Registered after the browser's: runs before it closes.
	t.Cleanup(func() {
		if t.Failed() {
			tb.screenshot("failed")
		}
		cancel()
	})
	return tb
}

// do runs steps in the tab, each bounded.
func (tb *tab) do(steps ...chromedp.Action[chromedp.Void]) {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, stepTimeout)
	defer cancel()
	require.NoError(tb.t, chromedp.Do(ctx, steps...))
}

// text returns the visible text of the element sel selects.
func (tb *tab) text(sel string) string {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, stepTimeout)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
	require.NoError(tb.t, err, sel)
	return s
}

// eval evaluates a JavaScript expression in the page.
func eval[T any](tb *tab, expr string) T {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, stepTimeout)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	require.NoError(tb.t, err, expr)
	return v
}

// screenshot writes the tab's page to testdata/out and logs where.
func (tb *tab) screenshot(what string) {
	ctx, cancel := context.WithTimeout(tb.ctx, stepTimeout)
	defer cancel()
	buf, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		tb.t.Logf("screenshot of %s: %v", tb.name, err)
		return
	}
	name := regexp.MustCompile(`[^A-Za-z0-9_.-]+`).ReplaceAllString(tb.t.Name()+"-"+tb.name+"-"+what, "_") + ".png"
	if err := os.MkdirAll(filepath.Join("testdata", "out"), 0o755); err == nil {
		path := filepath.Join("testdata", "out", name)
		if err := os.WriteFile(path, buf, 0o644); err == nil {
			abs, _ := filepath.Abs(path)
			tb.t.Logf("screenshot of %s: %s", tb.name, abs)
			return
		}
	}
	tb.t.Logf("screenshot of %s could not be written", tb.name)
}

// signIn signs the tab in with the console's form.
func (tb *tab) signIn(e *env, token string) {
	tb.t.Helper()
	tb.do(
		chromedp.Navigate(e.url),
		chromedp.WaitVisible(chromedp.ID("token")), // sent to sign in
		chromedp.SendKeys(chromedp.ID("token"), token),
		chromedp.Click(chromedp.CSS(`button.confirm`)),
		chromedp.WaitVisible(chromedp.CSS(`#pending, #none-pending`)),
	)
}

// waitScript waits for the console's script to have run: it marks the
// document.
var waitScript = chromedp.Poll[chromedp.Void](`document.documentElement.classList.contains("js")`)

// card selects a proposal's card.
func card(id string) string { return `[data-proposal="` + id + `"]` }

// doubleClick clicks the element sel selects twice in a row, as a person
// double-clicking does: two presses, the second with a click count of 2.
func (tb *tab) doubleClick(sel string) {
	tb.t.Helper()
	type point struct{ X, Y float64 }
	p := eval[point](tb, `(() => { const r = document.querySelector(`+jsString(sel)+`).getBoundingClientRect();
		return {X: r.x + r.width / 2, Y: r.y + r.height / 2}; })()`)
	tb.do(chromedp.MouseClickXY(p.X, p.Y), chromedp.MouseClickXY(p.X, p.Y, chromedp.ClickCount(2)))
}

// jsString quotes s for JavaScript.
func jsString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// confirmations counts the proposal's confirmations that ran, from the
// record.
func confirmations(t *testing.T, e *env, id string) int {
	t.Helper()
	recs, err := e.svc.Records(t.Context(), service.Query{Proposal: id})
	require.NoError(t, err)
	n := 0
	for _, r := range recs {
		if r.Event == service.EventConfirmation {
			n++
		}
	}
	return n
}

// TestBrowserProposeConfirmRecord is the flow: a model proposes, the
// proposals page shows it, the person clicks Confirm, the page shows the
// outcome and the record shows it ran once.
func TestBrowserProposeConfirmRecord(t *testing.T) {
	e := liveEnv(t)
	tb := newBrowser(t)
	tb.signIn(e, anaToken)
	assert.Equal(t, "Nothing is waiting for your decision.", tb.text("#none-pending"))

	id := e.propose(t, ana, "files_delete", "/tmp/report.txt")
	tb.do(chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(card(id))))
	got := tb.text(card(id))
	assert.Contains(t, got, "Delete this file? (files_delete)")
	assert.Contains(t, got, `"passphrase": "[secret]"`)
	assert.NotContains(t, got, secret)
	tb.do(waitScript) // the console's script runs under its CSP
	assert.Regexp(t, `^1[45]m \d\ds left$`, tb.text(card(id)+" .countdown"), "the countdown, from the script")

	tb.do(chromedp.Click(chromedp.CSS(card(id)+" button.confirm")), chromedp.WaitVisible(chromedp.ID("notice")))
	assert.Equal(t, "Confirmed: it ran.", tb.text("#notice"))
	assert.Equal(t, "ok", tb.text("#outcome-value"))
	assert.Equal(t, "done with /tmp/report.txt", tb.text("pre.result"))
	assert.EqualValues(t, 1, e.f.runs[tDelete].Load())

	tb.do(chromedp.Click(chromedp.CSS(`nav a[href$="record"]`)), chromedp.WaitVisible(chromedp.ID("record")))
	events := eval[[]string](tb, `[...document.querySelectorAll("#record tbody tr")].map(r => r.dataset.event + " " + r.dataset.tool + " " + r.dataset.outcome)`)
	assert.Equal(t, []string{"confirmation files_delete ok", "proposal files_delete ok"}, events, "ran once")

	tb.do(chromedp.Navigate(e.url))
	assert.Equal(t, "Nothing is waiting for your decision.", tb.text("#none-pending"))
}

// TestBrowserDoubleClickConfirmsOnce double-clicks Confirm, with the
// page's script and without it (then both clicks post): the proposal runs
// once.
func TestBrowserDoubleClickConfirmsOnce(t *testing.T) {
	e := liveEnv(t)
	tb := newBrowser(t)
	tb.signIn(e, anaToken)
	for _, script := range []bool{true, false} {
		_, err := chromedp.Call(tb.ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: !script})
		require.NoError(t, err)
		id := e.propose(t, ana, "files_delete", "/tmp/double")
		before := e.f.runs[tDelete].Load()
		tb.do(chromedp.Navigate(e.url), chromedp.WaitVisible(chromedp.CSS(card(id))))
		if script {
			tb.do(waitScript)
		}
		tb.doubleClick(card(id) + " button.confirm")
		tb.do(chromedp.WaitVisible(chromedp.ID("notice")))
		assert.Equal(t, "done", eval[string](tb, `document.getElementById("state").textContent`), "script %t", script)
		assert.Contains(t, []string{"Confirmed: it ran.", "Nothing ran now: this proposal had already been decided."}, tb.text("#notice"))
		assert.Equal(t, before+1, e.f.runs[tDelete].Load(), "script %t: ran once", script)
		assert.Equal(t, 1, confirmations(t, e, id), "script %t", script)
		if script {
			recs, err := e.svc.Records(t.Context(), service.Query{Proposal: id})
			require.NoError(t, err)
			assert.Len(t, recs, 2, "the script posts once: the proposal and its confirmation, no refusal")
		}
	}
}

// TestBrowserTwoTabsConfirmOnce confirms one proposal from two tabs, one
// after the other and at once: it runs once, and the other tab says so.
func TestBrowserTwoTabsConfirmOnce(t *testing.T) {
	e := liveEnv(t)
	one := newBrowser(t)
	one.signIn(e, anaToken)
	two := newTab(t, one.ctx, "tab2") // the same browser: signed in too

	id := e.propose(t, ana, "files_delete", "/tmp/tabs")
	for _, tb := range []*tab{one, two} {
		tb.do(chromedp.Navigate(e.url+"proposals/"+id), chromedp.WaitVisible(chromedp.CSS(card(id)+" button.confirm")))
	}
	one.do(chromedp.Click(chromedp.CSS(card(id)+" button.confirm")), chromedp.WaitVisible(chromedp.ID("notice")))
	assert.Equal(t, "Confirmed: it ran.", one.text("#notice"))
	two.do(chromedp.Click(chromedp.CSS(card(id)+" button.confirm")), chromedp.WaitVisible(chromedp.ID("notice")))
	assert.Equal(t, "Nothing ran now: this proposal had already been decided.", two.text("#notice"))
	assert.Equal(t, "done", eval[string](two, `document.getElementById("state").textContent`))
	assert.EqualValues(t, 1, e.f.runs[tDelete].Load())

	// At once.
	id = e.propose(t, ana, "files_delete", "/tmp/tabs-2")
	for _, tb := range []*tab{one, two} {
		tb.do(chromedp.Navigate(e.url+"proposals/"+id), chromedp.WaitVisible(chromedp.CSS(card(id)+" button.confirm")))
	}
	var wg sync.WaitGroup
	notices := make([]string, 2)
	for i, tb := range []*tab{one, two} {
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(tb.ctx, stepTimeout)
			defer cancel()
			err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(card(id)+" button.confirm")), chromedp.WaitVisible(chromedp.ID("notice")))
			if assert.NoError(t, err) {
				notices[i], _ = chromedp.Run(ctx, chromedp.Text(chromedp.ID("notice")))
			}
		})
	}
	wg.Wait()
	assert.ElementsMatch(t, []string{"Confirmed: it ran.", "Nothing ran now: this proposal had already been decided."}, notices)
	assert.EqualValues(t, 2, e.f.runs[tDelete].Load())
	assert.Equal(t, 1, confirmations(t, e, id))
}

// TestBrowserAttacks opens every page holding a <script> (in arguments, a
// description, a tool's error, a conversation) and another person's
// proposal: no script runs (no dialog opens) and nothing is shown.
func TestBrowserAttacks(t *testing.T) {
	e := liveEnv(t)
	pending := e.propose(t, ana, "files_delete", attack)
	failed := e.propose(t, ana, "files_fail", attack)
	_, err := e.svc.Confirm(as(ana, "chat-1"), failed, ana)
	require.Error(t, err)
	_, err = e.svc.Call(as(ana, attack), "files_touch", []byte(`{"path":"/x"}`))
	require.NoError(t, err)

	tb := newBrowser(t)
	tb.signIn(e, anaToken)
	for _, path := range []string{"", "proposals/" + pending, "proposals/" + failed, "record", "catalog"} {
		tb.do(chromedp.Navigate(e.url+path), chromedp.WaitVisible(chromedp.CSS("main")))
		assert.Equal(t, 1, eval[int](tb, `document.scripts.length`), "%s: only the console's script", path)
		assert.Zero(t, eval[int](tb, `document.querySelectorAll("main b, main script").length`), "%s: nothing injected", path)
		if path == "proposals/"+failed {
			assert.Equal(t, "Fail <b>now</b>? (files_fail)", tb.text("h1"), "a confirm text, as text")
		}
		assert.Contains(t, eval[string](tb, `document.querySelector("main").innerText`), `<script>alert(`, "%s: shown as text", path)
	}

	// ben, with ana's proposal ID, sees what an unknown ID shows.
	ben := newBrowser(t)
	ben.signIn(e, benToken)
	ben.do(chromedp.Navigate(e.url+"proposals/"+pending), chromedp.WaitVisible(chromedp.ID("problem")))
	assert.Equal(t, "no proposal "+pending+" is open to you", ben.text("#problem"))
	assert.NotContains(t, eval[string](ben, `document.body.innerText`), "files_delete")
	assert.Zero(t, e.f.runs[tDelete].Load())
}

// TestBrowserLooks renders the pages light, dark and at phone width:
// the dark scheme is dark, and at phone width nothing is wider than the
// screen (the record's table scrolls in its own box). With -shots it
// writes the screenshots.
func TestBrowserLooks(t *testing.T) {
	e := liveEnv(t)
	id := e.propose(t, ana, "files_delete", "/srv/reports/2026/q4-summary.pdf")
	e.propose(t, ana, "files_delete", "/srv/reports/2026/q3-summary.pdf")
	_, err := e.svc.Call(as(ana, "chat-1"), "files_list", []byte(`{"path":"/srv/reports"}`))
	require.NoError(t, err)
	_, err = e.svc.Call(as(ana, "chat-1"), "files_touch", []byte(`{"path":"/srv/reports/new.txt","passphrase":"`+secret+`"}`))
	require.NoError(t, err)
	_, err = e.svc.Call(as(ben, "chat-2"), "files_touch", []byte(`{"path":"/x"}`))
	require.Error(t, err)

	tb := newBrowser(t)
	tb.signIn(e, anaToken)
	pages := map[string]string{"proposals": "", "proposal": "proposals/" + id, "record": "record", "catalog": "catalog"}
	for _, scheme := range []string{"light", "dark"} {
		_, err := chromedp.Call(tb.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}},
		})
		require.NoError(t, err)
		for _, width := range []int64{1280, 390} {
			if width < 1000 {
				tb.do(chromedp.EmulateViewport(width, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile))
			} else {
				tb.do(chromedp.EmulateViewport(width, 900))
			}
			for name, path := range pages {
				tb.do(chromedp.Navigate(e.url+path), chromedp.WaitVisible(chromedp.CSS("main")))
				if name == "catalog" {
					tb.do(chromedp.Evaluate[chromedp.Void](`document.querySelectorAll("#tool-files_delete details").forEach(d => d.open = true)`))
				}
				bg := eval[string](tb, `getComputedStyle(document.body).backgroundColor`)
				if scheme == "dark" {
					assert.Equal(t, "rgb(15, 18, 22)", bg, "%s: dark", name)
				} else {
					assert.Equal(t, "rgb(246, 247, 249)", bg, "%s: light", name)
				}
				assert.LessOrEqual(t, eval[int](tb, `document.documentElement.scrollWidth`), int(width), "%s at %d: nothing wider than the screen", name, width)
				if *shots != "" {
					buf, err := chromedp.Run(tb.ctx, chromedp.FullScreenshot(100))
					require.NoError(t, err)
					file := filepath.Join(*shots, name+"-"+scheme+"-"+map[bool]string{true: "phone", false: "desktop"}[width < 1000]+".png")
					require.NoError(t, os.WriteFile(file, buf, 0o644))
					t.Logf("wrote %s", file)
				}
			}
		}
	}
}
