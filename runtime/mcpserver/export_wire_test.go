package mcpserver

import "net/http"

// WireLayer exposes the HTTP wire layer to the tests, around any handler.
func WireLayer(h http.Handler) http.Handler { return wireGuard{next: h} }
