// Package readme keeps the repository's documentation true. It holds the
// Go snippets of README.md that show calls, as code that compiles: each
// region between a "README:begin NAME" and a "README:end" comment appears
// verbatim (less one level of indentation) in a ```go block of README.md,
// and readme_test.go checks that it does. Edit a snippet here, then copy
// it into the README. The rest of the manual is in the packages'
// documentation, whose examples run as tests; links_test.go checks that
// every relative link of the Markdown files and every path a doc comment
// names exists.
//
// Nothing here is meant to run: the functions exist to be compiled and
// vetted with the rest of the module.
package readme

import (
	"context"
	"time"

	"github.com/toolgen-go/toolgen/generated"
	"github.com/toolgen-go/toolgen/generated/notestools"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/tools/notes"
)

// writingATool is the call snippet of "Writing a tool".
func writingATool(ctx context.Context) (tool.Result, error) {
	store := notes.NewStore(time.Now)
	// README:begin new-and-call
	reg, err := generated.New([]generated.Tools{
		notestools.Tools{
			NotesSearch: notes.SearchTool{Store: store},
			// ... every tool of package notes, with its dependencies
		},
		// ... the Tools of clocktools and weathertools
	})
	if err != nil {
		return tool.Result{}, err
	}
	res, err := reg.Call(ctx, "notes_search", []byte(`{"query":"go"}`))
	// README:end
	return res, err
}
