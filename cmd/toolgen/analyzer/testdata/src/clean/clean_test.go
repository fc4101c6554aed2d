package clean

import "context"

// TestOnly is declared in a test file, which toolgen never loads: the
// analyzer does not check it either.
//
//tool:readnoly
type TestOnly struct{}

// Call runs it.
func (TestOnly) Call(context.Context) {}
