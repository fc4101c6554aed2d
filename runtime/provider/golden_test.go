package provider_test

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/jsonlex"
	"github.com/toolgen-go/toolgen/runtime/jsontree"
	"github.com/toolgen-go/toolgen/runtime/provider"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares got with testdata/name, or rewrites the file under
// -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.WriteFile(path, got, 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "missing golden file; run go test ./provider -update")
	assert.Equal(t, string(want), string(got), "%s differs; run go test ./provider -update and review the diff", path)
}

// TestGoldenTools checks each provider's tools array for the sample
// registry. The files hold the arrays indented for review; compacting a
// file gives the exact bytes back, so they pin every byte.
func TestGoldenTools(t *testing.T) {
	t.Parallel()
	defs, err := provider.NewDefinitions(sampleRegistry(t))
	require.NoError(t, err)
	for _, c := range []struct {
		file string
		json []byte
	}{
		{"openai_chat.json", defs.OpenAIChat()},
		{"openai_responses.json", defs.OpenAIResponses()},
		{"anthropic.json", defs.Anthropic()},
		{"gemini.json", defs.Gemini()},
	} {
		t.Run(c.file, func(t *testing.T) {
			t.Parallel()
			n, err := jsontree.Parse(c.json)
			require.NoError(t, err)
			require.Equal(t, string(c.json), string(n.Compact()), "the array is compact JSON as encoding/json writes it")
			golden(t, c.file, append(n.Indent("", "  "), '\n'))
		})
	}
}

// TestGoldenReport checks what each projection changed or why it fell
// back, per sample tool: what toolgen lists in the manifest.
func TestGoldenReport(t *testing.T) {
	t.Parallel()
	defs, err := provider.NewDefinitions(sampleRegistry(t))
	require.NoError(t, err)
	report := &jsontree.Node{Kind: jsonlex.Array}
	for _, tl := range defs.Tools() {
		report.Items = append(report.Items, obj(
			"name", text(tl.Spec.Name),
			"openai", obj("strict", boolNode(tl.OpenAIChat.Strict), "reason", text(tl.OpenAIChat.Reason), "dropped", texts(tl.OpenAIChat.Dropped)),
			"gemini", obj("form", text(string(tl.Gemini.Form)), "reason", text(tl.Gemini.Reason), "dropped", texts(tl.Gemini.Dropped)),
		))
		assert.Equal(t, tl.OpenAIChat.Strict, tl.OpenAIResponses.Strict, "%s: both OpenAI APIs get the same parameters", tl.Spec.Name)
		assert.Equal(t, tl.OpenAIChat.Reason, tl.OpenAIResponses.Reason, tl.Spec.Name)
		assert.Equal(t, tl.OpenAIChat.Dropped, tl.OpenAIResponses.Dropped, tl.Spec.Name)
	}
	golden(t, "report.json", append(report.Indent("", "  "), '\n'))
}

// obj builds an object node from key, value pairs.
func obj(kv ...any) *jsontree.Node {
	n := &jsontree.Node{Kind: jsonlex.Object, Members: []jsontree.Member{}}
	for i := 0; i < len(kv); i += 2 {
		n.Members = append(n.Members, jsontree.Member{Key: kv[i].(string), Value: kv[i+1].(*jsontree.Node)})
	}
	return n
}

func text(s string) *jsontree.Node { return &jsontree.Node{Kind: jsonlex.String, Text: s} }

func boolNode(b bool) *jsontree.Node { return &jsontree.Node{Kind: jsonlex.Bool, Bool: b} }

func texts(list []string) *jsontree.Node {
	n := &jsontree.Node{Kind: jsonlex.Array, Items: []*jsontree.Node{}}
	for _, s := range list {
		n.Items = append(n.Items, text(s))
	}
	return n
}
