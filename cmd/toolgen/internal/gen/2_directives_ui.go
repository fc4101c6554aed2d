package gen

// The app directives: //tool:ui names an HTML file that an MCP host renders
// as the tool's app (the MCP Apps extension, io.modelcontextprotocol/ui),
// and //tool:uicsp, //tool:uipermission, //tool:uiborder and
// //tool:visibility declare what the extension's _meta.ui says of it. The
// file is read, checked and embedded at generate time (readApp): the
// generated package holds its bytes as a string constant, which costs a
// program nothing until runtime/mcpserver serves it.

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"go/token"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/problem"
)

// maxAppBytes bounds an app's HTML file: a host fetches it whole with
// resources/read, and the generated package holds it as a constant.
const maxAppBytes = 256 << 10

// The reserved tool.Meta keys the generated Spec of a tool with an app
// (or a visibility) carries, which runtime/mcpserver reads
// (mcpserver.MetaUI, MetaUIResource, MetaUIHTML). //tool:meta may not use
// them.
const (
	metaUI         = "io.modelcontextprotocol/ui"
	metaUIResource = "io.modelcontextprotocol/ui/resource"
	metaUIHTML     = "io.modelcontextprotocol/ui/html"
)

// cspKinds are the kinds of //tool:uicsp, in the order of McpUiResourceCsp,
// with the member each fills.
var cspKinds = [...][2]string{
	{"connect", "connectDomains"},
	{"resource", "resourceDomains"},
	{"frame", "frameDomains"},
	{"baseuri", "baseUriDomains"},
}

// uiPermissions are the permissions //tool:uipermission accepts, as the
// extension names them.
var uiPermissions = []string{"camera", "microphone", "geolocation", "clipboardWrite"}

// uiDirectives is what a tool's app directives declare, and the app's
// file once read. It is a value of plain fields: the unit cache's key
// prints the directives (%#v), so the HTML is in it.
type uiDirectives struct {
	file    string // //tool:ui: a file name in the tool's package directory
	filePos token.Position
	html    string // the file's content (readApp)
	sum     string // its SHA-256, hex

	csp         [len(cspKinds)][]string // by cspKinds
	permissions []string                // sorted as uiPermissions
	border      string                  // "", "true" or "false"
	visibility  []string                // "model", "app"; nil: unset

	firstPos token.Position // of the first app directive but //tool:ui and //tool:visibility
	named    bool           // a //tool:ui line was written, valid or not
}

