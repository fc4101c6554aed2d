package toolimpl_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/runtime/toolimpl"
)

// A generated package builds its registry from its sorted table and a
// dispatch switch on the tool's index like this hand-written one; its
// callers see only the tool.Registry.
func ExampleNewRegistry() {
	const (
		toolNotesList = iota
		toolNotesSearch
	)
	table := []*tool.Spec{
		toolNotesList:   {Name: "notes_list", Kind: tool.KindRead},
		toolNotesSearch: {Name: "notes_search", Kind: tool.KindRead},
	}
	dispatch := func(ctx context.Context, i int, mode toolimpl.Mode, in *toolimpl.Decoder, out *toolimpl.Encoder) (toolimpl.Output, error) {
		switch i {
		case toolNotesSearch:
			var query string
			if in.Object("object") {
				for key, ok := in.Key(); ok; key, ok = in.Key() {
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
			if err := toolimpl.InvalidArguments(in.Err()); err != nil || mode != toolimpl.ModeCall {
				return 0, err
			}
			out.RawText("3 notes match " + query)
			return toolimpl.OutputText, nil
		}
		return 0, fmt.Errorf("no tool %d", i)
	}
	reg, err := toolimpl.NewRegistry(table, nil, dispatch, nil)
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
