package mcpserver_test

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/mcpserver"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// listedTools are three tools covering what tools/list publishes.
func listedTools() []fakeTool {
	return []fakeTool{
		{spec: tool.Spec{
			Name:         "alpha",
			Title:        "Alpha \"one\"",
			Kind:         tool.KindRead,
			ReadOnly:     true,
			Description:  "First.\nSecond line <b>.",
			InputSchema:  []byte(`{"type":"object","properties":{"q":{"type":"string"}},"additionalProperties":false}`),
			OutputSchema: []byte(`{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}`),
		}},
		{spec: tool.Spec{
			Name:        "beta",
			Kind:        tool.KindAction,
			Destructive: true,
			Idempotent:  true,
			OpenWorld:   true,
			InputSchema: []byte(`{"type":"object"}`),
		}},
		{spec: tool.Spec{Name: "gamma", Kind: tool.KindDisplay}},
	}
}

func TestListExactJSON(t *testing.T) {
	t.Parallel()
	srv, err := mcpserver.New(newStatic(t, listedTools()...), nil)
	require.NoError(t, err)
	c := dialRaw(t, srv.SDK())

	res, err := c.call(t.Context(), "tools/list", `{}`)
	require.NoError(t, err)
	want := `{"ttlMs":0,"cacheScope":"public","tools":[` +
		`{"name":"alpha","title":"Alpha \"one\"","description":"First.\nSecond line <b>.",` +
		`"inputSchema":{"type":"object","properties":{"q":{"type":"string"}},"additionalProperties":false},` +
		`"outputSchema":{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]},` +
		`"annotations":{"title":"Alpha \"one\"","readOnlyHint":true,"destructiveHint":false,"idempotentHint":false,"openWorldHint":false}},` +
		`{"name":"beta","inputSchema":{"type":"object"},` +
		`"annotations":{"readOnlyHint":false,"destructiveHint":true,"idempotentHint":true,"openWorldHint":true}},` +
		`{"name":"gamma","inputSchema":` + tool.NoInputSchema + `,` +
		`"annotations":{"readOnlyHint":false,"destructiveHint":false,"idempotentHint":false,"openWorldHint":false}}]}`
	assert.Equal(t, want, string(res))

	// The second listing is served from the same bytes.
	again, err := c.call(t.Context(), "tools/list", `{}`)
	require.NoError(t, err)
	assert.Equal(t, want, string(again))
}

func TestListEmptyRegistry(t *testing.T) {
	t.Parallel()
	srv, err := mcpserver.New(newStatic(t), nil)
	require.NoError(t, err)
	res, err := dialRaw(t, srv.SDK()).call(t.Context(), "tools/list", `{}`)
	require.NoError(t, err)
	assert.JSONEq(t, `{"ttlMs":0,"cacheScope":"public","tools":[]}`, string(res))
}

func TestListPagination(t *testing.T) {
	t.Parallel()
	tools := namedTools("t", 25, 200)
	var want []string
	for _, ft := range tools {
		want = append(want, ft.spec.Name)
	}
	for _, tc := range []struct {
		pageSize int
		pages    []int // tools per page
	}{
		{pageSize: 10, pages: []int{10, 10, 5}},
		{pageSize: 5, pages: []int{5, 5, 5, 5, 5}},
		{pageSize: 25, pages: []int{25}},
		{pageSize: 0, pages: []int{25}}, // the default, 1000
		{pageSize: 1, pages: slices.Repeat([]int{1}, 25)},
	} {
		for _, proto := range protocols {
			t.Run(fmt.Sprintf("size=%d/%s", tc.pageSize, protocolName(proto)), func(t *testing.T) {
				t.Parallel()
				srv, err := mcpserver.New(newStatic(t, tools...), &mcpserver.Options{PageSize: tc.pageSize})
				require.NoError(t, err)
				cs := connect(t, srv, proto, nil)
				var got []string
				var sizes []int
				cursor := ""
				for range len(tc.pages) + 1 {
					res, err := cs.ListTools(t.Context(), &mcp.ListToolsParams{Cursor: cursor})
					require.NoError(t, err)
					sizes = append(sizes, len(res.Tools))
					for _, tl := range res.Tools {
						got = append(got, tl.Name)
					}
					cursor = res.NextCursor
					if cursor == "" {
						break
					}
				}
				assert.Equal(t, tc.pages, sizes)
				assert.Equal(t, want, got)
			})
		}
	}
}

func TestListLatestProtocolKeepsSDKFields(t *testing.T) {
	t.Parallel()
	srv, err := mcpserver.New(newStatic(t, listedTools()...), &mcpserver.Options{Name: "probe", Version: "9"})
	require.NoError(t, err)
	cs := connect(t, srv, protocolLatest, nil)
	require.GreaterOrEqual(t, cs.InitializeResult().ProtocolVersion, "2026-07-28")
	res, err := cs.ListTools(t.Context(), nil)
	require.NoError(t, err)
	require.Len(t, res.Tools, 3)
	// The SDK stamps serverInfo into the result after the middleware
	// returned it; the spliced JSON must carry it.
	info, ok := res.Meta[mcp.MetaKeyServerInfo].(map[string]any)
	require.True(t, ok, "meta: %v", res.Meta)
	assert.Equal(t, "probe", info["name"])
	assert.Equal(t, "public", res.CacheScope)
	alpha := res.Tools[0]
	assert.Equal(t, "Alpha \"one\"", alpha.Title)
	assert.NotNil(t, alpha.OutputSchema)
	assert.Nil(t, res.Tools[1].OutputSchema)
	require.NotNil(t, res.Tools[1].Annotations)
	require.NotNil(t, res.Tools[1].Annotations.DestructiveHint)
	assert.True(t, *res.Tools[1].Annotations.DestructiveHint)
	require.NotNil(t, res.Tools[2].Annotations.OpenWorldHint)
	assert.False(t, *res.Tools[2].Annotations.OpenWorldHint)
}

