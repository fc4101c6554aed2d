package console_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/console"
	"github.com/toolgen-go/toolgen/runtime/provider"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/servicemcp"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/runtime/toolimpl"
)

func TestNewChecksOptions(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	svc, err := service.New(f.reg, nil)
	require.NoError(t, err)
	who := console.BearerTokens(nil)
	tests := []struct {
		name string
		svc  *service.Service
		o    *console.Options
		want string
	}{
		{"nil service", nil, &console.Options{Principal: who, Key: key}, "nil service"},
		{"no options", svc, nil, "nil Principal"},
		{"short key", svc, &console.Options{Principal: who, Key: []byte("short")}, "fewer than 32"},
		{"page size", svc, &console.Options{Principal: who, Key: key, PageSize: console.MaxPageSize + 1}, "PageSize"},
		{"sign-in URL", svc, &console.Options{Principal: who, Key: key, SignInURL: "javascript:alert(1)"}, "SignInURL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := console.New(tt.svc, tt.o)
			assert.ErrorContains(t, err, tt.want)
		})
	}
	_, err = console.New(svc, &console.Options{Principal: who, Key: key})
	assert.NoError(t, err)
}

func TestProposalsPageShowsWhatIsWaiting(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	id := e.propose(t, ana, "files_delete", "/tmp/report.txt")

	r := e.get(t, "", anaToken)
	require.Equal(t, http.StatusOK, r.status)
	for _, want := range []string{
		`data-proposal="` + id + `"`,
		`Delete this file? (files_delete)`,         // the summary
		`&#34;passphrase&#34;: &#34;[secret]&#34;`, // the logged arguments
		`&#34;path&#34;: &#34;/tmp/report.txt&#34;`,
		`<dd>chat-1</dd>`,
		`<dd>ana</dd>`,
		`data-expires="2026-12-02T09:15:00Z">15m 0s left</time>`,
		`action="/console/proposals/` + id + `/confirm"`,
		`action="/console/proposals/` + id + `/reject"`,
	} {
		assert.Contains(t, r.body, want)
	}
	assert.NotContains(t, r.body, secret)

	// ben sees nothing of ana's; once expired, ana sees nothing either.
	r = e.get(t, "", benToken)
	assert.Contains(t, r.body, "Nothing is waiting for your decision.")
	assert.NotContains(t, r.body, id)
	e.clock.add(service.DefaultProposalTTL)
	r = e.get(t, "", anaToken)
	assert.NotContains(t, r.body, id)
}

func TestConfirmRunsOnceAndShowsTheOutcome(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	id := e.propose(t, ana, "files_delete", "/tmp/report.txt")
	tok := csrf(t, e.get(t, "", anaToken).body)

	r := e.post(t, "proposals/"+id+"/confirm", anaToken, tok)
	require.Equal(t, http.StatusSeeOther, r.status, r.body)
	assert.Equal(t, "/console/proposals/"+id+"?done=ran", r.header.Get("Location"))
	assert.EqualValues(t, 1, e.f.runs[tDelete].Load())

	page := e.get(t, "proposals/"+id+"?done=ran", anaToken)
	for _, want := range []string{
		`<p class="notice" role="status" id="notice">Confirmed: it ran.</p>`,
		`id="state">done</span>`,
		`<dd>confirmation</dd>`,
		`id="outcome-value">ok</span>`,
		`<pre class="text result">done with /tmp/report.txt</pre>`,
	} {
		assert.Contains(t, page.body, want)
	}
	assert.NotContains(t, page.body, `class="confirm"`, "no buttons once decided")

	// Posted again (a second tab, a replayed form): nothing runs.
	r = e.post(t, "proposals/"+id+"/confirm", anaToken, tok)
	require.Equal(t, http.StatusSeeOther, r.status)
	assert.Equal(t, "/console/proposals/"+id+"?done=decided", r.header.Get("Location"))
	r = e.post(t, "proposals/"+id+"/reject", anaToken, tok)
	assert.Equal(t, "/console/proposals/"+id+"?done=decided", r.header.Get("Location"))
	assert.EqualValues(t, 1, e.f.runs[tDelete].Load())
}

func TestConfirmConcurrentlyRunsOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	id := e.propose(t, ana, "files_delete", "/tmp/x")
	tok := csrf(t, e.get(t, "", anaToken).body)
	const n = 8
	locations := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			locations[i] = e.post(t, "proposals/"+id+"/confirm", anaToken, tok).header.Get("Location")
		})
	}
	wg.Wait()
	assert.EqualValues(t, 1, e.f.runs[tDelete].Load())
	ran := 0
	for _, l := range locations {
		if strings.HasSuffix(l, "?done=ran") {
			ran++
		} else {
			assert.True(t, strings.HasSuffix(l, "?done=decided"), l)
		}
	}
	assert.Equal(t, 1, ran)
}

func TestRejectNeverRuns(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	id := e.propose(t, ana, "files_delete", "/tmp/x")
	tok := csrf(t, e.get(t, "", anaToken).body)
	r := e.post(t, "proposals/"+id+"/reject", anaToken, tok)
	assert.Equal(t, "/console/proposals/"+id+"?done=rejected", r.header.Get("Location"))
	r = e.post(t, "proposals/"+id+"/confirm", anaToken, tok)
	assert.Equal(t, "/console/proposals/"+id+"?done=decided", r.header.Get("Location"))
	assert.Zero(t, e.f.runs[tDelete].Load())
	page := e.get(t, "proposals/"+id, anaToken)
	assert.Contains(t, page.body, `id="state">rejected</span>`)
	assert.Contains(t, page.body, `<dd>rejection</dd>`)
}

