package jsontree_test

import (
	"fmt"

	"github.com/toolgen-go/toolgen/runtime/jsonlex"
	"github.com/toolgen-go/toolgen/runtime/jsontree"
)

// A schema read, edited and written back keeps its members in the order
// they were written, never passing through a Go map: the same input gives
// the same bytes.
func Example() {
	root, err := jsontree.Parse([]byte(`{
		"type": "object",
		"properties": {"query": {"type": "string"}, "limit": {"type": "integer"}},
		"required": ["query"]
	}`))
	if err != nil {
		panic(err)
	}
	props := root.Get("properties")
	for _, m := range props.Members {
		fmt.Println(m.Key, m.Value.Get("type").Text)
	}
	// What a provider projection does: add a member, at the end.
	root.Members = append(root.Members, jsontree.Member{Key: "additionalProperties", Value: &jsontree.Node{Kind: jsonlex.Bool}})
	fmt.Println(string(root.Compact()))

	_, err = jsontree.Parse([]byte(`{"a":1,"a":2}`))
	fmt.Println(err)
	// Output:
	// query string
	// limit integer
	// {"type":"object","properties":{"query":{"type":"string"},"limit":{"type":"integer"}},"required":["query"],"additionalProperties":false}
	// schema: invalid JSON at byte 7: duplicate member name "a"
}
