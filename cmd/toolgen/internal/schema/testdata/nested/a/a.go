// Package a is a fixture: a second package named a declaring a type named
// Item, so that "a.Item" is ambiguous too.
package a

// Item is the nested package a's item.
type Item struct {
	Flag bool `json:"flag"`
}
