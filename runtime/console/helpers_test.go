package console_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/console"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/runtime/toolimpl"
)

// The people of the tests: ana reads and writes files, ben only reads
// them, olga is an operator who reads.
var (
	ana  = tool.Principal{ID: "ana", Permissions: []string{"files.read", "files.write"}}
	ben  = tool.Principal{ID: "ben", Permissions: []string{"files.read"}}
	olga = tool.Principal{ID: "olga", Permissions: []string{"files.read", "console.operator"}}
)

// Their tokens.
const (
	anaToken  = "ana-token-0123456789abcdef0123456789"
	benToken  = "ben-token-0123456789abcdef0123456789"
	olgaToken = "olga-token-0123456789abcdef012345678"
)

// The values no page may show: a secret member's value, and an attack.
const (
	secret = "correct-horse-battery-staple"
	attack = `<script>alert("xss")</script>`
)

// Tool indexes of the fixture, in name order.
const (
	tDelete = iota
	tFail
	tList
	tTouch
)

// fixtureSpecs are the tools: files_delete and files_fail propose (the
// latter's run fails with an attack in its message), files_list reads,
// files_touch acts. Descriptions and a confirm text carry attacks.
func fixtureSpecs() []*tool.Spec {
	in := []byte(`{"type":"object","properties":{"path":{"type":"string","description":"The file."},"passphrase":{"type":"string"}},"required":["path"],"additionalProperties":false}`)
	return []*tool.Spec{
		tDelete: {Name: "files_delete", Kind: tool.KindPropose, Title: "Delete file", Destructive: true, Permissions: []string{"files.write"},
			Secrets: []string{"/passphrase"}, Meta: []tool.Meta{{Key: "confirm-text", Value: "Delete this file?"}},
			Description: "Deletes a file. " + attack, InputSchema: in},
		tFail: {Name: "files_fail", Kind: tool.KindPropose, Title: "Fail", Permissions: []string{"files.write"}, Secrets: []string{"/passphrase"},
			Meta:        []tool.Meta{{Key: "confirm-text", Value: "Fail <b>now</b>?"}},
			Description: "Always fails.", InputSchema: in},
		tList: {Name: "files_list", Kind: tool.KindRead, ReadOnly: true, Title: "List files", Permissions: []string{"files.read"},
			Description: "Lists the files.", InputSchema: in, Secrets: []string{"/passphrase"},
			OutputSchema: []byte(`{"type":"object","properties":{"files":{"type":"array","items":{"type":"string"}}}}`)},
		tTouch: {Name: "files_touch", Kind: tool.KindAction, Title: "Touch file", Permissions: []string{"files.write"}, Secrets: []string{"/passphrase"},
			Description: "Touches a file.", InputSchema: in},
	}
}

// fixture is the registry of the tests; runs counts what each tool ran.
type fixture struct {
	reg  tool.Registry
	runs [tTouch + 1]atomic.Int64
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	f := &fixture{}
	reg, err := toolimpl.NewRegistry(fixtureSpecs(), nil, f.dispatch, nil)
	require.NoError(t, err)
	f.reg = reg
	return f
}

// dispatch plays a generated dispatch over {"path", "passphrase"}.
func (f *fixture) dispatch(_ context.Context, i int, mode toolimpl.Mode, in *codec.Decoder, out *codec.Encoder) (toolimpl.Output, error) {
	var path string
	if in.Object("object") {
		for {
			k, ok := in.Key()
			if !ok {
				break
			}
			switch string(k) {
			case "path":
				in.Push("path")
				path, _ = in.String("string")
				in.Pop()
			case "passphrase":
				in.Push("passphrase")
				_, _ = in.String("string")
				in.Pop()
			default:
				in.Unknown(k)
			}
		}
	}
	in.End()
	if err := toolimpl.InvalidArguments(in.Err()); err != nil {
		return 0, err
	}
	if mode != toolimpl.ModeCall {
		return 0, nil
	}
	f.runs[i].Add(1)
	switch i {
	case tFail:
		return 0, &tool.Error{Code: tool.CodeFailed, Message: "cannot delete " + attack}
	case tList:
		out.JSON([]byte(`{"files":["a.txt"]}`), nil)
		return toolimpl.OutputStructured, nil
	}
	out.RawText("done with " + path)
	return toolimpl.OutputText, nil
}

