package notes

import (
	"errors"

	"github.com/toolgen-go/toolgen/runtime/tool"
)

// forModel turns the store's expected failures (a note that does not
// exist, a value it refuses, a stale checksum) into tool errors whose
// message the model reads, keeping the store's error in the chain. Any
// other error is returned as it is: the model only learns that the tool
// failed.
func forModel(err error) error {
	var verr *ValidationError
	switch {
	case errors.Is(err, ErrNotFound):
		return tool.Errorf("%w; notes_search finds notes and their IDs", err)
	case errors.Is(err, ErrConflict):
		return tool.Errorf("%w; read it again with notes_get before changing it", err)
	case errors.As(err, &verr):
		return tool.Errorf("invalid %w", err)
	}
	return err
}
