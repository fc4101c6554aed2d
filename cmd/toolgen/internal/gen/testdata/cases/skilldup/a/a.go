// Package a holds one tool and the skill shared-skill.
package a

//go:generate go run github.com/toolgen-go/toolgen/cmd/toolgen -out ../want ../...

import "context"

// Says hello.
//
//tool:name a_hello
type Hello struct{}

// Call runs it.
func (Hello) Call(ctx context.Context) (string, error) { return "hello", nil }
