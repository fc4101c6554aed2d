package tool

import "context"

// Handle calls the tools of a Registry as the Registry does, for one
// goroutine at a time: it keeps memory of its own for the calls it runs
// where the Registry shares a pool between goroutines. A loop that calls
// tools one after another (an agent's turn, a worker that serves one
// request at a time) holds one Handle and saves the pool's cost on each
// call. A Handle is not safe for concurrent use; make one per goroutine.
// A tool may call tools through the Handle its own call runs on: such a
// call runs on memory of its own, as on the Registry.
//
// Its methods do what the Registry's do, with the same results, errors
// and guarantees: the limits on arguments, the output cap, a panic
// recovered, Spec.Timeout and the context's end. A call that could be
// abandoned (a Spec.Timeout, or a context that can be done) runs on the
// Registry's shared memory as the Registry runs it, so that a run left
// behind never holds the Handle's.
type Handle interface {
	// Call runs the named tool, as Registry.Call does.
	Call(ctx context.Context, name string, args []byte) (Result, error)
	// AppendCall runs the named tool with its output appended to dst, as
	// Registry.AppendCall does.
	AppendCall(ctx context.Context, dst []byte, name string, args []byte) (Result, error)
	// Check validates the arguments of the named tool and runs nothing,
	// as Registry.Check does.
	Check(ctx context.Context, name string, args []byte) error
}

// NewHandle returns a Handle on r: one with memory of its own when r is a
// registry that a generated package's New built, and otherwise r itself,
// whose methods are the Handle's (and safe for concurrent use).
func NewHandle(r Registry) Handle {
	if h, ok := r.(interface{ NewHandle() Handle }); ok {
		return h.NewHandle()
	}
	return r
}
