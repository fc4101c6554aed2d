package notes

import (
	"errors"

	"github.com/toolgen-go/toolgen/runtime/tool"
)

// forModel turns the store's expected failures (a note that does not
// exist, a value it refuses, a stale checksum) into tool errors whose
// message the model reads, keeping the store's error as the cause. The
// store writes these errors' text for people and models alike (it never
// quotes a value), so the message includes it on purpose (tool.Errorf
// would keep a %w operand's text out of the message). Any other error is returned
// as it is: the model only learns that the tool failed.
func forModel(err error) error {
	var verr *ValidationError
	switch {
	case errors.Is(err, ErrNotFound):
		return &tool.ModelError{Message: err.Error() + "; notes_search finds notes and their IDs", Cause: err}
	case errors.Is(err, ErrConflict):
		return &tool.ModelError{Message: err.Error() + "; read it again with notes_get before changing it", Cause: err}
	case errors.As(err, &verr):
		return &tool.ModelError{Message: "invalid " + err.Error(), Cause: err}
	}
	return err
}
