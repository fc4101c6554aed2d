package console

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/toolgen-go/toolgen/runtime/internal/proposalid"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// web holds the page templates and the static files: no build step, the
// standard library only.
//
//go:embed web
var web embed.FS

// pageNames are the pages, each web/NAME.html defining "content" inside
// web/layout.html.
var pageNames = []string{"proposals", "proposal", "tasks", "record", "catalog", "signin", "error"}

// funcs are the templates' functions. None returns template.HTML or any
// other type html/template trusts: every value is escaped for where it
// stands.
var funcs = template.FuncMap{
	"time":   showTime,
	"iso":    func(t time.Time) string { return t.UTC().Format(time.RFC3339) },
	"left":   left,
	"pretty": pretty,
	"seg":    url.PathEscape,
	"isID":   proposalid.Valid[string],
	"dur":    showDuration,
	"size":   func(b []byte) string { return strconv.Itoa(len(b)) + " bytes" },
	"text":   func(b []byte) string { return string(b) },
	"plain":  plain,
}

// parsePages parses every page with the layout.
func parsePages() (map[string]*template.Template, error) {
	layout, err := template.New("layout.html").Funcs(funcs).ParseFS(web, "web/layout.html")
	if err != nil {
		return nil, fmt.Errorf("parse the layout: %w", err)
	}
	pages := make(map[string]*template.Template, len(pageNames))
	for _, name := range pageNames {
		t, err := template.Must(layout.Clone()).ParseFS(web, "web/"+name+".html")
		if err != nil {
			return nil, fmt.Errorf("parse page %s: %w", name, err)
		}
		pages[name] = t
	}
	return pages, nil
}

// pageData is what the layout is executed with.
type pageData struct {
	// Title names the console.
	Title string
	// Page is the page's name, for the navigation.
	Page string
	// Base is the path the console is mounted at, with a final slash:
	// every link starts with it.
	Base string
	// Who is the principal's ID; "" on the sign-in page.
	Who string
	// CSRF is the principal's CSRF token, for the forms.
	CSRF string
	// Now is when the page was made.
	Now time.Time
	// Body is the page's own data.
	Body any
}

// render writes the page name with body, for who.
func (c *Console) render(w http.ResponseWriter, r *http.Request, status int, name string, who tool.Principal, body any) {
	d := &pageData{Title: c.title, Page: name, Base: base(r), Who: who.ID, Now: c.now(), Body: body}
	if who.ID != "" {
		d.CSRF = c.token(who.ID)
	}
	var buf bytes.Buffer
	if err := c.pages[name].ExecuteTemplate(&buf, "layout", d); err != nil {
		c.log.LogAttrs(r.Context(), slog.LevelError, "console: render a page", slog.String("page", name), slog.String("error", err.Error()))
		http.Error(w, "Internal Server Error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// staticHandler serves web/static: the style sheet and the script.
func staticHandler() http.Handler {
	sub, err := fs.Sub(web, "web/static")
	if err != nil { // the embedded tree has it
		panic("console: " + err.Error())
	}
	files := http.StripPrefix("/static/", http.FileServerFS(sub))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/") {
			http.NotFound(w, r) // no listings
			return
		}
		w.Header().Set("Cache-Control", "no-cache")
		files.ServeHTTP(w, r)
	})
}

// errorData is the error page's.
type errorData struct {
	Status  int
	Code    string
	Message string
}

// signInData is the sign-in page's.
type signInData struct {
	// Failed is set when a token was refused.
	Failed bool
}

// showTime is how pages show a time: UTC, to the second.
func showTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02 15:04:05") + " UTC"
}

// left says how long until t, from now.
func left(now, t time.Time) string {
	d := t.Sub(now).Truncate(time.Second)
	if d <= 0 {
		return "expired"
	}
	m, s := int(d/time.Minute), int(d%time.Minute/time.Second)
	if m >= 60 {
		return strconv.Itoa(m/60) + "h " + strconv.Itoa(m%60) + "m left"
	}
	return strconv.Itoa(m) + "m " + strconv.Itoa(s) + "s left"
}

// showDuration shows a run's duration.
func showDuration(d time.Duration) string {
	switch {
	case d <= 0:
		return ""
	case d < time.Millisecond:
		return strconv.FormatInt(d.Microseconds(), 10) + "µs"
	case d < time.Second:
		return strconv.FormatInt(d.Milliseconds(), 10) + "ms"
	}
	return d.Round(10 * time.Millisecond).String()
}

// pretty indents JSON for reading, with the HTML escapes of its strings
// (\u003c, \u003e, \u0026, as canonical arguments keep them) written as the
// characters they stand for, so that a person reads what the tool reads;
// anything else is shown as it is. The result is text: the template
// escapes it.
func pretty(b []byte) string {
	var buf bytes.Buffer
	if err := json.Indent(&buf, b, "", "  "); err != nil {
		return string(b)
	}
	return unescapeHTML(buf.Bytes())
}

// plain is compact JSON as pretty shows its strings.
func plain(b []byte) string {
	if !json.Valid(b) {
		return string(b)
	}
	return unescapeHTML(b)
}

// htmlEscapes are the escapes unescapeHTML writes back.
var htmlEscapes = map[string]byte{`\u003c`: '<', `\u003e`: '>', `\u0026`: '&'}

// unescapeHTML writes the \u003c, \u003e and \u0026 escapes of valid JSON
// as their characters; every other escape stays as it is.
func unescapeHTML(b []byte) string {
	var out strings.Builder
	out.Grow(len(b))
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' || i+1 == len(b) {
			out.WriteByte(b[i])
			continue
		}
		if i+6 <= len(b) {
			if c, ok := htmlEscapes[string(b[i:i+6])]; ok {
				out.WriteByte(c)
				i += 5
				continue
			}
		}
		out.Write(b[i : i+2]) // an escape: \\ is never the start of another
		i++
	}
	return out.String()
}

// writeJSON writes v as the JSON API's answer. HTML escaping is off so
// that the definitions are the exact bytes a provider receives; the
// answer is application/json under nosniff and the console's
// Content-Security-Policy, never a document.
func writeJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		http.Error(w, `{"error":{"code":"internal","message":"the answer could not be written"}}`, http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// apiError is the JSON API's error.
type apiError struct {
	Error apiErrorBody `json:"error"`
}

// apiErrorBody says what went wrong: a code to branch on and a message
// for a person. Neither quotes the request.
type apiErrorBody struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// writeError writes a JSON API error.
func writeError(w http.ResponseWriter, status int, code, msg string) {
	writeJSON(w, status, &apiError{Error: apiErrorBody{Code: code, Message: msg}})
}
