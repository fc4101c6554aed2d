// Package notes is the notes part of the sample tool domain: a
// concurrency-safe in-memory [Store] of notes and the tools built on it.
//
// The tools are ordinary Go types read by toolgen, one per file:
//
//   - notes_search ([SearchTool]): find notes by words, tags and time;
//   - notes_get ([GetTool]): one note with everything it carries;
//   - notes_render ([RenderTool]): a note as Markdown or plain text, for display;
//   - notes_outline ([OutlineTool]): a note's headings as a tree;
//   - notes_create ([CreateTool]): propose a new note;
//   - notes_update ([UpdateTool]): change a note's text, priority, color or data;
//   - notes_tag ([TagTool]): add and remove tags;
//   - notes_share ([ShareTool]): a link to a note that opens with a
//     passphrase, for signed-in callers;
//   - notes_delete ([DeleteTool]): propose deleting a note.
//
// Each tool holds the store it works on as a field, so one registry can
// serve one user's store:
//
//	store := notes.NewDemoStore()
//	search := notes.SearchTool{Store: store}
//	out, err := search.Call(ctx, notes.SearchInput{Query: "go generics"})
//
// Failures the model can act on (a note that does not exist, refused
// input, a stale checksum) are returned as tool errors whose message is
// written for the model; the store's sentinel errors stay in their chain
// for errors.Is.
//
// notes_outline and notes_render are deferred (//tool:defer): a provider
// with native tool search loads them only when the model looks for them,
// OpenAI from the namespace of their group, notes, which the line below
// describes.
//
//tool:groupdoc notes The user's notes: find, read, show, outline, create, change, tag, share and delete them.
package notes