// TestCrossSitePostsChangeNothing is the CSRF attack: a post without a
// token, with another person's, with an expired one, or from another site
// even with a valid one, is refused, and nothing runs.
func TestCrossSitePostsChangeNothing(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	id := e.propose(t, ana, "files_delete", "/tmp/x")
	anaTok := csrf(t, e.get(t, "", anaToken).body)
	benTok := csrf(t, e.get(t, "", benToken).body)
	tests := []struct {
		name   string
		tok    string
		header map[string]string
	}{
		{"no token", "", nil},
		{"a forged token", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", nil},
		{"another person's token", benTok, nil},
		{"a cross-site form", anaTok, map[string]string{"Sec-Fetch-Site": "cross-site"}},
		{"another origin", anaTok, map[string]string{"Origin": "https://evil.example"}},
	}
	for _, tt := range tests {
		for _, path := range []string{"proposals/" + id + "/confirm", "proposals/" + id + "/reject", "api/proposals/" + id + "/confirm"} {
			r := e.do(t, http.MethodPost, path, anaToken, url.Values{"csrf": {tt.tok}},
				merge(tt.header, map[string]string{"X-CSRF-Token": tt.tok}))
			assert.Equal(t, http.StatusForbidden, r.status, "%s: %s", tt.name, path)
		}
	}
	// Expired: a token of 13 hours ago.
	e.clock.add(13 * time.Hour)
	r := e.post(t, "proposals/"+id+"/confirm", anaToken, anaTok)
	assert.Equal(t, http.StatusForbidden, r.status)
	assert.Contains(t, r.body, "this form has expired or is not yours")
	assert.Zero(t, e.f.runs[tDelete].Load())
	v, err := e.svc.ViewProposal(t.Context(), id, ana)
	require.NoError(t, err)
	assert.Equal(t, "ana", v.Principal)
	assert.Empty(t, v.DecidedBy, "nothing decided it")
}

// merge returns the headers of a and b.
func merge(a, b map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

// TestAnotherPersonsProposal is the attack on IDs: ben, holding ana's
// proposal ID, learns nothing of it (the answer of an ID that does not
// exist) and can neither confirm nor reject it.
func TestAnotherPersonsProposal(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	id := e.propose(t, ana, "files_delete", "/tmp/x")
	const none = "prop_00000000000000000000000000"
	benTok := e.apiToken(t, benToken)
	for _, path := range []string{"proposals/%s", "api/proposals/%s"} {
		theirs := e.get(t, strings.Replace(path, "%s", id, 1), benToken)
		missing := e.get(t, strings.Replace(path, "%s", none, 1), benToken)
		assert.Equal(t, http.StatusNotFound, theirs.status)
		assert.Equal(t, strings.ReplaceAll(missing.body, none, "ID"), strings.ReplaceAll(theirs.body, id, "ID"))
		assert.NotContains(t, theirs.body, "/tmp/x")
	}
	for _, action := range []string{"confirm", "reject"} {
		r := e.post(t, "proposals/"+id+"/"+action, benToken, benTok)
		assert.Equal(t, http.StatusNotFound, r.status)
		r = e.do(t, http.MethodPost, "api/proposals/"+id+"/"+action, benToken, nil, map[string]string{"X-CSRF-Token": benTok})
		assert.Equal(t, http.StatusNotFound, r.status)
		assert.JSONEq(t, `{"error":{"code":"unknown_proposal","message":"no proposal `+id+` is open to you"}}`, r.body)
	}
	assert.Zero(t, e.f.runs[tDelete].Load())
	v, err := e.svc.ViewProposal(t.Context(), id, ana)
	require.NoError(t, err)
	assert.Equal(t, service.StatePending, v.State)
}

// scriptTagRE finds script elements.
var scriptTagRE = regexp.MustCompile(`(?i)<script[^>]*>`)

// TestScriptIsNeverMarkup is the injection attack: a <script> in the
// arguments, in a tool's description and confirm text, and in a tool's
// error is shown as text on every page, never as markup; every page
// loads one script, the console's own file.
func TestScriptIsNeverMarkup(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	pending := e.propose(t, ana, "files_delete", attack)
	failed := e.propose(t, ana, "files_fail", attack)
	_, err := e.svc.Confirm(as(ana, "chat-1"), failed, ana)
	require.Error(t, err)
	_, err = e.svc.Call(as(ana, attack), "files_touch", []byte(`{"path":"`+strings.ReplaceAll(attack, `"`, `\"`)+`"}`))
	require.NoError(t, err)
	_, err = e.svc.Call(as(ana, "chat-1"), attack, []byte(`{}`)) // a refusal naming the attack
	require.Error(t, err)

	for _, path := range []string{"", "proposals/" + pending, "proposals/" + failed, "record", "record?tool=" + url.QueryEscape(attack),
		"catalog", "proposals/" + url.PathEscape(attack), "record?since=" + url.QueryEscape(attack)} {
		r := e.get(t, path, anaToken)
		assert.NotContains(t, r.body, "<script>alert", path)
		assert.NotContains(t, r.body, "<b>now</b>", path)
		tags := scriptTagRE.FindAllString(r.body, -1)
		assert.Equal(t, []string{`<script src="/console/static/console.js" defer>`}, tags, path)
	}
	for path, want := range map[string]string{
		"":                          `&#34;path&#34;: &#34;&lt;script&gt;alert(\&#34;xss\&#34;)&lt;/script&gt;&#34;`,
		"proposals/" + failed:       `cannot delete &lt;script&gt;alert(&#34;xss&#34;)&lt;/script&gt;`,
		"proposals/" + failed + "?": `<h1>Fail &lt;b&gt;now&lt;/b&gt;? (files_fail)</h1>`,
		"catalog":                   `Deletes a file. &lt;script&gt;alert(&#34;xss&#34;)&lt;/script&gt;`,
		"record":                    `cannot delete &lt;script&gt;alert(&#34;xss&#34;)&lt;/script&gt;`,
		"record?conversation=x":     `No records match.`,
	} {
		assert.Contains(t, e.get(t, path, anaToken).body, want, path)
	}
	// The JSON API writes them as JSON strings, under nosniff and the CSP.
	r := e.get(t, "api/catalog", anaToken)
	assert.Equal(t, "application/json; charset=utf-8", r.header.Get("Content-Type"))
	assert.Equal(t, "nosniff", r.header.Get("X-Content-Type-Options"))
	assert.Contains(t, r.header.Get("Content-Security-Policy"), "default-src 'none'")
}

// inlineRE finds inline script and style: event handler attributes, style
// attributes, javascript: URLs.
var inlineRE = regexp.MustCompile(`(?i)\son[a-z]+=|\sstyle=|javascript:`)

// TestHeadersAndNoInlineScript checks the security headers of every page
// and answer, and that no page holds inline script or style.
func TestHeadersAndNoInlineScript(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	id := e.propose(t, ana, "files_delete", "/tmp/x")
	for _, path := range []string{"", "proposals/" + id, "record", "catalog", "signin", "api/me", "api/proposals", "api/records",
		"api/catalog", "static/console.css", "static/console.js", "proposals/nope"} {
		r := e.get(t, path, anaToken)
		assert.Equal(t, "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
			r.header.Get("Content-Security-Policy"), path)
		assert.Equal(t, "nosniff", r.header.Get("X-Content-Type-Options"), path)
		assert.Equal(t, "DENY", r.header.Get("X-Frame-Options"), path)
		assert.Equal(t, "no-referrer", r.header.Get("Referrer-Policy"), path)
		if !strings.HasPrefix(path, "static/") {
			assert.Equal(t, "no-store", r.header.Get("Cache-Control"), path)
		}
		if strings.HasPrefix(r.header.Get("Content-Type"), "text/html") {
			assert.NotRegexp(t, inlineRE, r.body, path)
			for _, tag := range scriptTagRE.FindAllString(r.body, -1) {
				assert.Contains(t, tag, " src=", "%s: no inline script", path)
			}
		}
	}
	assert.Equal(t, "text/javascript; charset=utf-8", e.get(t, "static/console.js", "").header.Get("Content-Type"))
	assert.Equal(t, http.StatusNotFound, e.get(t, "static/", "").status, "no listing")
}

// TestNoSecretAnywhere checks that a secret member's value, a proposal's
// digest and the bearer tokens appear on no page and in no answer, before
// and after the proposal ran.
func TestNoSecretAnywhere(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	id := e.propose(t, ana, "files_delete", "/tmp/x")
	_, err := e.svc.Call(as(ana, "chat-1"), "files_touch", []byte(`{"path":"/a","passphrase":"`+secret+`"}`))
	require.NoError(t, err)
	p, err := e.svc.Store().Proposal(t.Context(), id)
	require.NoError(t, err)
	check := func() {
		for _, path := range []string{"", "proposals/" + id, "record", "catalog", "api/me", "api/proposals", "api/proposals/" + id, "api/records", "api/catalog"} {
			body := e.get(t, path, anaToken).body
			for _, never := range []string{secret, p.Digest, anaToken, benToken, olgaToken} {
				assert.NotContains(t, body, never, path)
			}
		}
	}
	check()
	r := e.do(t, http.MethodPost, "api/proposals/"+id+"/confirm", anaToken, nil, map[string]string{"X-CSRF-Token": e.apiToken(t, anaToken)})
	require.Equal(t, http.StatusOK, r.status, r.body)
	assert.NotContains(t, r.body, secret)
	check()
}

func TestSignIn(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	client := &http.Client{Jar: newJar(t), CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	get := func(path string) *http.Response {
		resp, err := client.Get(e.url + path)
		require.NoError(t, err)
		resp.Body.Close()
		return resp
	}
	resp := get("record")
	assert.Equal(t, http.StatusSeeOther, resp.StatusCode, "sent to sign in")
	assert.Equal(t, "/console/signin", resp.Header.Get("Location"))

	// A wrong token: refused, and never written back.
	r := e.do(t, http.MethodPost, "signin", "", url.Values{"token": {"wrong-" + attack}}, nil)
	assert.Equal(t, http.StatusUnauthorized, r.status)
	assert.Contains(t, r.body, "That token was not accepted.")
	assert.NotContains(t, r.body, "wrong-")
	assert.Empty(t, r.header.Get("Set-Cookie"))

	resp, err := client.PostForm(e.url+"signin", url.Values{"token": {anaToken}})
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusSeeOther, resp.StatusCode)
	ck := resp.Header.Get("Set-Cookie")
	for _, want := range []string{console.SessionCookie + "=", "Path=/console/", "HttpOnly", "SameSite=Strict"} {
		assert.Contains(t, ck, want)
	}
	assert.Equal(t, http.StatusOK, get("record").StatusCode, "signed in")

	// Signing out needs the form's token too.
	resp, err = client.PostForm(e.url+"signout", url.Values{})
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusForbidden, resp.StatusCode)
	page, err := client.Get(e.url)
	require.NoError(t, err)
	body := readAll(t, page)
	resp, err = client.PostForm(e.url+"signout", url.Values{"csrf": {csrf(t, body)}})
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusSeeOther, resp.StatusCode)
	assert.Equal(t, http.StatusSeeOther, get("record").StatusCode, "signed out")

	// A host's own sign-in page instead.
	e2 := newEnv(t, func(o *console.Options) { o.SignInURL = "/login" })
	r = e2.get(t, "", "")
	assert.Equal(t, "/login", r.header.Get("Location"))
	assert.Equal(t, http.StatusUnauthorized, e2.get(t, "api/me", "").status)
}

