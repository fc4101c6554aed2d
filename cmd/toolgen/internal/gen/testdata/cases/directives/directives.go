// Package directives holds every directive mistake.
package directives

import "context"

// In is an input.
type In struct {
	A string `json:"a"`
}

// Typo misspells a directive.
//
//tool:name typo
//tool:readonyl
type Typo struct{}

// Call runs it.
func (Typo) Call(ctx context.Context, in In) (string, error) { return "", nil }

// BadName has an invalid name.
//
//tool:name 9lives
type BadName struct{}

// Call runs it.
func (BadName) Call(ctx context.Context, in In) (string, error) { return "", nil }

// Conflict is readonly and propose.
//
//tool:name conflict
//tool:readonly
//tool:kind propose
type Conflict struct{}

// Call runs it.
func (Conflict) Call(ctx context.Context, in In) (string, error) { return "", nil }

// Destroys is readonly and destructive.
//
//tool:name destroys
//tool:readonly
//tool:destructive
type Destroys struct{}

// Call runs it.
func (Destroys) Call(ctx context.Context, in In) (string, error) { return "", nil }

// Values has bad values.
//
//tool:name values
//tool:timeout soon
//tool:weight heavy
//tool:kind sometimes
//tool:readonly yes
//tool:name again
type Values struct{}

// Call runs it.
func (Values) Call(ctx context.Context, in In) (string, error) { return "", nil }

// Nameless has directives but no name.
//
//tool:readonly
type Nameless struct{}

// Call runs it.
func (Nameless) Call(ctx context.Context, in In) (string, error) { return "", nil }

//tool:name misplaced
func helper() {}

//tool:name undocumented
type Undocumented struct{}

// Call runs it.
func (Undocumented) Call(ctx context.Context, in In) (string, error) { return "", nil }

// hidden is unexported.
//
//tool:name hidden
type hidden struct{}

func (hidden) Call(ctx context.Context, in In) (string, error) { return "", nil }
