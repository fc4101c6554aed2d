// want package:`\) tools same_name same_name third}$`

// Package dup declares one tool name twice.
package dup

import "context"

// want +4 `^duplicate tool name "same_name" \(other declaration at b.go:\d+:1\)$`

// First is one tool.
//
//tool:name same_name
type First struct{}

// Call runs it.
func (First) Call(ctx context.Context) (string, error) { return "", nil }