// readAll reads and closes a response's body.
func readAll(t *testing.T, resp *http.Response) string {
	t.Helper()
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return string(b)
}

func TestAPI(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	id := e.propose(t, ana, "files_delete", "/tmp/x")

	r := e.get(t, "api/me", "")
	assert.Equal(t, http.StatusUnauthorized, r.status)
	assert.Equal(t, "Bearer", r.header.Get("WWW-Authenticate"))
	assert.JSONEq(t, `{"error":{"code":"unauthorized","message":"sign in: a valid bearer token is required"}}`, r.body)

	r = e.get(t, "api/proposals", anaToken)
	require.Equal(t, http.StatusOK, r.status)
	assert.JSONEq(t, `{"proposals":[{"id":"`+id+`","tool":"files_delete","summary":"Delete this file? (files_delete)",
		"args":{"path":"/tmp/x","passphrase":"[secret]"},"proposed_by":"ana","conversation":"chat-1","turn":"t1",
		"created":"2026-12-02T09:00:00Z","expires":"2026-12-02T09:15:00Z","state":"pending","can_decide":true}]}`, r.body)
	assert.JSONEq(t, `{"proposals":[]}`, e.get(t, "api/proposals", benToken).body)

	tok := e.apiToken(t, anaToken)
	e.clock.add(time.Minute)
	r = e.do(t, http.MethodPost, "api/proposals/"+id+"/confirm", anaToken, nil, map[string]string{"X-CSRF-Token": tok})
	require.Equal(t, http.StatusOK, r.status, r.body)
	var ans struct {
		Proposal struct{ State, DecidedBy string } `json:"proposal"`
		Outcome  json.RawMessage                   `json:"outcome"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.body), &ans))
	assert.Equal(t, "done", ans.Proposal.State)
	assert.JSONEq(t, `{"event":"confirmation","by":"ana","time":"2026-12-02T09:01:00Z","outcome":"ok","result":"done with /tmp/x"}`, string(ans.Outcome))

	r = e.do(t, http.MethodPost, "api/proposals/"+id+"/confirm", anaToken, nil, map[string]string{"X-CSRF-Token": tok})
	assert.Equal(t, http.StatusConflict, r.status)
	assert.JSONEq(t, `{"error":{"code":"already_decided","message":"nothing ran now: this proposal had already been decided"}}`, r.body)
	assert.EqualValues(t, 1, e.f.runs[tDelete].Load())

	// A run that fails is decided: 200, outcome failed.
	failed := e.propose(t, ana, "files_fail", "/tmp/y")
	r = e.do(t, http.MethodPost, "api/proposals/"+failed+"/confirm", anaToken, nil, map[string]string{"X-CSRF-Token": tok})
	require.Equal(t, http.StatusOK, r.status, r.body)
	assert.Contains(t, r.body, `"outcome":{"event":"confirmation","by":"ana","time":"2026-12-02T09:01:00Z","outcome":"failed","code":"failed","error":"cannot delete <script>alert(\"xss\")</script>"`)

	rejected := e.propose(t, ana, "files_delete", "/tmp/z")
	r = e.do(t, http.MethodPost, "api/proposals/"+rejected+"/reject", anaToken, nil, map[string]string{"X-CSRF-Token": tok})
	require.Equal(t, http.StatusOK, r.status, r.body)
	assert.Contains(t, r.body, `"state":"rejected"`)
	assert.Contains(t, r.body, `"outcome":{"event":"rejection","by":"ana"`)

	// The permission to run it is checked again at confirmation: ana,
	// who lost files.write since, cannot confirm her proposal.
	lost := e.propose(t, ana, "files_delete", "/tmp/w")
	anaRead := tool.Principal{ID: "ana", Permissions: []string{"files.read"}}
	c, err := console.New(e.svc, &console.Options{Principal: console.BearerTokens(map[string]tool.Principal{anaToken: anaRead}), Key: key, Now: e.clock.now})
	require.NoError(t, err)
	e.c, e.url = c, mount(t, c)
	r = e.do(t, http.MethodPost, "api/proposals/"+lost+"/confirm", anaToken, nil, map[string]string{"X-CSRF-Token": e.apiToken(t, anaToken)})
	assert.Equal(t, http.StatusForbidden, r.status)
	assert.Contains(t, r.body, `"code":"unknown_tool"`)
	assert.EqualValues(t, 1, e.f.runs[tDelete].Load())
}

func TestCatalog(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	r := e.get(t, "api/catalog", benToken)
	require.Equal(t, http.StatusOK, r.status)
	var cat struct {
		Tools []struct {
			Name        string                     `json:"name"`
			Kind        string                     `json:"kind"`
			ReadOnly    bool                       `json:"read_only"`
			Definitions map[string]json.RawMessage `json:"definitions"`
			Precomputed bool                       `json:"precomputed"`
		} `json:"tools"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.body), &cat))
	require.Len(t, cat.Tools, 1, "ben is offered files_list only")
	assert.Equal(t, "files_list", cat.Tools[0].Name)
	assert.Equal(t, "read", cat.Tools[0].Kind)
	assert.True(t, cat.Tools[0].ReadOnly)
	assert.False(t, cat.Tools[0].Precomputed, "no Definitions: projected when shown")
	assert.Len(t, cat.Tools[0].Definitions, 4, "no MCP without Options.MCP")

	page := e.get(t, "catalog", anaToken).body
	for _, want := range []string{`id="tool-files_delete"`, `id="tool-files_list"`, `id="tool-files_touch"`, `<span class="badge readonly">read-only</span>`,
		`Secret members, never recorded: <code>/passphrase</code>`, `data-provider="gemini"`} {
		assert.Contains(t, page, want)
	}
	assert.NotContains(t, e.get(t, "catalog", benToken).body, "files_delete")
}

