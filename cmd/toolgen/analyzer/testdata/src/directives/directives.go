// want package:`\) tools typo unknown 9lives conflict destroyer reader args more_args missing}$`

// Package directives holds every class of directive mistake.
package directives

import "context"

// In is an input.
type In struct {
	A string `json:"a"`
}

// want +5 `^unknown directive //tool:readonyl; did you mean //tool:readonly\?$`

// Typo misspells a directive.
//
//tool:name typo
//tool:readonyl
type Typo struct{}

// Call runs it.
func (Typo) Call(ctx context.Context, in In) (string, error) { return "", nil }

// want +5 `^unknown directive //tool:frobnicate$`

// Unknown has a directive toolgen has never heard of.
//
//tool:name unknown
//tool:frobnicate
type Unknown struct{}

// Call runs it.
func (Unknown) Call(ctx context.Context, in In) (string, error) { return "", nil }

// want +4 `^//tool:name: invalid tool name "9lives": a name is 1 to 64 letters, digits, '_' or '-', not starting with a digit or '-'$`

// BadName has an invalid name.
//
//tool:name 9lives
type BadName struct{}

// Call runs it.
func (BadName) Call(ctx context.Context, in In) (string, error) { return "", nil }

// want +4 `^//tool:name: missing tool name$` +4 `^missing //tool:name: every tool needs a name$`

// EmptyName has a name directive without a name.
//
//tool:name
type EmptyName struct{}

// Call runs it.
func (EmptyName) Call(ctx context.Context, in In) (string, error) { return "", nil }

// want +4 `^missing //tool:name: every tool needs a name$`

// NoName has directives but no name.
//
//tool:readonly
type NoName struct{}

// Call runs it.
func (NoName) Call(ctx context.Context, in In) (string, error) { return "", nil }

// want +6 `^//tool:kind propose conflicts with //tool:readonly: propose tools change things$`

// Conflict is readonly and propose.
//
//tool:name conflict
//tool:readonly
//tool:kind propose
type Conflict struct{}

// Call runs it.
func (Conflict) Call(ctx context.Context, in In) (string, error) { return "", nil }

// want +6 `^//tool:destructive conflicts with //tool:readonly$`

// Destroyer is readonly and destructive.
//
//tool:name destroyer
//tool:readonly
//tool:destructive
type Destroyer struct{}

// Call runs it.
func (Destroyer) Call(ctx context.Context, in In) (string, error) { return "", nil }

// want +6 `^//tool:destructive conflicts with //tool:kind read$`

// Reader is a read tool and destructive.
//
//tool:name reader
//tool:kind read
//tool:destructive
type Reader struct{}

// Call runs it.
func (Reader) Call(ctx context.Context, in In) (string, error) { return "", nil }

// want +9 `^//tool:timeout: invalid duration "soon" \(time.ParseDuration syntax, such as 500ms or 2m\)$`
// want +9 `^//tool:weight: weight "heavy" is not an integer$`
// want +9 `^//tool:kind: unknown kind "sometimes"; want read, display, propose or action$`
// want +9 `^//tool:readonly: takes no argument$`
// want +9 `^//tool:name repeated \(other declaration at directives.go:\d+:1\)$`

// Args has bad arguments.
//
//tool:name args
//tool:timeout soon
//tool:weight heavy
//tool:kind sometimes
//tool:readonly yes
//tool:name args2
type Args struct{}

// Call runs it.
func (Args) Call(ctx context.Context, in In) (string, error) { return "", nil }

// want +8 `^//tool:timeout: timeout must be positive$`
// want +8 `^//tool:group: invalid group name "a group": use letters, digits, '_' or '-'$`
// want +8 `^//tool:permission: a permission is one word; write one //tool:permission line each$`
// want +8 `^//tool:idempotent: takes no argument$`

// MoreArgs has more bad arguments.
//
//tool:name more_args
//tool:timeout -1s
//tool:group a group
//tool:permission read write
//tool:idempotent please
type MoreArgs struct{}

// Call runs it.
func (MoreArgs) Call(ctx context.Context, in In) (string, error) { return "", nil }

// want +12 `^//tool:kind: missing kind \(read, display, propose or action\)$`
// want +12 `^//tool:title: missing title$`
// want +12 `^//tool:verb: missing verb$`
// want +12 `^//tool:group: missing group name$`
// want +12 `^//tool:meta: missing KEY VALUE$`
// want +12 `^//tool:timeout: missing duration, such as 30s$`
// want +12 `^//tool:weight: missing integer weight$`
// want +12 `^//tool:permission: missing permission name$`

// Missing leaves arguments out.
//
//tool:name missing
//tool:kind
//tool:title
//tool:verb
//tool:group
//tool:meta
//tool:timeout
//tool:weight
//tool:permission
type Missing struct{}

// Call runs it.
func (Missing) Call(ctx context.Context, in In) (string, error) { return "", nil }

func f() {
	//tool:name stray // want `^//tool: directives belong in the doc comment of a type declaration$`
}
