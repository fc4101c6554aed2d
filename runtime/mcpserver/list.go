package mcpserver

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"sort"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// listing is the tools/list answer for one version of the tool set: the
// tools' JSON, written once and served as is.
type listing struct {
	// version is Server.version when the listing was built.
	version uint64
	// tools is the offer the listing was written from; the listing is
	// current while Offer returns the same specs.
	tools []*tool.Spec
	// pages holds each page of pageSize tools.
	pages []page
	// elems holds each tool's JSON object, slices of the pages.
	elems [][]byte
	// scope is the cacheScope of the results.
	scope string
}

// page is one page of a listing.
type page struct {
	// result is the whole tools/list result as the SDK writes it when it
	// adds no field of its own (no _meta, no resultType): what the
	// initialize-handshake protocol versions are served.
	result []byte
	// tools is the JSON array of the page's tools, a slice of result.
	tools []byte
	// next is the cursor of the next page; "" after the last.
	next string
}

// sameSpecs reports whether a and b hold the same specs (the same
// pointers, not merely equal specs) in the same order: a Caller that
// builds a new slice per request for the same offer keeps the listing.
// It is O(n) and allocates nothing.
func sameSpecs(a, b []*tool.Spec) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) == 0 || &a[0] == &b[0] {
		return true // the same slice
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// maxListings bounds the listings a Server keeps, one per distinct offer:
// an offer per principal (or per role, per conversation...) has its bytes
// written once and served as they are, so that a principal's listing is
// byte for byte the same on every request. Past the bound, one listing,
// chosen at random, is dropped to make room (a dropped one is written
// again, with the same bytes, when next asked for).
const maxListings = 64

// listings is the Server's cache of listings by offer.
type listings struct {
	// last is the listing served last: the one a caller whose offer never
	// varies (a generated tool.Registry) is served, with no lock and no
	// hash.
	last atomic.Pointer[listing]

	seed maphash.Seed
	mu   sync.Mutex
	// byOffer holds the listings by the hash of their offer's spec
	// pointers; a hash shared by two offers keeps the latest.
	byOffer map[uint64]*listing
}

// offerHash hashes the spec pointers of an offer: two offers holding the
// same specs in the same order hash alike, whichever slice holds them.
func (c *listings) offerHash(tools []*tool.Spec) uint64 {
	var h maphash.Hash
	h.SetSeed(c.seed)
	for _, sp := range tools {
		maphash.WriteComparable(&h, sp)
	}
	return h.Sum64()
}

// find returns the kept listing of tools at version v, if any.
func (c *listings) find(tools []*tool.Spec, v uint64) (*listing, uint64) {
	key := c.offerHash(tools)
	c.mu.Lock()
	l := c.byOffer[key]
	c.mu.Unlock()
	if l != nil && l.version == v && sameSpecs(l.tools, tools) {
		return l, key
	}
	return nil, key
}

// keep stores l under key, dropping a listing past maxListings and every
// listing of another version.
func (c *listings) keep(key uint64, l *listing) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byOffer == nil {
		c.byOffer = make(map[uint64]*listing)
	}
	for k, old := range c.byOffer {
		if old.version != l.version {
			delete(c.byOffer, k)
		}
	}
	if _, ok := c.byOffer[key]; !ok && len(c.byOffer) >= maxListings {
		for k := range c.byOffer { // a random one: map order
			delete(c.byOffer, k)
			break
		}
	}
	c.byOffer[key] = l
}

// current returns the listing of the tools offered to the caller of ctx:
// the last one served when the offer is the same, else the one kept for
// this offer, else one written now and kept. A caller that records
// (tool.Recorder: the call service) records it.
func (s *Server) current(ctx context.Context) (*listing, error) {
	v := s.version.Load()
	tools := s.caller.Offer(ctx)
	if r, ok := s.caller.(tool.Recorder); ok {
		r.RecordOffer(ctx, tools) // the call service: tools/list is an offer
	}
	if l := s.listings.last.Load(); l != nil && l.version == v && sameSpecs(l.tools, tools) {
		return l, nil
	}
	l, key := s.listings.find(tools, v)
	if l == nil {
		scope := "public"
		if s.perCaller {
			// An offer that changes or depends on who asks may be one
			// person's: let no intermediary share it.
			scope = "private"
		}
		var err error
		if l, err = buildListing(tools, s.pageSize, scope, s.encodeToolMeta); err != nil {
			return nil, err
		}
		l.version = v
		s.listings.keep(key, l)
	}
	s.listings.last.Store(l)
	return l, nil
}

