// Package b is a fixture: one of two packages declaring a type named Item.
package b

// Item is package b's item.
type Item struct {
	Count int `json:"count"`
}
