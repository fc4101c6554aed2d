package pkg

// A test's comments are not documentation: pkg/absent-in-a-test.go.
func helper() {}