func TestListCursors(t *testing.T) {
	t.Parallel()
	srv, err := mcpserver.New(newStatic(t, listedTools()...), nil)
	require.NoError(t, err)
	c := dialRaw(t, srv.SDK())
	for _, cursor := range []string{"!!not base64!!", base64.RawURLEncoding.EncodeToString([]byte{0xff, 0xfe})} {
		_, err := c.call(t.Context(), "tools/list", `{"cursor":"`+cursor+`"}`)
		require.Error(t, err)
		assert.Equal(t, int64(jsonrpc.CodeInvalidParams), wireError(t, err).Code)
	}
	// The session survives.
	_, err = c.call(t.Context(), "tools/list", `{}`)
	assert.NoError(t, err)

	// A cursor past the last tool (the tools changed since) lists nothing.
	res, err := c.call(t.Context(), "tools/list", `{"cursor":"`+base64.RawURLEncoding.EncodeToString([]byte("zzz"))+`"}`)
	require.NoError(t, err)
	assert.JSONEq(t, `{"ttlMs":0,"cacheScope":"public","tools":[]}`, string(res))
}

func TestListCursorAcrossChange(t *testing.T) {
	t.Parallel()
	tools := namedTools("a", 25, 100) // a000 ... a024
	src := newFakeSource(newStatic(t, tools...))
	srv, err := mcpserver.New(src, &mcpserver.Options{PageSize: 10})
	require.NoError(t, err)
	t.Cleanup(func() { _ = srv.Close() })
	cs := connect(t, srv, protocolLegacy, nil)

	first, err := cs.ListTools(t.Context(), nil)
	require.NoError(t, err)
	require.Len(t, first.Tools, 10)
	assert.Equal(t, "a009", first.Tools[9].Name)
	assert.Equal(t, "private", first.CacheScope, "a changing source is not cached by intermediaries")

	// Between pages, a005 goes and a0095 comes: the next page starts after
	// a009, wherever that falls now.
	changed := slices.Concat(tools[:5], tools[6:10], []fakeTool{{spec: tool.Spec{Name: "a0095", Kind: tool.KindRead}}}, tools[10:])
	src.set(newStatic(t, changed...))

	var rest []string
	cursor := first.NextCursor
	for cursor != "" {
		res, err := cs.ListTools(t.Context(), &mcp.ListToolsParams{Cursor: cursor})
		require.NoError(t, err)
		for _, tl := range res.Tools {
			rest = append(rest, tl.Name)
		}
		cursor = res.NextCursor
	}
	want := []string{"a0095"}
	for _, ft := range tools[10:] {
		want = append(want, ft.spec.Name)
	}
	assert.Equal(t, want, rest)
}

func TestListRefusesBadSchemas(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		spec tool.Spec
	}{
		{"input not JSON", tool.Spec{Name: "x", Kind: tool.KindRead, InputSchema: []byte(`{"type":`)}},
		{"input not an object", tool.Spec{Name: "x", Kind: tool.KindRead, InputSchema: []byte(`["object"]`)}},
		{"output not JSON", tool.Spec{Name: "x", Kind: tool.KindRead, OutputSchema: []byte(`{]`)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv, err := mcpserver.New(newStatic(t, fakeTool{spec: tc.spec}), nil)
			require.NoError(t, err)
			_, err = dialRaw(t, srv.SDK()).call(t.Context(), "tools/list", `{}`)
			require.Error(t, err)
			we := wireError(t, err)
			assert.Equal(t, int64(jsonrpc.CodeInternalError), we.Code)
			assert.NotContains(t, we.Message, "type", "the schema's bytes stay in the log")
		})
	}
}

func TestNewRefusesBadOptions(t *testing.T) {
	t.Parallel()
	_, err := mcpserver.New(nil, nil)
	assert.Error(t, err)
	_, err = mcpserver.New(newStatic(t), &mcpserver.Options{PageSize: -1})
	assert.Error(t, err)
}

// TestListSchemaBytesVerbatim checks that the published schemas are the
// registry's bytes, not a re-encoding of them.
func TestListSchemaBytesVerbatim(t *testing.T) {
	t.Parallel()
	tools := namedTools("s", 3, 700)
	srv, err := mcpserver.New(newStatic(t, tools...), nil)
	require.NoError(t, err)
	res, err := dialRaw(t, srv.SDK()).call(t.Context(), "tools/list", `{}`)
	require.NoError(t, err)
	var got struct {
		Tools []struct {
			Name        string          `json:"name"`
			InputSchema json.RawMessage `json:"inputSchema"`
		} `json:"tools"`
	}
	require.NoError(t, json.Unmarshal(res, &got))
	require.Len(t, got.Tools, 3)
	for i, tl := range got.Tools {
		assert.Equal(t, tools[i].spec.Name, tl.Name)
		assert.Equal(t, string(tools[i].spec.InputSchema), string(tl.InputSchema))
	}
}
