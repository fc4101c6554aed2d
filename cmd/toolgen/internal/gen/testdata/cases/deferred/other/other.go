// Package other holds a deferred tool of a group that another package
// describes, and a described group with no deferred tool.
//
//tool:groupdoc plain Tools that are never deferred.
package other

import "context"

// Purge purges things; its group, deferred, is described in package deferred.
//
//tool:name purge
//tool:group deferred
//tool:defer
type Purge struct{}

// Call runs it.
func (Purge) Call(ctx context.Context) (string, error) { return "purged", nil }

// Ping answers.
//
//tool:name ping
//tool:group plain
//tool:readonly
type Ping struct{}

// Call runs it.
func (Ping) Call(ctx context.Context) (string, error) { return "pong", nil }
