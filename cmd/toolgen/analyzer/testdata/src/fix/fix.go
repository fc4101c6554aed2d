// want package:`\) tools typos no_guess spaced}$`

// Package fix misspells directives that have a likely intended spelling.
package fix

import "context"

// want +6 `^unknown directive //tool:readnoly; did you mean //tool:readonly\?$`
// want +6 `^unknown directive //tool:idempotnet; did you mean //tool:idempotent\?$`

// Typos misspells two directives.
//
//tool:name typos
//tool:readnoly
//tool:idempotnet
type Typos struct{}

// Call runs it.
func (Typos) Call(ctx context.Context) (string, error) { return "", nil }

// want +4 `^unknown directive //tool:nmae; did you mean //tool:name\?$` +4 `^missing //tool:name: every tool needs a name$`

// Named misspells name.
//
//tool:nmae named
type Named struct{}

// Call runs it.
func (Named) Call(ctx context.Context) (string, error) { return "", nil }

// want +5 `^unknown directive //tool:zzzzzzzz$`

// NoGuess has nothing near enough to suggest: no fix.
//
//tool:name no_guess
//tool:zzzzzzzz
type NoGuess struct{}

// Call runs it.
func (NoGuess) Call(ctx context.Context) (string, error) { return "", nil }

// want +4 `^directive written as "// tool:readonly", which toolgen does not see: write //tool:readonly with no space after // \(gofmt then keeps directives at the end of the doc comment\)$`

// Spaced has a space after // in a directive.
//
// tool:readonly
//
//tool:name spaced
type Spaced struct{}

// Call runs it.
func (Spaced) Call(ctx context.Context) (string, error) { return "", nil }
