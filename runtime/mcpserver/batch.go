package mcpserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
)

// DefaultMaxBatch is the largest number of messages in one JSON-RPC batch
// when HTTPOptions.MaxBatch is zero.
const DefaultMaxBatch = 16

// JSON-RPC error codes of the limits.
const (
	codeInvalidRequest = -32600 // a batch past the cap
	codeServerBusy     = -32000 // the session cap (implementation-defined range)
)

// writeLimitError answers a request refused by a limit: status and a
// JSON-RPC error with a null id, so that an MCP client surfaces message.
// message is fixed text; it never quotes the request.
func writeLimitError(w http.ResponseWriter, status, code int, message string) {
	body, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0",
		"id":      nil,
		"error":   map[string]any{"code": code, "message": message},
	})
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// batchLimit refuses POST bodies holding a JSON-RPC batch of more than max
// messages, before the SDK decodes them. The SDK refuses batches for
// protocol 2025-06-18 and later, but accepts them from a request
// announcing 2025-03-26, or no version at all (which means 2025-03-26):
// one 4 MiB body then carries some 40,000 tools/call requests, answered
// one after the other, and the session keeps every decoded request alive
// until its next request (the SDK's queue of incoming requests keeps its
// backing array). A cap on the messages bounds both the work and what is
// kept.
type batchLimit struct {
	next     http.Handler
	max      int
	maxBytes int64
}

// ServeHTTP looks at the first byte of the body: a single message ('{')
// goes on unread; a batch ('[') is read, within maxBytes, and counted.
func (b *batchLimit) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.Body == nil || r.Body == http.NoBody {
		b.next.ServeHTTP(w, r)
		return
	}
	body := http.MaxBytesReader(w, r.Body, b.maxBytes)
	br := bufio.NewReader(body)
	first, err := firstByte(br)
	if err != nil && !errors.Is(err, io.EOF) {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			writeLimitError(w, http.StatusRequestEntityTooLarge, codeInvalidRequest, fmt.Sprintf("request body exceeds %d bytes", mbe.Limit))
			return
		}
		http.Error(w, "failed to read body", http.StatusBadRequest)
		return
	}
	if first != '[' {
		r.Body = readCloser{br, body}
		b.next.ServeHTTP(w, r)
		return
	}
	data, err := io.ReadAll(br)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			writeLimitError(w, http.StatusRequestEntityTooLarge, codeInvalidRequest, fmt.Sprintf("request body exceeds %d bytes", mbe.Limit))
			return
		}
		http.Error(w, "failed to read body", http.StatusBadRequest)
		return
	}
	if countMessages(data, b.max) > b.max {
		writeLimitError(w, http.StatusRequestEntityTooLarge, codeInvalidRequest,
			fmt.Sprintf("JSON-RPC batch of more than %d messages", b.max))
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(data))
	r.ContentLength = int64(len(data))
	b.next.ServeHTTP(w, r)
}

// firstByte returns the first byte of br that is not JSON white space,
// leaving it unread.
func firstByte(br *bufio.Reader) (byte, error) {
	for {
		c, err := br.ReadByte()
		if err != nil {
			return 0, err
		}
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		}
		return c, br.UnreadByte()
	}
}

// countMessages counts the elements of the JSON array data, stopping past
// limit. Malformed JSON counts what precedes the error: the SDK refuses it
// then.
func countMessages(data []byte, limit int) int {
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil { // '['
		return 0
	}
	n := 0
	for dec.More() && n <= limit {
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			break
		}
		n++
	}
	return n
}

// readCloser reads from a buffered reader and closes the body under it.
type readCloser struct {
	io.Reader
	io.Closer
}