// applyUI records one app directive; it reports whether key is one. It
// refuses a //tool:meta line with a key of the app directives, which
// apply then records.
func (d *directives) applyUI(ln *directiveLine) bool {
	u := &d.ui
	switch ln.key {
	case "meta":
		if k, _, _ := strings.Cut(ln.arg, " "); strings.HasPrefix(k, metaUI) {
			ln.bad("key %q is reserved for the app directives (//tool:ui)", k)
		}
		return false
	case "ui":
		u.named = true
		if ln.needArg("HTML file name") {
			if ln.arg != filepath.Base(ln.arg) || strings.ContainsAny(ln.arg, `/\`) || !strings.HasSuffix(ln.arg, ".html") {
				ln.bad("%q is not a file name ending in .html: the app is a file of the tool's package directory", ln.arg)
				return true
			}
			u.file, u.filePos = ln.arg, ln.pos
		}
	case "uicsp":
		u.first(ln.pos)
		if ln.needArg("KIND ORIGIN...") {
			u.addCSP(ln)
		}
	case "uipermission":
		u.first(ln.pos)
		if ln.needArg("permission (camera, microphone, geolocation or clipboardWrite)") {
			if !slices.Contains(uiPermissions, ln.arg) {
				ln.bad("unknown permission %q; want camera, microphone, geolocation or clipboardWrite", ln.arg)
			} else if !slices.Contains(u.permissions, ln.arg) {
				u.permissions = append(u.permissions, ln.arg)
				slices.SortFunc(u.permissions, func(a, b string) int {
					return slices.Index(uiPermissions, a) - slices.Index(uiPermissions, b)
				})
			}
		}
	case "uiborder":
		u.first(ln.pos)
		if ln.needArg("true or false") {
			if ln.arg != "true" && ln.arg != "false" {
				ln.bad("want true or false, not %q", ln.arg)
			} else {
				u.border = ln.arg
			}
		}
	case "visibility":
		if ln.needArg("model, app, or both") {
			var vis []string
			for _, v := range strings.Fields(ln.arg) {
				if v != "model" && v != "app" {
					ln.bad("unknown audience %q; want model, app, or both", v)
					return true
				}
				if !slices.Contains(vis, v) {
					vis = append(vis, v)
				}
			}
			slices.SortFunc(vis, func(a, b string) int { return strings.Compare(b, a) }) // model, app
			u.visibility = vis
		}
	default:
		return false
	}
	return true
}

// addCSP records the origins of a //tool:uicsp line.
func (u *uiDirectives) addCSP(ln *directiveLine) {
	kind, rest, _ := strings.Cut(ln.arg, " ")
	i := slices.IndexFunc(cspKinds[:], func(k [2]string) bool { return k[0] == kind })
	if i < 0 {
		ln.bad("unknown kind %q; want connect, resource, frame or baseuri", kind)
		return
	}
	origins := strings.Fields(rest)
	if len(origins) == 0 {
		ln.bad("missing origin after %s", kind)
	}
	for _, o := range origins {
		if msg := checkOrigin(o); msg != "" {
			ln.bad("%s", msg)
			continue
		}
		if !slices.Contains(u.csp[i], o) {
			u.csp[i] = append(u.csp[i], o)
		}
	}
}

// first notes the position of the first app directive that needs
// //tool:ui.
func (u *uiDirectives) first(pos token.Position) {
	if u.firstPos.Filename == "" {
		u.firstPos = pos
	}
}

// finishUI checks the app directives as a set.
func (d *directives) finishUI() []*problem.Error {
	var errs []*problem.Error
	if d.ui.file == "" && d.ui.firstPos.Filename != "" && !d.ui.named {
		errs = append(errs, problem.Errorf(d.ui.firstPos, "app directives need //tool:ui naming the app's HTML file"))
	}
	return errs
}

// checkOrigin returns why o is not an origin a CSP source list takes as
// the extension's domains do (scheme://host[:port], the host possibly
// starting with "*." for any subdomain), or "".
func checkOrigin(o string) string {
	u, err := url.Parse(strings.Replace(o, "://*.", "://wildcard.", 1))
	switch {
	case err != nil || u.Host == "" || u.Opaque != "":
		return fmt.Sprintf("%q is not an origin such as https://cdn.example.com", o)
	case u.Scheme != "https" && u.Scheme != "http" && u.Scheme != "wss" && u.Scheme != "ws":
		return fmt.Sprintf("origin %q: the scheme must be https, http, wss or ws", o)
	case u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || strings.Contains(o, "?") || strings.Contains(o, "#"):
		return fmt.Sprintf("origin %q has more than a scheme, a host and a port", o)
	case strings.Contains(strings.TrimPrefix(u.Host, "wildcard."), "*"):
		return fmt.Sprintf("origin %q: a wildcard stands only at the start of the host, as https://*.example.com", o)
	}
	return ""
}

// readApp reads and checks the app file of a tool whose directives are
// d, declared in dir (absolute): it must exist, be valid UTF-8, an HTML
// document (<!doctype html>), at most maxAppBytes, and every script or
// style sheet it loads must come from an origin of its //tool:uicsp
// resource list. It reads the file through reads, the run's record of the
// files it read besides the packages' (1_load_reads.go): the caches see
// an edit to it. A file over maxAppBytes is refused before it is read.
func readApp(reads *fileReads, dir string, d *directives) []*problem.Error {
	u := &d.ui
	if u.file == "" {
		return nil
	}
	bad := func(format string, args ...any) []*problem.Error {
		return []*problem.Error{problem.Errorf(u.filePos, "//tool:ui "+u.file+": "+format, args...)}
	}
	path := filepath.Join(dir, u.file)
	if fi, err := os.Stat(path); err == nil && fi.Size() > maxAppBytes {
		return bad("the file is over %d KiB, the most an app may hold", maxAppBytes>>10)
	}
	data, err := reads.read(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return bad("no such file in the package directory")
	case err != nil:
		return bad("cannot read the file: %v", err)
	case len(data) > maxAppBytes:
		return bad("the file is over %d KiB, the most an app may hold", maxAppBytes>>10)
	case !utf8.Valid(data):
		return bad("the file is not valid UTF-8")
	case !isHTMLDocument(data):
		return bad("the file is not an HTML document: it must start with <!doctype html>")
	}
	if msg := undeclaredLoads(data, u.csp[1]); msg != "" {
		return bad("%s", msg)
	}
	u.html = string(data)
	sum := sha256.Sum256(data)
	u.sum = hex.EncodeToString(sum[:])
	return nil
}

// isHTMLDocument reports whether data starts, after a byte order mark,
// white space and comments, with an HTML5 doctype.
func isHTMLDocument(data []byte) bool {
	z := html.NewTokenizer(bytes.NewReader(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))))
	for {
		switch z.Next() {
		case html.CommentToken:
			continue
		case html.TextToken:
			if len(bytes.TrimSpace(z.Text())) == 0 {
				continue
			}
			return false
		case html.DoctypeToken:
			return strings.EqualFold(strings.TrimSpace(string(z.Text())), "html")
		default:
			return false
		}
	}
}

// undeclaredLoads returns what is wrong with the first script or style
// sheet data loads from elsewhere than an origin of resources (its
// //tool:uicsp resource list), or "". A relative or data: URL is refused
// too: an app is one file, served with nothing beside it.
func undeclaredLoads(data []byte, resources []string) string {
	z := html.NewTokenizer(bytes.NewReader(data))
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return ""
		}
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			continue
		}
		name, more := z.TagName()
		attrs := map[string]string{}
		for more {
			var k, v []byte
			k, v, more = z.TagAttr()
			attrs[string(k)] = string(v)
		}
		var ref, what string
		switch string(name) {
		case "script":
			ref, what = attrs["src"], "script"
		case "link":
			if !slices.Contains(strings.Fields(strings.ToLower(attrs["rel"])), "stylesheet") {
				continue
			}
			ref, what = attrs["href"], "style sheet"
		}
		if ref == "" {
			continue
		}
		u, err := url.Parse(strings.TrimSpace(ref))
		if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
			return fmt.Sprintf("the %s %q is not at an https origin: an app is one file, served with nothing beside it (inline it, or load it from an origin of //tool:uicsp resource)", what, ref)
		}
		if !originDeclared(u, resources) {
			return fmt.Sprintf("the %s %q loads from %s://%s, which no //tool:uicsp resource line declares: the host's CSP would block it", what, ref, u.Scheme, u.Host)
		}
	}
}

// originDeclared reports whether u's origin is one of origins, or a
// subdomain of a wildcard one.
func originDeclared(u *url.URL, origins []string) bool {
	for _, o := range origins {
		d, err := url.Parse(strings.Replace(o, "://*.", "://wildcard.", 1))
		if err != nil || d.Scheme != u.Scheme {
			continue
		}
		if host, ok := strings.CutPrefix(d.Host, "wildcard."); ok && strings.Contains(o, "://*.") {
			if strings.HasSuffix(u.Host, "."+host) {
				return true
			}
			continue
		}
		if strings.EqualFold(d.Host, u.Host) {
			return true
		}
	}
	return false
}

// uiToolMeta is the value of the tool's metaUI pair: its _meta.ui as the
// MCP tool object carries it, less resourceUri, which runtime/mcpserver
// derives from the server's and the tool's names. "" when the tool has
// neither an app nor a visibility.
func (u *uiDirectives) uiToolMeta() string {
	if u.file == "" && u.visibility == nil {
		return ""
	}
	var b strings.Builder
	b.WriteByte('{')
	if u.visibility != nil {
		b.WriteString(`"visibility":[`)
		for i, v := range u.visibility {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(`"` + v + `"`)
		}
		b.WriteByte(']')
	}
	b.WriteByte('}')
	return b.String()
}

// uiResourceMeta is the value of the tool's metaUIResource pair: the
// app resource's _meta.ui (csp, permissions, prefersBorder), compact
// JSON; "{}" when it declares none.
func (u *uiDirectives) uiResourceMeta() string {
	var parts []string
	var csp []string
	for i, k := range cspKinds {
		if len(u.csp[i]) > 0 {
			csp = append(csp, `"`+k[1]+`":[`+quoteAll(u.csp[i])+`]`)
		}
	}
	if len(csp) > 0 {
		parts = append(parts, `"csp":{`+strings.Join(csp, ",")+`}`)
	}
	if len(u.permissions) > 0 {
		var ps []string
		for _, p := range u.permissions {
			ps = append(ps, `"`+p+`":{}`)
		}
		parts = append(parts, `"permissions":{`+strings.Join(ps, ",")+`}`)
	}
	if u.border != "" {
		parts = append(parts, `"prefersBorder":`+u.border)
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// quoteAll is ss as JSON strings separated by commas.
func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		b, _ := json.Marshal(s) // a string always marshals
		q[i] = string(b)
	}
	return strings.Join(q, ",")
}