// clock is a settable clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// key signs the CSRF tokens of the tests.
var key = []byte("0123456789abcdef0123456789abcdef")

// env is a console over a service over the fixture, mounted at /console/
// of a test server.
type env struct {
	f     *fixture
	svc   *service.Service
	c     *console.Console
	clock *clock
	url   string // the console's URL, with its final slash
}

// newEnv returns an env; edit may change the console's options.
func newEnv(t testing.TB, edit func(*console.Options)) *env {
	t.Helper()
	e := &env{f: newFixture(t), clock: &clock{t: time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)}}
	svc, err := service.New(e.f.reg, &service.Options{Now: e.clock.now})
	require.NoError(t, err)
	e.svc = svc
	o := console.Options{
		Principal:          console.BearerTokens(map[string]tool.Principal{anaToken: ana, benToken: ben, olgaToken: olga}),
		Key:                key,
		OperatorPermission: "console.operator",
		Now:                e.clock.now,
	}
	if edit != nil {
		edit(&o)
	}
	e.c, err = console.New(svc, &o)
	require.NoError(t, err)
	e.url = mount(t, e.c)
	return e
}

// mount serves c at /console/ of a test server and returns its URL.
func mount(t testing.TB, c *console.Console) string {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle("/console/", http.StripPrefix("/console", c))
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	return ts.URL + "/console/"
}

// as returns a context carrying who in conversation conv.
func as(who tool.Principal, conv string) context.Context {
	return tool.WithInvocation(context.Background(), &tool.Invocation{Principal: who, Conversation: conv, Turn: "t1"})
}

// propose makes a proposal of the named tool as who and returns its ID.
func (e *env) propose(t testing.TB, who tool.Principal, name, path string) string {
	t.Helper()
	var args bytes.Buffer
	enc := json.NewEncoder(&args)
	enc.SetEscapeHTML(false) // a <script> in the arguments stays one
	require.NoError(t, enc.Encode(map[string]string{"path": path, "passphrase": secret}))
	p, err := e.svc.Propose(as(who, "chat-1"), name, args.Bytes())
	require.NoError(t, err)
	return p.ID
}

// response is what a request got.
type response struct {
	status int
	header http.Header
	body   string
}

// do sends a request to the console path with token (none when empty)
// and the headers, not following redirects.
func (e *env) do(t testing.TB, method, path, token string, body url.Values, header map[string]string) response {
	t.Helper()
	var rd io.Reader
	if body != nil {
		rd = strings.NewReader(body.Encode())
	}
	req, err := http.NewRequestWithContext(t.Context(), method, e.url+path, rd)
	require.NoError(t, err)
	if body != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return response{status: resp.StatusCode, header: resp.Header, body: string(b)}
}

// get fetches a page or an API answer with token.
func (e *env) get(t testing.TB, path, token string) response {
	t.Helper()
	return e.do(t, http.MethodGet, path, token, nil, nil)
}

// csrfRE finds a form's CSRF token.
var csrfRE = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

// csrf returns the CSRF token of the first form of a page.
func csrf(t testing.TB, page string) string {
	t.Helper()
	m := csrfRE.FindStringSubmatch(page)
	require.NotNil(t, m, "the page has a form")
	return m[1]
}

// apiToken returns who's CSRF token from api/me.
func (e *env) apiToken(t testing.TB, token string) string {
	t.Helper()
	r := e.get(t, "api/me", token)
	require.Equal(t, http.StatusOK, r.status, r.body)
	var me struct {
		CSRFToken string `json:"csrf_token"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.body), &me))
	return me.CSRFToken
}

// post posts a form with token and the CSRF token tok.
func (e *env) post(t testing.TB, path, token, tok string) response {
	t.Helper()
	return e.do(t, http.MethodPost, path, token, url.Values{"csrf": {tok}}, nil)
}

// newJar returns a cookie jar.
func newJar(t testing.TB) http.CookieJar {
	t.Helper()
	jar, err := cookiejar.New(nil)
	require.NoError(t, err)
	return jar
}
