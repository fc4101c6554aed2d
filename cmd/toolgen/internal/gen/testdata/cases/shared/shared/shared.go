// Package shared holds types that the tools of packages a and b both
// take: their codecs are written once, in the codec package of shared.
package shared

// Page selects a page of results.
type Page struct {
	Cursor string `json:"cursor,omitempty"`
	Limit  int    `json:"limit" jsonschema:"minimum=1,maximum=100"`
}

// Next says where the next page starts.
type Next struct {
	Page Page `json:"page"`
	More bool `json:"more"`
}
