// Package b is a bootstrap fixture: its Item shares a name with package a's.
package b

import "github.com/toolgen-go/toolgen/cmd/toolgen/internal/gen/testdata/bootstrap/a"

// Item is package b's item.
type Item struct {
	Count int `json:"count"`
}

// BothInput refers to both Items.
type BothInput struct {
	A a.Item `json:"a"`
	B Item   `json:"b"`
}
