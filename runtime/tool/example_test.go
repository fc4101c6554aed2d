package tool_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// A generated package builds its Static from sorted specs and a dispatch
// switch like this hand-written one; callers only see the Registry.
func ExampleStatic_Call() {
	dispatch := func(ctx context.Context, name string, mode tool.Mode, in *codec.Decoder, out *codec.Encoder) (tool.Output, error) {
		switch name {
		case "notes_search":
			var query string
			if in.Object("object") {
				for {
					key, ok := in.Key()
					if !ok {
						break
					}
					if string(key) != "query" {
						in.Unknown(key)
						continue
					}
					in.Push("query")
					query, _ = in.String("string")
					in.Pop()
				}
			}
			in.End()
			if err := in.Err(); err != nil {
				return 0, tool.InvalidArguments(err)
			}
			if mode == tool.ModeCheck {
				return 0, nil
			}
			out.RawText("3 notes match " + query)
			return tool.OutputText, nil
		}
		return 0, fmt.Errorf("no tool %q", name)
	}
	reg, err := tool.NewStatic([]tool.Spec{
		{Name: "notes_list", Kind: tool.KindRead},
		{Name: "notes_search", Kind: tool.KindRead},
	}, dispatch)
	if err != nil {
		panic(err)
	}
	ctx := context.Background()

	res, err := reg.Call(ctx, "notes_search", []byte(`{"query":"go"}`))
	fmt.Println(res.Text(), err)

	res, err = reg.Call(ctx, "notes_serch", []byte(`{"query":"go"}`))
	fmt.Println(res.IsError, res.Text())
	var te *tool.Error
	if errors.As(err, &te) {
		fmt.Println(te.Code)
	}

	res, _ = reg.Call(ctx, "notes_search", []byte(`{"query":1,"limit":5}`))
	fmt.Println(res.Text())
	// Output:
	// 3 notes match go <nil>
	// true unknown tool "notes_serch"; did you mean notes_search? (2 tools available)
	// unknown_tool
	// invalid arguments: /query: expected string, got number; /limit: unknown property (additional properties are not allowed)
}
