package mcpclient

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime/internal/byname"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// MetaRemoteName is the key of the tool.Meta pair of a remote tool's Spec
// that holds the name the remote server gives it.
const MetaRemoteName = "mcp.remote_name"

// listing is one tools/list answer of the remote server, mapped: the specs
// sorted by local name, and the names both ways. It is never modified
// once published.
type listing struct {
	specs  []*tool.Spec
	remote map[string]string // local name → remote name
	local  map[string]string // remote name → local name
}

// newListing maps the remote tools to specs, reusing the specs of prev
// that did not change, and prev itself when nothing did. Two remote tools
// mapped to one local name are both left out, and logged.
func (p *Toolkit) newListing(tools []*mcp.Tool, prev *listing) *listing {
	byLocal := make(map[string][]*mcp.Tool, len(tools))
	for _, t := range tools {
		if t == nil {
			continue
		}
		local := LocalName(p.group, t.Name)
		byLocal[local] = append(byLocal[local], t)
	}
	l := &listing{remote: make(map[string]string, len(byLocal)), local: make(map[string]string, len(byLocal))}
	for local, ts := range byLocal {
		if len(ts) > 1 {
			names := make([]string, len(ts))
			for i, t := range ts {
				names[i] = t.Name
			}
			slices.Sort(names)
			p.logger().Warn("mcpclient: remote tools map to one local name and are left out",
				slog.String("group", p.group), slog.String("local", local), slog.Any("remote", names))
			continue
		}
		spec, err := p.spec(local, ts[0])
		if err != nil {
			p.logger().Warn("mcpclient: remote tool left out", slog.String("group", p.group),
				slog.String("remote", ts[0].Name), slog.String("error", err.Error()))
			continue
		}
		if prev != nil {
			if old := prev.find(local); old != nil && sameSpec(old, spec) {
				spec = old
			}
		}
		l.specs = append(l.specs, spec)
		l.remote[local], l.local[ts[0].Name] = ts[0].Name, local
	}
	slices.SortFunc(l.specs, func(a, b *tool.Spec) int { return strings.Compare(a.Name, b.Name) })
	if prev != nil && slices.Equal(prev.specs, l.specs) {
		return prev
	}
	return l
}

// find returns the spec of that local name, or nil.
func (l *listing) find(local string) *tool.Spec {
	s, _ := byname.Find(l.specs, local)
	return s
}

// spec describes a remote tool under its local name. Its annotations count
// only when the server is trusted: otherwise the tool is an action that
// may destroy and reach the open world, whatever it says of itself.
func (p *Toolkit) spec(local string, t *mcp.Tool) (*tool.Spec, error) {
	in, err := compact(t.InputSchema)
	if err != nil {
		return nil, err
	}
	if len(in) == 0 || string(in) == "null" {
		in = []byte(tool.NoInputSchema)
	}
	out, err := compact(t.OutputSchema)
	if err != nil {
		return nil, err
	}
	if string(out) == "null" {
		out = nil
	}
	s := &tool.Spec{
		Name:        local,
		Title:       t.Title,
		Group:       p.group,
		Kind:        tool.KindAction,
		Destructive: true,
		OpenWorld:   true,
		Timeout:     p.opts.CallTimeout,
		Description: t.Description,
		InputSchema: in,
		Meta:        []tool.Meta{{Key: MetaRemoteName, Value: t.Name}},
	}
	if len(out) > 0 {
		s.OutputSchema = out
	}
	if a := t.Annotations; a != nil {
		if s.Title == "" {
			s.Title = a.Title
		}
		if p.opts.Trusted {
			s.ReadOnly = a.ReadOnlyHint
			s.Destructive = !a.ReadOnlyHint && (a.DestructiveHint == nil || *a.DestructiveHint)
			s.Idempotent = a.IdempotentHint
			s.OpenWorld = a.OpenWorldHint == nil || *a.OpenWorldHint
			if a.ReadOnlyHint {
				s.Kind = tool.KindRead
			}
		}
	}
	return s, nil
}

// compact returns v, a schema the SDK decoded (a map), as compact JSON;
// nil for nil.
func compact(v any) ([]byte, error) {
	if v == nil {
		return nil, nil
	}
	return json.Marshal(v)
}

// sameSpec reports whether two specs of a remote tool say the same.
func sameSpec(a, b *tool.Spec) bool {
	return a.Name == b.Name && a.Title == b.Title && a.Kind == b.Kind && a.ReadOnly == b.ReadOnly &&
		a.Destructive == b.Destructive && a.Idempotent == b.Idempotent && a.OpenWorld == b.OpenWorld &&
		a.Timeout == b.Timeout && a.Description == b.Description && bytes.Equal(a.InputSchema, b.InputSchema) &&
		bytes.Equal(a.OutputSchema, b.OutputSchema) && slices.Equal(a.Meta, b.Meta)
}
