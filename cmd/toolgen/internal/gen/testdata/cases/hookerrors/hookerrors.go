// Package hookerrors holds every mistake in an Offered or LogArgs method
// and in a toolgen tag.
package hookerrors

import "context"

// In is an input.
type In struct {
	A string `json:"a"`
}

// Other is another struct.
type Other struct {
	B string `json:"b"`
}

// OfferedResult returns a string.
//
//tool:name offered_result
type OfferedResult struct{}

// Call runs it.
func (OfferedResult) Call(ctx context.Context, in In) (string, error) { return "", nil }

// Offered returns the wrong type.
func (OfferedResult) Offered(ctx context.Context) string { return "" }

// OfferedNoContext takes no context.
//
//tool:name offered_no_context
type OfferedNoContext struct{}

// Call runs it.
func (OfferedNoContext) Call(ctx context.Context, in In) (string, error) { return "", nil }

// Offered takes nothing.
func (OfferedNoContext) Offered() bool { return true }

// OfferedPointer has a pointer Offered and a value Call.
//
//tool:name offered_pointer
type OfferedPointer struct{}

// Call runs it.
func (OfferedPointer) Call(ctx context.Context, in In) (string, error) { return "", nil }

// Offered has a pointer receiver.
func (*OfferedPointer) Offered(ctx context.Context) bool { return true }

// LogPointer takes a pointer to its input.
//
//tool:name log_pointer
type LogPointer struct{}

// Call runs it.
func (LogPointer) Call(ctx context.Context, in In) (string, error) { return "", nil }

// LogArgs takes a pointer.
func (LogPointer) LogArgs(in *In) string { return "" }

// LogOther takes another type.
//
//tool:name log_other
type LogOther struct{}

// Call runs it.
func (LogOther) Call(ctx context.Context, in In) (string, error) { return "", nil }

// LogArgs takes another struct.
func (LogOther) LogArgs(in Other) string { return "" }

// LogResult returns two results.
//
//tool:name log_result
type LogResult struct{}

// Call runs it.
func (LogResult) Call(ctx context.Context, in In) (string, error) { return "", nil }

// LogArgs returns an error too.
func (LogResult) LogArgs(in In) (string, error) { return "", nil }

// LogNoInput has no input to log.
//
//tool:name log_no_input
type LogNoInput struct{}

// Call runs it.
func (LogNoInput) Call(ctx context.Context) (string, error) { return "", nil }

// LogArgs logs nothing.
func (LogNoInput) LogArgs(in In) string { return "" }

// Tags holds a toolgen tag of every wrong kind.
//
//tool:name bad_tags
type Tags struct{}

// Call runs it.
func (Tags) Call(ctx context.Context, in TagsInput) (string, error) { return "", nil }

// Embedded is embedded in TagsInput.
type Embedded struct {
	C string `json:"c"`
}

// Shadowed is embedded; its D is shadowed.
type Shadowed struct {
	D string `json:"d" toolgen:"secret"`
}

// TagsInput holds the wrong tags.
type TagsInput struct {
	Misspelt string `json:"misspelt" toolgen:"secrett"`
	Empty    string `json:"empty" toolgen:""`
	Skipped  string `json:"-" toolgen:"secret"`
	Hidden   string `json:"hidden" jsonschema:"-" toolgen:"secret"`
	private  string `toolgen:"secret"`
	Embedded `toolgen:"secret"`
	Shadowed
	D string `json:"d"`
}

// Tree holds secrets in recursive types.
//
//tool:name tree
type Tree struct{}

// Call runs it.
func (Tree) Call(ctx context.Context, in TreeInput) (string, error) { return "", nil }

// Node reaches itself, and holds a secret.
type Node struct {
	Label    string `json:"label"`
	Key      string `json:"key,omitempty" toolgen:"secret"`
	Children []Node `json:"children,omitempty"`
}

// Branch reaches itself; the secret is below it, in Leaf.
type Branch struct {
	Next *Branch `json:"next,omitempty"`
	Leaf Leaf    `json:"leaf"`
}

// Leaf is not recursive, but reached through Branch.
type Leaf struct {
	Token string `json:"token" toolgen:"secret"`
}

// Wrapped is recursive, but its secret holds the whole of it: one pointer.
type Wrapped struct {
	Inner *Wrapped `json:"inner,omitempty" toolgen:"secret"`
}

// TreeInput holds the recursive types.
type TreeInput struct {
	Root   Node    `json:"root"`
	Branch Branch  `json:"branch"`
	Wrap   Wrapped `json:"wrap"`
}
