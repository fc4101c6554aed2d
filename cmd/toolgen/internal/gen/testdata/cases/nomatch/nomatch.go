// Package nomatch has no tools at all.
package nomatch

// Helper is not a tool.
type Helper struct{}