// resultHead returns the JSON of a tools/list result without its tools,
// up to the tools' array: the SDK's layout, whatever fields it sets.
func resultHead(res *mcp.ListToolsResult) ([]byte, error) {
	head := *res
	head.Tools = []*mcp.Tool{}
	b, err := json.Marshal(&head)
	if err != nil {
		return nil, fmt.Errorf("marshal tools/list result: %w", err)
	}
	if !bytes.HasSuffix(b, emptyToolsTail) {
		return nil, fmt.Errorf("marshal tools/list result: unexpected layout %s", b)
	}
	return b[:len(b)-len(`[]}`)], nil
}

// buildListing writes the JSON of every tool, in pages of pageSize whose
// results have the given cacheScope; meta writes a tool's _meta member,
// if it has one (apps.go).
func buildListing(tools []*tool.Spec, pageSize int, scope string, meta func(*codec.Encoder, *tool.Spec)) (*listing, error) {
	n := len(tools)
	npages := (n + pageSize - 1) / pageSize
	if npages == 0 {
		npages = 1 // one empty page
	}
	l := &listing{
		tools: tools,
		pages: make([]page, npages),
		elems: make([][]byte, n),
		scope: scope,
	}
	e := codec.NewEncoder()
	offsets := make([]int, 0, pageSize+1)
	for p := range npages {
		lo, hi := p*pageSize, min((p+1)*pageSize, n)
		pg := &l.pages[p]
		if hi < n {
			pg.next = encodeCursor(tools[hi-1].Name)
		}
		var res mcp.ListToolsResult
		res.CacheScope, res.NextCursor = scope, pg.next
		buf, err := resultHead(&res)
		if err != nil {
			return nil, err
		}
		start := len(buf)
		offsets = offsets[:0]
		buf = append(buf, '[')
		for i := lo; i < hi; i++ {
			if i > lo {
				buf = append(buf, ',')
			}
			if i > 0 && tools[i-1].Name >= tools[i].Name {
				return nil, fmt.Errorf("list tools: tools not sorted by name: %q before %q", tools[i-1].Name, tools[i].Name)
			}
			e.Reset()
			if err := encodeTool(e, tools[i], meta); err != nil {
				return nil, err
			}
			offsets = append(offsets, len(buf))
			buf = append(buf, e.Bytes()...)
		}
		offsets = append(offsets, len(buf)+1) // past the last ','
		buf = append(buf, ']')
		end := len(buf)
		buf = append(buf, '}')
		for j := range hi - lo {
			l.elems[lo+j] = buf[offsets[j] : offsets[j+1]-1 : offsets[j+1]-1]
		}
		pg.result = buf
		pg.tools = buf[start:end:end]
	}
	return l, nil
}

// encodeTool writes one tool as MCP lists it, its _meta written by meta.
func encodeTool(e *codec.Encoder, sp *tool.Spec, meta func(*codec.Encoder, *tool.Spec)) error {
	if sp == nil {
		return errors.New("list tools: nil spec")
	}
	in := sp.InputSchema
	if len(in) == 0 {
		// MCP requires an input schema, of type object. A tool without
		// one is published as taking no arguments, with the schema toolgen
		// writes for such tools, so that every view of a tool without
		// arguments says the same.
		in = []byte(tool.NoInputSchema)
	}
	if t := bytes.TrimLeft(in, " \t\r\n"); len(t) == 0 || t[0] != '{' {
		return fmt.Errorf("list tools: tool %s: input schema is not a JSON object", sp.Name)
	}
	e.ObjectStart()
	e.Key("name")
	e.String(sp.Name)
	if sp.Title != "" {
		e.Key("title")
		e.String(sp.Title)
	}
	if sp.Description != "" {
		e.Key("description")
		e.String(sp.Description)
	}
	e.Key("inputSchema")
	e.JSON(in, nil)
	switch {
	case sp.Kind == tool.KindPropose:
		// A propose tool's call answers with the proposal it stored (the
		// call service) or an error (the bare registry): never with the
		// tool's own output, which only a confirmation produces.
		e.Key("outputSchema")
		e.JSON([]byte(tool.ProposalOutputSchema), nil)
	case len(sp.OutputSchema) > 0:
		e.Key("outputSchema")
		e.JSON(sp.OutputSchema, nil)
	}
	e.Key("annotations")
	e.ObjectStart()
	if sp.Title != "" {
		// For clients of protocol versions before the top-level title.
		e.Key("title")
		e.String(sp.Title)
	}
	e.Key("readOnlyHint")
	e.Bool(sp.ReadOnly)
	e.Key("destructiveHint")
	e.Bool(sp.Destructive)
	e.Key("idempotentHint")
	e.Bool(sp.Idempotent)
	e.Key("openWorldHint")
	e.Bool(sp.OpenWorld)
	e.ObjectEnd()
	meta(e, sp)
	e.ObjectEnd()
	if err := e.Err(); err != nil {
		return fmt.Errorf("list tools: tool %s: %w", sp.Name, err)
	}
	return nil
}

