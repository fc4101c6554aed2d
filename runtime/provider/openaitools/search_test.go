package openaitools_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/provider"
	"github.com/toolgen-go/toolgen/runtime/provider/openaitools"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// searchOf returns the native tool search form of the sample tools, whose
// notes_outline and notes_render are deferred in the group notes.
func searchOf(t *testing.T, reg tool.Registry) *provider.Search {
	t.Helper()
	defs, err := provider.NewDefinitions(reg)
	require.NoError(t, err)
	search, err := provider.NewSearch(defs, provider.SearchBM25)
	require.NoError(t, err)
	require.Equal(t, 2, search.Deferred())
	return search
}

// TestSearchToolsOnTheWire: the SDK sends the search's array byte for
// byte, and reads it back as its own namespace, function and tool_search
// params.
func TestSearchToolsOnTheWire(t *testing.T) {
	t.Parallel()
	search := searchOf(t, registry(t))
	client, fake := newClient(t)
	r, err := client.Responses.New(context.Background(), responses.ResponseNewParams{
		Model: "gpt-test",
		Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("hello")},
		Tools: openaitools.SearchResponsesTools(search),
	})
	require.NoError(t, err)
	require.Equal(t, "ok", r.OutputText())
	assertTools(t, fake.body, search.OpenAIResponses())
	b, err := json.Marshal(openaitools.SearchResponsesTools(search))
	require.NoError(t, err)
	assert.Equal(t, string(search.OpenAIResponses()), string(b))

	// Our bytes, as the SDK's param types.
	var params []responses.ToolUnionParam
	require.NoError(t, json.Unmarshal(search.OpenAIResponses(), &params))
	require.Len(t, params, len(search.OpenAIResponsesItems()))
	var functions []string
	var ns *responses.NamespaceToolParam
	for _, p := range params {
		switch {
		case p.OfFunction != nil:
			functions = append(functions, p.OfFunction.Name)
			assert.False(t, p.OfFunction.DeferLoading.Valid(), "%s is loaded at once", p.OfFunction.Name)
			assert.True(t, p.OfFunction.Strict.Valid())
		case p.OfNamespace != nil:
			require.Nil(t, ns, "one namespace")
			ns = p.OfNamespace
		default:
			require.NotNil(t, p.OfToolSearch, "functions, a namespace and the tool search tool only")
		}
	}
	assert.Equal(t, []string{"clock_now", "clock_sync", "clock_wait", "clock_zones", "notes_create", "notes_delete", "notes_get", "notes_search", "notes_share", "notes_tag", "notes_update", "weather_forecast"}, functions)
	require.NotNil(t, params[len(params)-1].OfToolSearch, "the tool search tool is last")
	require.NotNil(t, ns)
	assert.Equal(t, "notes", ns.Name)
	assert.Equal(t, "The user's notes: find, read, show, outline, create, change, tag, share and delete them.", ns.Description)
	require.Len(t, ns.Tools, 2)
	for i, name := range []string{"notes_outline", "notes_render"} {
		fn := ns.Tools[i].OfFunction
		require.NotNil(t, fn)
		assert.Equal(t, name, fn.Name)
		assert.True(t, fn.DeferLoading.Valid() && fn.DeferLoading.Value, "%s is deferred", name)
		assert.NotNil(t, fn.Parameters)
	}
}

// countingCaller counts the calls it passes on.
type countingCaller struct {
	tool.Caller
	calls []string
}

func (c *countingCaller) Call(ctx context.Context, name string, args []byte) (tool.Result, error) {
	c.calls = append(c.calls, name)
	return c.Caller.Call(ctx, name, args)
}