func TestUnknownRoutes(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	assert.Equal(t, http.StatusNotFound, e.get(t, "nope", anaToken).status)
	assert.Equal(t, http.StatusMethodNotAllowed, e.do(t, http.MethodPut, "api/me", anaToken, nil, nil).status)
}

// TestCatalogDefinitions checks that the catalog shows Options.Definitions'
// bytes when they were made from the tool's spec, projects the tool
// otherwise, and shows the MCP listing of Options.MCP.
func TestCatalogDefinitions(t *testing.T) {
	t.Parallel()
	same, err := provider.NewDefinitions(newFixture(t).reg)
	require.NoError(t, err)
	specs := fixtureSpecs()
	specs[tList].Description = "Another description."
	stale, err := toolimpl.NewRegistry(specs, nil, newFixture(t).dispatch, nil)
	require.NoError(t, err)
	staleDefs, err := provider.NewDefinitions(stale)
	require.NoError(t, err)
	lister, err := servicemcp.NewLister()
	require.NoError(t, err)
	t.Cleanup(func() { _ = lister.Close() })

	for _, tt := range []struct {
		name string
		defs *provider.Definitions
		pre  bool
	}{{"made from the specs", same, true}, {"made from other specs", staleDefs, false}} {
		e := newEnv(t, func(o *console.Options) { o.Definitions, o.MCP = tt.defs, lister.List })
		var cat struct {
			Tools []struct {
				Name        string                     `json:"name"`
				Definitions map[string]json.RawMessage `json:"definitions"`
				Precomputed bool                       `json:"precomputed"`
			} `json:"tools"`
		}
		require.NoError(t, json.Unmarshal([]byte(e.get(t, "api/catalog", benToken).body), &cat))
		require.Len(t, cat.Tools, 1)
		got := cat.Tools[0]
		assert.Equal(t, tt.pre, got.Precomputed, tt.name)
		want, ok := same.Lookup("files_list")
		require.True(t, ok)
		assert.Equal(t, string(want.OpenAIChat.JSON), string(got.Definitions["openai_chat"]), tt.name)
		assert.Equal(t, string(want.OpenAIResponses.JSON), string(got.Definitions["openai_responses"]), tt.name)
		assert.Equal(t, string(want.Anthropic.JSON), string(got.Definitions["anthropic"]), tt.name)
		assert.Equal(t, string(want.Gemini.JSON), string(got.Definitions["gemini"]), tt.name)
		mcpDefs, err := lister.List(t.Context(), e.svc.Offer(as(ben, "")))
		require.NoError(t, err)
		assert.Equal(t, string(mcpDefs[0]), string(got.Definitions["mcp"]), tt.name)

		page := e.get(t, "catalog", benToken).body
		assert.Contains(t, page, `data-provider="mcp"`)
		assert.Contains(t, page, map[bool]string{true: "Definitions precomputed by toolgen.", false: "Definitions projected when shown."}[tt.pre])
	}
}