// encodeCursor returns the cursor of the page after the tool named last.
func encodeCursor(last string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(last))
}

// decodeCursor returns the name of the tool a page starts after.
func decodeCursor(cursor string) (string, error) {
	b, err := base64.RawURLEncoding.DecodeString(cursor)
	if err != nil || !utf8.Valid(b) {
		return "", errors.New(msgInvalidCursor) // quotes nothing of the request
	}
	return string(b), nil
}

// page returns the page starting after the tool named after (first: the
// first page): a precomputed one when the cursor falls on a page boundary,
// else (the tools changed since the cursor was handed out) one written now.
func (l *listing) page(after string, first bool, pageSize int) page {
	if first {
		return l.pages[0]
	}
	// The cursor names the last tool of the previous page; when the tools
	// changed since, the page starts after where that tool would be.
	i := sort.Search(len(l.tools), func(i int) bool { return l.tools[i].Name > after })
	if i%pageSize == 0 && i/pageSize < len(l.pages) {
		return l.pages[i/pageSize]
	}
	hi := min(i+pageSize, len(l.tools))
	size := 2
	for _, el := range l.elems[i:hi] {
		size += len(el) + 1
	}
	buf := make([]byte, 0, size)
	buf = append(buf, '[')
	for j, el := range l.elems[i:hi] {
		if j > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, el...)
	}
	buf = append(buf, ']')
	var pg page
	pg.tools = buf
	if hi < len(l.tools) {
		pg.next = encodeCursor(l.tools[hi-1].Name)
	}
	return pg
}

// list answers tools/list for the caller of ctx.
func (s *Server) list(ctx context.Context, params *mcp.ListToolsParams) (mcp.Result, error) {
	l, err := s.current(ctx)
	if err != nil {
		s.log.Error("mcp server: tools/list failed", "error", err)
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: msgCannotList}
	}
	var after string
	first := params == nil || params.Cursor == ""
	if !first {
		if after, err = decodeCursor(params.Cursor); err != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: err.Error()}
		}
	}
	res := &listResult{page: l.page(after, first, s.pageSize)}
	res.NextCursor = res.page.next
	res.CacheScope = l.scope
	return res, nil
}

// listResult is a tools/list result whose tools are JSON written
// beforehand. The SDK may set the embedded result's other fields (_meta,
// resultType) after the middleware returns; MarshalJSON writes them as the
// SDK would and splices the tools in.
type listResult struct {
	mcp.ListToolsResult
	page page
}

// emptyToolsTail ends the JSON of a ListToolsResult without tools: Tools is
// its last field.
var emptyToolsTail = []byte(`"tools":[]}`)

// MarshalJSON writes the result with the tools spliced in: the page's
// precomputed result when the SDK added nothing to it, else the fields as
// the SDK writes them followed by the page's tools.
func (r *listResult) MarshalJSON() ([]byte, error) {
	head, err := resultHead(&r.ListToolsResult)
	if err != nil {
		return nil, err
	}
	pg := r.page
	if pg.result != nil && len(pg.result) == len(head)+len(pg.tools)+1 && bytes.Equal(head, pg.result[:len(head)]) {
		return pg.result, nil // shared: the caller only reads it
	}
	out := make([]byte, 0, len(head)+len(pg.tools)+1)
	out = append(out, head...)
	out = append(out, pg.tools...)
	return append(out, '}'), nil
}
