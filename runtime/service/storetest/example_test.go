package storetest_test

import (
	"testing"

	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/service/storetest"
)

// A store's tests run the contract, each case on a store of its own.
//
// This example is compiled but not run (it has no Output): Run takes the
// *testing.T of a test function, such as the TestConformance this
// function stands for. The memory store's tests (runtime/service), and
// those of SQLite and PostgreSQL, run it.
func ExampleRun() {
	testConformance := func(t *testing.T) {
		storetest.Run(t, func(t *testing.T) service.Store {
			return service.NewMemoryStore() // a new, empty store of the kind under test
		})
	}
	_ = testConformance
}
