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

// notifying is a fake toolkit that tells of its changes.
type notifying struct {
	*fake
	changes notify.List
}

func (n *notifying) Subscribe(changed func()) func() { return n.changes.Subscribe(changed) }

var _ tool.Notifier = (*notifying)(nil)

// A Source tells its subscribers when a toolkit is registered or
// unregistered, and passes on the changes its toolkits tell of, until
// they are unregistered.
func TestSourceTellsOfChanges(t *testing.T) {
	ctx := context.Background()
	s, _ := newSource(t)
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
	assert.Equal(t, int64(3), n.Load(), "the toolkit's change, passed on")
	assert.Equal(t, []string{"crm_find", "wf_run", "wf_stop"}, names(ctx, s))

	s.Unregister(loud)
	assert.Equal(t, int64(4), n.Load(), "unregistered")
	assert.Zero(t, loud.changes.Len(), "the Source no longer listens to it")
	loud.changes.Notify()
	s.Unregister(loud)
	assert.Equal(t, int64(4), n.Load(), "nothing from a toolkit no longer registered, nor from a second Unregister")

	refused := newFake("crm", spec("find")) // collides with plain's crm_find
	require.Error(t, s.Register(ctx, refused))
	assert.Equal(t, int64(4), n.Load(), "a refused registration changes nothing")

	cancel()
	s.Unregister(plain)
	assert.Equal(t, int64(4), n.Load(), "cancelled")
}
