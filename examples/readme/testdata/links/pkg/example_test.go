package pkg_test

// An example is documentation: pkg/absent-in-an-example.go, pkg/NAME.txt
// (a placeholder: any name).
func Example() {}
