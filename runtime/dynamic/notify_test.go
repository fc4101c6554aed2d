package dynamic_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime/internal/notify"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// notifying is a fake provider that tells of its changes.
type notifying struct {
	*fake
	changes notify.List
}

func (n *notifying) Subscribe(changed func()) func() { return n.changes.Subscribe(changed) }

var _ tool.Notifier = (*notifying)(nil)

// A Set tells its subscribers when a provider is registered or
// unregistered, and passes on the changes its providers tell of, until
// they are unregistered.
func TestSetTellsOfChanges(t *testing.T) {
	ctx := context.Background()
	s, _ := newSet(t)
	var n atomic.Int64
	cancel := s.Subscribe(func() { n.Add(1) })

	plain := newFake("crm", spec("find"))
	require.NoError(t, s.Register(ctx, plain))
	assert.Equal(t, int64(1), n.Load(), "registered")
	require.NoError(t, s.Register(ctx, plain))
	assert.Equal(t, int64(1), n.Load(), "registered again: an upsert, nothing new")

	loud := &notifying{fake: newFake("wf", spec("run"))}
	require.NoError(t, s.Register(ctx, loud))
	assert.Equal(t, int64(2), n.Load())
	loud.set(spec("run"), spec("stop"))
	loud.changes.Notify()
	assert.Equal(t, int64(3), n.Load(), "the provider's change, passed on")
	assert.Equal(t, []string{"crm_find", "wf_run", "wf_stop"}, names(ctx, s))

	s.Unregister(loud)
	assert.Equal(t, int64(4), n.Load(), "unregistered")
	assert.Zero(t, loud.changes.Len(), "the Set no longer listens to it")
	loud.changes.Notify()
	s.Unregister(loud)
	assert.Equal(t, int64(4), n.Load(), "nothing from a provider no longer registered, nor from a second Unregister")

	refused := newFake("crm", spec("find")) // collides with plain's crm_find
	require.Error(t, s.Register(ctx, refused))
	assert.Equal(t, int64(4), n.Load(), "a refused registration changes nothing")

	cancel()
	s.Unregister(plain)
	assert.Equal(t, int64(4), n.Load(), "cancelled")
}
