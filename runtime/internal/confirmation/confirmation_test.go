package confirmation_test

import (
	"context"
	"errors"
	"testing"

	"github.com/toolgen-go/toolgen/runtime/internal/confirmation"
)

type key struct{}

// TestDetach: the detached context keeps the caller's values, ignores its
// cancellation before Started, and follows one made after.
func TestDetach(t *testing.T) {
	parent, cancel := context.WithCancelCause(context.WithValue(context.Background(), key{}, "v"))
	d, stop := confirmation.Detach(parent)
	defer stop()
	if d.Value(key{}) != "v" {
		t.Fatal("the caller's values are lost")
	}
	why := errors.New("the client cancelled")
	cancel(why)
	if d.Err() != nil {
		t.Fatal("a cancellation before the start reached the detached context")
	}
	confirmation.Started(d)()
	if d.Err() != nil {
		t.Fatal("a cancellation made before the start reached it once started")
	}

	parent, cancel = context.WithCancelCause(context.Background())
	d, stop = confirmation.Detach(parent)
	defer stop()
	end := confirmation.Started(d)
	defer end()
	cancel(why)
	<-d.Done()
	if context.Cause(d) != why {
		t.Fatalf("cause %v, want the caller's", context.Cause(d))
	}

	if confirmation.Started(context.Background())() {
		t.Fatal("Started on another context does something")
	}
}
