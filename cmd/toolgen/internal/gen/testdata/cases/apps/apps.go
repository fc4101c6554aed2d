// Package apps is a golden case: tools with an MCP App (//tool:ui), its
// CSP, permissions and border, and an app-only tool (//tool:visibility).
package apps

import "context"

// CardIn names the card to draw.
type CardIn struct {
	// Title is the card's title.
	Title string `json:"title"`
}

// CardOut is the card drawn.
type CardOut struct {
	// Title is the card's title.
	Title string `json:"title"`
}

// CardTool draws a card for a person.
//
//tool:name card_show
//tool:kind display
//tool:ui card.html
//tool:uicsp resource https://cdn.example.com https://*.fonts.example.com
//tool:uicsp connect https://api.example.com
//tool:uipermission clipboardWrite
//tool:uipermission camera
//tool:uiborder true
type CardTool struct{}

// Call draws the card.
func (CardTool) Call(_ context.Context, in CardIn) (CardOut, error) {
	return CardOut{Title: in.Title}, nil
}

// RefreshTool refreshes the card; only its app calls it.
//
//tool:name card_refresh
//tool:readonly
//tool:visibility app
type RefreshTool struct{}

// Call refreshes the card.
func (RefreshTool) Call(_ context.Context, in CardIn) (CardOut, error) {
	return CardOut{Title: in.Title}, nil
}
