// Package hidden is a bootstrap fixture: an internal package the tools
// import, so the bootstrap program must live inside the module's tree.
package hidden

// Value is a hidden value.
type Value struct {
	V string `json:"v"`
}
