package mcpserver

import (
	"net/http"
	"strconv"
)

// CORS for the allowed origins (see guard.go for which origins those are).
// Every value is fixed or the allowed origin as configured or normalized:
// nothing of a preflight's Access-Control-Request-* headers is echoed.
const (
	// corsMethods are the methods of streamable HTTP.
	corsMethods = "POST, GET, DELETE, OPTIONS"
	// corsHeaders are the request headers a browser client may send: the
	// MCP headers, Last-Event-ID for resuming a stream, and Authorization
	// for a bearer token.
	corsAllowHeaders = "Content-Type, Accept, Authorization, Mcp-Session-Id, Mcp-Protocol-Version, Mcp-Method, Mcp-Name, Last-Event-ID"
	// corsExposeHeaders are the response headers a browser client reads:
	// the session, and the bearer challenge of a 401.
	corsExposeHeaders = "Mcp-Session-Id, WWW-Authenticate"
	// corsMaxAge is how long a browser may cache a preflight's answer.
	corsMaxAge = 3600
)

// preflight answers a CORS preflight from the allowed origin: 204 with the
// methods and headers MCP uses.
func preflight(w http.ResponseWriter, origin string) {
	h := w.Header()
	corsHeaders(h, origin)
	h.Set("Access-Control-Allow-Methods", corsMethods)
	h.Set("Access-Control-Allow-Headers", corsAllowHeaders)
	h.Set("Access-Control-Max-Age", strconv.Itoa(corsMaxAge))
	h.Add("Vary", "Access-Control-Request-Method")
	h.Add("Vary", "Access-Control-Request-Headers")
	w.WriteHeader(http.StatusNoContent)
}

// corsHeaders sets the headers of every response to an allowed origin.
func corsHeaders(h http.Header, origin string) {
	h.Set("Access-Control-Allow-Origin", origin)
	h.Set("Access-Control-Expose-Headers", corsExposeHeaders)
}