// responseWith is a fake Responses API that answers every request with
// the given output items.
func responseWith(t *testing.T, output string) openai.Client {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"id":"resp_1","object":"response","created_at":1,"model":"gpt-test","status":"completed","output":`+output+`}`)
	}))
	t.Cleanup(srv.Close)
	return openai.NewClient(option.WithBaseURL(srv.URL), option.WithAPIKey("test"), option.WithMaxRetries(0))
}

// TestSearchResponsesCall: a function the model loaded through tool
// search comes back with its namespace; the adapter maps it to the
// registry's name, and refuses a pair the request did not offer without
// running anything.
func TestSearchResponsesCall(t *testing.T) {
	t.Parallel()
	reg := registry(t)
	search := searchOf(t, reg)
	client := responseWith(t, `[
		{"type":"tool_search_call","id":"tsc_1","call_id":null,"execution":"server","arguments":{"query":"outline"},"status":"completed"},
		{"type":"tool_search_output","id":"tso_1","call_id":null,"execution":"server","status":"completed","tools":[]},
		{"type":"function_call","id":"fc_1","call_id":"call_1","namespace":"notes","name":"notes_outline","arguments":"{\"id\":\"n1\"}","status":"completed"},
		{"type":"function_call","id":"fc_2","call_id":"call_2","namespace":"clock","name":"notes_outline","arguments":"{\"id\":\"n1\"}","status":"completed"},
		{"type":"function_call","id":"fc_3","call_id":"call_3","name":"notes_render","arguments":"{\"id\":\"n1\"}","status":"completed"},
		{"type":"function_call","id":"fc_4","call_id":"call_4","namespace":"notes","name":"notes_get","arguments":"{\"id\":\"n1\"}","status":"completed"},
		{"type":"function_call","id":"fc_5","call_id":"call_5","name":"notes_get","arguments":"{\"id\":\"n1\"}","status":"completed"}
	]`)
	resp, err := client.Responses.New(context.Background(), responses.ResponseNewParams{
		Model: "gpt-test",
		Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("outline n1")},
		Tools: openaitools.SearchResponsesTools(search),
	})
	require.NoError(t, err)
	outline, err := reg.Call(context.Background(), "notes_outline", []byte(`{"id":"n1"}`))
	require.NoError(t, err)
	get, err := reg.Call(context.Background(), "notes_get", []byte(`{"id":"n1"}`))
	require.NoError(t, err)

	want := []struct {
		callID, output string
		code           tool.Code
		ran            string
	}{
		{"call_1", outline.Text(), 0, "notes_outline"},
		{"call_2", `unknown tool "clock.notes_outline"`, tool.CodeUnknownTool, ""},
		{"call_3", `unknown tool "notes_render"`, tool.CodeUnknownTool, ""},
		{"call_4", `unknown tool "notes.notes_get"`, tool.CodeUnknownTool, ""},
		{"call_5", get.Text(), 0, "notes_get"},
	}
	var calls []responses.ResponseFunctionToolCall
	for _, item := range resp.Output {
		if item.Type == "function_call" {
			calls = append(calls, item.AsFunctionCall())
		}
	}
	require.Len(t, calls, len(want))
	for i, call := range calls {
		w := want[i]
		caller := &countingCaller{Caller: reg}
		item, err := openaitools.SearchResponsesCall(context.Background(), caller, search, call)
		assert.Equal(t, w.code, tool.CodeOf(err), w.callID)
		require.NotNil(t, item.OfFunctionCallOutput)
		assert.Equal(t, w.callID, item.OfFunctionCallOutput.CallID.Value)
		if w.ran == "" {
			assert.Empty(t, caller.calls, "%s: nothing runs", w.callID)
			assert.Contains(t, item.OfFunctionCallOutput.Output.OfString.Value, w.output, w.callID)
		} else {
			assert.Equal(t, []string{w.ran}, caller.calls, w.callID)
			assert.Equal(t, w.output, item.OfFunctionCallOutput.Output.OfString.Value, w.callID)
		}
	}

	// The plain adapter cannot check a namespace: it refuses the call.
	caller := &countingCaller{Caller: reg}
	item, err := openaitools.ResponsesCall(context.Background(), caller, calls[0])
	assert.Equal(t, tool.CodeUnknownTool, tool.CodeOf(err))
	assert.Empty(t, caller.calls)
	assert.Contains(t, item.OfFunctionCallOutput.Output.OfString.Value, `unknown tool "notes.notes_outline"`)
}
