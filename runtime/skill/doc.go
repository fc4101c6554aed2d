// Package skill holds the skills a generated registry carries: folders in
// the open Agent Skills format (a SKILL.md file, YAML front matter and a
// Markdown body) that toolgen found beside the tools packages it scanned,
// checked and compiled into the generated package as a table of Skill
// values. Nothing here reads YAML or files: the front matter was parsed
// and checked at generate time.
//
// A program chooses skills with Patterns (exact names, prefixes, or all);
// a name the registry lacks is logged and skipped, never fatal. The skills
// it admits attach to a conversation (Admitted) and ride its preamble from
// then on:
//
//	patterns := skill.Patterns{"note-taking", "meeting-*"}
//	chosen, missing := patterns.Select(generated.Skills(), logger)
//	_ = missing // already logged
//
//	var conv skill.Admitted // one per conversation
//	conv.Admit(chosen...)
//	system := basePrompt + conv.Preamble() // the same bytes for the same skills
//
// A tool that admits a skill on the model's request later in the
// conversation (request_skill) looks it up in the registry's Set, checks
// it against the conversation's patterns (Patterns.Admits) and calls Admit: the skill is in
// every preamble that follows; runtime/palette's request_skill is such a
// tool.
//
// Where skills live and what toolgen checks in them is the command's
// documentation (cmd/toolgen, Skills). go run ./examples/agent -fake
// -skills note-taking sends the preamble with every request, and the
// scripted fake checks it byte for byte.
package skill