// TestConfirmOutlivesTheRequest: a person's confirmation whose request
// is cancelled as it is served (a tab closed, a proxy's timeout) still
// runs the proposal, once: the console confirms under the request's
// values without its cancellation. The form's post and the API's alike.
func TestConfirmOutlivesTheRequest(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	tok := csrf(t, e.get(t, "", anaToken).body)
	apiTok := e.apiToken(t, anaToken)
	for i, c := range []struct {
		path   string
		form   url.Values
		header map[string]string
	}{
		{path: "/proposals/%s/confirm", form: url.Values{"csrf": {tok}}},
		{path: "/api/proposals/%s/confirm", header: map[string]string{"X-CSRF-Token": apiTok}},
	} {
		id := e.propose(t, ana, "files_delete", "/tmp/gone.txt")
		ctx, cancel := context.WithCancel(context.Background())
		cancel() // the person's tab closed as the post arrived
		req := httptest.NewRequestWithContext(ctx, http.MethodPost, strings.Replace(c.path, "%s", id, 1), strings.NewReader(c.form.Encode()))
		if c.form != nil {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		req.Header.Set("Authorization", "Bearer "+anaToken)
		for k, v := range c.header {
			req.Header.Set(k, v)
		}
		e.c.ServeHTTP(httptest.NewRecorder(), req)
		assert.EqualValues(t, i+1, e.f.runs[tDelete].Load(), "%s: the person's yes ran", c.path)
		p, err := e.svc.Proposal(as(ana, "chat-1"), id, ana)
		require.NoError(t, err)
		assert.Equal(t, service.StateDone, p.State, c.path)
	}
}
