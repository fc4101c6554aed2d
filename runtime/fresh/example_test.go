package fresh_test

import (
	"fmt"
	"reflect"
	"time"

	"github.com/toolgen-go/toolgen/runtime/fresh"
)

// SearchInput stands for a tool's input type.
type SearchInput struct {
	Query string     `json:"query" jsonschema:"minLength=1"`
	Since *time.Time `json:"since,omitempty"`
	Tags  []string   `json:"tags,omitempty"`
	note  string     // unexported: JSON ignores it, and so does the description
}

// The description a generated fresh_gen_test.go compares with what
// toolgen saw: the test calls fresh.Check with its Tools struct, which
// describes each tool's types this way and fails, naming what changed
// and saying to run go generate, when they differ.
func ExampleDescribe() {
	for _, line := range fresh.Describe(reflect.TypeFor[SearchInput]()) {
		fmt.Println(line)
	}
	// Output:
	// root github.com/toolgen-go/toolgen/runtime/fresh_test.SearchInput
	// type github.com/toolgen-go/toolgen/runtime/fresh_test.SearchInput struct
	// field github.com/toolgen-go/toolgen/runtime/fresh_test.SearchInput.Query string "json:\"query\" jsonschema:\"minLength=1\""
	// field github.com/toolgen-go/toolgen/runtime/fresh_test.SearchInput.Since *time.Time "json:\"since,omitempty\""
	// field github.com/toolgen-go/toolgen/runtime/fresh_test.SearchInput.Tags []string "json:\"tags,omitempty\""
	// type time.Time struct methods=MarshalJSON,UnmarshalJSON,MarshalText,UnmarshalText
}
