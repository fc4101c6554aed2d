// want package:`\) tools mine shared Other}$`

// Package crossb imports crossa and declares one of its tool names again.
package crossb

import (
	"context"

	"crossa"
)

// The registry generated from both packages would have two tools of one name.
var _ crossa.Shared

// Mine is a tool of its own.
//
//tool:name mine
type Mine struct{}

// Call runs it.
func (Mine) Call(ctx context.Context) (string, error) { return "", nil }

// want +4 `^duplicate tool name "shared" \(other declaration at \.\./crossa/crossa.go:\d+:1\)$`

// Again declares crossa's name.
//
//tool:name shared
type Again struct{}

// Call runs it.
func (Again) Call(ctx context.Context) (string, error) { return "", nil }

// want +4 `^tool names "Other" and "other" both become the Go field Other of Tools: rename one \(other declaration at \.\./crossa/crossa.go:\d+:1\)$`

// Upper differs from crossa's other only by case: one field of Tools.
//
//tool:name Other
type Upper struct{}

// Call runs it.
func (Upper) Call(ctx context.Context) (string, error) { return "", nil }
