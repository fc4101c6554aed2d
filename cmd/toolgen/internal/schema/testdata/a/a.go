// Package a is a fixture: one of two packages declaring a type named Item.
package a

// Item is package a's item.
type Item struct {
	Name string `json:"name"`
}
