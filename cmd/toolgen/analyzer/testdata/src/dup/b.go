package dup

import "context"

// want +4 `^duplicate tool name "same_name" \(other declaration at a.go:\d+:1\)$`

// Second is another tool with the same name.
//
//tool:name same_name
type Second struct{}

// Call runs it.
func (Second) Call(ctx context.Context) (string, error) { return "", nil }

// Third has a name of its own.
//
//tool:name third
type Third struct{}

// Call runs it.
func (Third) Call(ctx context.Context) (string, error) { return "", nil }
