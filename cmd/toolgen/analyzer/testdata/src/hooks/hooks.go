// want package:`\) tools login tree}$`

// Package hooks writes Offered and LogArgs methods and toolgen tags
// toolgen refuses, beside correct ones.
package hooks

import "context"

// In holds secrets: one correct, one misspelt, one JSON skips.
type In struct {
	User     string `json:"user"`
	Password string `json:"password" toolgen:"secret"`
	Token    string `json:"token" toolgen:"secrit"` // want `^hooks.In: Token: unknown toolgen tag value "secrit"; the accepted value is "secret"$`
	Skipped  string `json:"-" toolgen:"secret"`     // want `^hooks.In: Skipped is tagged toolgen:"secret" but also json:"-": JSON skips it, so it is never in the arguments; remove one of the tags$`
}

// Logs in.
//
//tool:name login
type Login struct{}

// Call logs in.
func (Login) Call(ctx context.Context, in In) (string, error) { return "", nil }

// Offered forgets the context.
func (Login) Offered() bool { return true } // want `^Login.Offered must be func\(context.Context\) bool: it decides, per call, whether the tool is offered$`

// LogArgs takes a pointer.
func (Login) LogArgs(in *In) string { return "" } // want `^Login.LogArgs must be func\(in In\) string, taking the input of Call: it gives the form of the arguments that records keep$`

// Node reaches itself.
type Node struct {
	Key      string `json:"key" toolgen:"secret"` // want `^hooks.Node.Key is tagged toolgen:"secret" inside the recursive type hooks.Node \(reachable from itself\)`
	Children []Node `json:"children,omitempty"`
}

// TreeIn holds a tree.
type TreeIn struct {
	Root Node `json:"root"`
}

// Walks a tree.
//
//tool:name tree
type Tree struct{}

// Call walks it.
func (*Tree) Call(ctx context.Context, in TreeIn) (string, error) { return "", nil }

// Offered is correct.
func (*Tree) Offered(ctx context.Context) bool { return true }

// LogArgs is correct.
func (*Tree) LogArgs(in TreeIn) string { return "" }
