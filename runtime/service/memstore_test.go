package service_test

import (
	"testing"

	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/service/storetest"
)

// TestMemoryStoreConformance runs the store contract every store keeps
// (the durable ones run it too).
func TestMemoryStoreConformance(t *testing.T) {
	storetest.Run(t, func(*testing.T) service.Store { return service.NewMemoryStore() })
}
