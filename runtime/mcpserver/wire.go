package mcpserver

import (
	"bytes"
	"net/http"
	"strconv"
	"strings"

	"github.com/toolgen-go/toolgen/runtime/codec"
)

// The HTTP wire layer sits between the SDK's streamable handler and the
// client (see sanitize.go for what it writes). It reads responses as they
// are written, without buffering what passes:
//
//   - 2xx event streams: each "data:" line is inspected up to the key
//     after its id; a result, request or notification passes unchanged
//     in the same write (the SDK writes and flushes one whole event at a
//     time), an error response is replaced by its rewritten form.
//   - 2xx JSON: the same for the one message of the body (a batch, an
//     array, is rewritten whole when the handler returns).
//   - Any other status: the body is replaced when the handler returns: a
//     JSON body by the rewritten error, any other by a fixed text of the
//     status (or one of the SDK's messages that quote nothing).
//
// Mcp-Session-Id is dropped from a response unless it is a plain
// identifier.

// Bounds of what the layer holds.
const (
	// maxHeld bounds the start of a message held while undecided (a split
	// write) and of an error response held for rewriting; past it, the
	// rest is dropped and the error rewritten from what was held.
	maxHeld = 64 << 10
	// maxPlainHeld bounds the body of a non-2xx plain response read to
	// recognize one of the SDK's fixed messages.
	maxPlainHeld = 256
)

// sdkPlainMessages are the SDK's plain-text error bodies that quote
// nothing of the request: they pass unchanged.
var sdkPlainMessages = map[string]bool{
	"Method Not Allowed":                                                  true,
	"Content-Type must be 'application/json'":                             true,
	"Accept must contain both 'application/json' and 'text/event-stream'": true,
	"Accept must contain 'text/event-stream' for GET requests":            true,
	"Bad Request: GET requires an Mcp-Session-Id header":                  true,
	"Bad Request: DELETE requires an Mcp-Session-Id header":               true,
	"POST requires a non-empty body":                                      true,
	"can't send Last-Event-ID for POST request":                           true,
	"failed to read body":                                                 true,
	"session not found":                                                   true,
	"session is closing":                                                  true,
	"session user mismatch":                                               true,
	"stream replay unsupported":                                           true,
	"failed to replay events":                                             true,
	"stream ID conflicts with ongoing stream":                             true,
	"no server available":                                                 true,
	"failed connection":                                                   true,
	"transport not connected":                                             true,
	"unsupported method":                                                  true,
}

// plainPrefixes map the starts of the SDK's other plain-text error bodies,
// which quote the request or are long, to fixed ones.
var plainPrefixes = []struct{ prefix, body string }{
	{"Bad Request: Unsupported protocol version", "Bad Request: unsupported Mcp-Protocol-Version"},
	{"malformed payload", "Bad Request: malformed JSON-RPC payload"},
	{"JSON-RPC batching is not supported", "Bad Request: JSON-RPC batches are not supported in this protocol version"},
	{"request body exceeds", "Request Entity Too Large: the request body exceeds the server's limit"},
	{"malformed Last-Event-ID", "Bad Request: malformed Last-Event-ID"},
	{"Bad Request: protocol version", "Bad Request: this protocol version needs a stateless server"},
	{"JSON RPC not handled", "Bad Request: method not found"},
	{"invalid request", "Bad Request: invalid JSON-RPC request"},
}

// plainBody returns the fixed body of a non-2xx plain response.
func plainBody(status int, held []byte) string {
	msg := strings.TrimSpace(string(held))
	if sdkPlainMessages[msg] {
		return msg + "\n"
	}
	for _, p := range plainPrefixes {
		if strings.HasPrefix(msg, p.prefix) {
			return p.body + "\n"
		}
	}
	if t := http.StatusText(status); t != "" {
		return t + "\n"
	}
	return "Error\n"
}

// wireGuard wraps the SDK's handler with the wire layer.
type wireGuard struct {
	next http.Handler
}

// ServeHTTP serves the request through a rewriting ResponseWriter.
func (g wireGuard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ww := &wireWriter{w: w}
	defer ww.finish()
	g.next.ServeHTTP(ww, r)
}

// Modes of a wireWriter, set by the response's status and Content-Type.
const (
	modeUnset   = iota
	modePass    // 2xx, neither JSON nor an event stream: passed as is
	modeJSON    // 2xx application/json
	modeSSE     // 2xx text/event-stream
	modeReplace // not 2xx: the body is replaced
)

// States of a message (a JSON body or an event's data line).
const (
	msgUndecided = iota // not yet inspected far enough; held
	msgPass             // passed as it comes
	msgError            // held (up to maxHeld) to be rewritten
	msgBatch            // held whole to be rewritten (JSON bodies only)
)

// wireWriter is the wire layer's ResponseWriter.
type wireWriter struct {
	w      http.ResponseWriter
	status int
	mode   int

	// msg is the state of the current message; for event streams,
	// atLineStart tells whether the next byte starts a line and inData
	// whether the current line is a data line.
	msg         int
	atLineStart bool
	inData      bool
	// held is what is held: an undecided start, an error or batch to
	// rewrite, a non-2xx body; truncated tells that bytes were dropped.
	held      []byte
	truncated bool
}

// Header returns the response's header.
func (ww *wireWriter) Header() http.Header { return ww.w.Header() }

// Unwrap lets http.ResponseController reach the connection's deadlines;
// bodies are written through ww only.
func (ww *wireWriter) Unwrap() http.ResponseWriter { return ww.w }

// WriteHeader picks the mode from the status and Content-Type.
func (ww *wireWriter) WriteHeader(status int) {
	if ww.mode != modeUnset {
		return
	}
	if status < 200 {
		ww.w.WriteHeader(status) // informational: more headers follow
		return
	}
	h := ww.w.Header()
	if id := h.Get("Mcp-Session-Id"); id != "" && !codec.IsIdentifier(id) {
		h.Del("Mcp-Session-Id")
	}
	ww.status = status
	if status >= 300 {
		ww.mode = modeReplace
		return // written by finish
	}
	switch ct := h.Get("Content-Type"); {
	case strings.HasPrefix(ct, "text/event-stream"):
		ww.mode, ww.atLineStart = modeSSE, true
	case strings.HasPrefix(ct, "application/json"):
		ww.mode = modeJSON
		h.Del("Content-Length") // an error may be rewritten
	default:
		ww.mode = modePass
	}
	ww.w.WriteHeader(status)
}

// Write writes or holds p as the mode asks.
func (ww *wireWriter) Write(p []byte) (int, error) {
	if ww.mode == modeUnset {
		ww.WriteHeader(http.StatusOK)
	}
	switch ww.mode {
	case modePass:
		return ww.w.Write(p)
	case modeReplace:
		if room := maxHeld - len(ww.held); room > 0 {
			ww.held = append(ww.held, p[:min(room, len(p))]...)
		}
		return len(p), nil
	case modeJSON:
		return len(p), ww.writeJSON(p)
	default:
		return len(p), ww.writeSSE(p)
	}
}

// Flush flushes what was passed; held bytes stay held (the SDK writes
// whole events, so nothing is held between them).
func (ww *wireWriter) Flush() {
	_ = ww.FlushError()
}

// FlushError flushes what was passed, for http.ResponseController.
func (ww *wireWriter) FlushError() error {
	if ww.mode == modeUnset {
		ww.WriteHeader(http.StatusOK)
	}
	if ww.mode == modeReplace {
		return nil
	}
	return http.NewResponseController(ww.w).Flush()
}

// hold appends p to the held bytes, up to maxHeld.
func (ww *wireWriter) hold(p []byte) {
	room := maxHeld - len(ww.held)
	if len(p) > room {
		p, ww.truncated = p[:max(room, 0)], true
	}
	ww.held = append(ww.held, p...)
}

// decide inspects a message's start, buf (the held bytes and more, or
// bytes of a write when nothing is held); complete tells that the message
// ends with buf. It returns the new state.
func decide(buf []byte, complete bool) int {
	v, _ := inspect(buf)
	switch v {
	case verdictPass:
		return msgPass
	case verdictBatch:
		return msgBatch
	case verdictMore:
		if !complete && len(buf) < maxHeld {
			return msgUndecided
		}
	}
	return msgError
}

// writeJSON handles a write of a 2xx JSON body.
func (ww *wireWriter) writeJSON(p []byte) error {
	switch ww.msg {
	case msgPass:
		_, err := ww.w.Write(p)
		return err
	case msgError:
		ww.hold(p)
		return nil
	case msgBatch:
		ww.held = append(ww.held, p...) // a batch is rewritten whole
		return nil
	}
	buf := p
	if len(ww.held) > 0 {
		buf = append(ww.held, p...)
	}
	ww.msg = decide(buf, false)
	switch ww.msg {
	case msgPass:
		ww.held = nil
		_, err := ww.w.Write(buf)
		return err
	case msgBatch:
		ww.held = append(ww.held[:0], buf...)
	default:
		ww.held = ww.held[:0]
		ww.hold(buf)
	}
	return nil
}

// writeSSE handles a write of a 2xx event stream: lines pass in runs of
// p, but for the data lines of error responses, which are held and
// rewritten.
func (ww *wireWriter) writeSSE(p []byte) error {
	buf := p
	if len(ww.held) > 0 && ww.msg == msgUndecided {
		buf = append(ww.held, p...)
		ww.held = nil
	}
	run := 0 // start of the bytes of buf to pass
	i := 0
	for i < len(buf) {
		if ww.atLineStart {
			var done bool
			var err error
			if i, done, err = ww.sseLineStart(buf, i, run); done || err != nil {
				return err
			}
		}
		end := bytes.IndexByte(buf[i:], '\n')
		lineEnd := len(buf)
		if end >= 0 {
			lineEnd = i + end
		}
		if ww.inData && ww.msg == msgUndecided {
			ww.msg = decide(buf[i:lineEnd], end >= 0)
			if ww.msg == msgUndecided {
				// A split write: pass what came before, hold the line.
				if err := ww.pass(buf[run:i]); err != nil {
					return err
				}
				ww.held = append(ww.held[:0], buf[i:]...)
				return nil
			}
			if ww.msg != msgPass {
				if err := ww.pass(buf[run:i]); err != nil {
					return err
				}
				ww.held, ww.truncated = ww.held[:0], false
			}
		}
		if ww.inData && ww.msg != msgPass {
			ww.hold(buf[i:lineEnd])
			if end < 0 {
				return nil
			}
			out := append(rewrite(ww.held, ww.truncated), '\n')
			if _, err := ww.w.Write(out); err != nil {
				return err
			}
			ww.held, ww.msg = nil, msgPass
			i = lineEnd + 1
			run = i
			ww.atLineStart = true
			continue
		}
		if end < 0 {
			break
		}
		i = lineEnd + 1
		ww.atLineStart = true
	}
	return ww.pass(buf[run:])
}

// sseLineStart reads the start of the line at buf[i], which passes from
// buf[run:]: whether it is a data line, and past its "data:" prefix.
// done reports that the write is handled: a start too short to tell is
// held, or buf ends after the prefix.
func (ww *wireWriter) sseLineStart(buf []byte, i, run int) (next int, done bool, err error) {
	rest := buf[i:]
	if len(rest) < len("data:") && bytes.HasPrefix([]byte("data:"), rest) {
		// Too short to tell: hold it.
		if err := ww.pass(buf[run:i]); err != nil {
			return i, true, err
		}
		ww.held = append(ww.held[:0], rest...)
		ww.msg = msgUndecided
		return i, true, nil
	}
	ww.atLineStart = false
	ww.inData = bytes.HasPrefix(rest, []byte("data:"))
	if ww.inData {
		ww.msg = msgUndecided
		i += len("data:")
		if i < len(buf) && buf[i] == ' ' {
			i++
		}
		if i == len(buf) {
			return i, true, ww.pass(buf[run:])
		}
	}
	return i, false, nil
}

// pass writes b as it is.
func (ww *wireWriter) pass(b []byte) error {
	if len(b) == 0 {
		return nil
	}
	_, err := ww.w.Write(b)
	return err
}

// finish writes what is held when the handler returns.
func (ww *wireWriter) finish() {
	switch ww.mode {
	case modeReplace:
		ww.writeReplacement()
	case modeJSON:
		if ww.msg != msgPass && len(ww.held) > 0 {
			_, _ = ww.w.Write(rewrite(ww.held, ww.truncated))
		}
	case modeSSE:
		if len(ww.held) > 0 {
			if ww.inData {
				_, _ = ww.w.Write(rewrite(ww.held, ww.truncated))
			} else {
				_, _ = ww.w.Write(ww.held) // the start of a line other than data
			}
		}
	}
}

// writeReplacement writes a non-2xx response with its body replaced.
func (ww *wireWriter) writeReplacement() {
	h := ww.w.Header()
	var body []byte
	if strings.HasPrefix(h.Get("Content-Type"), "application/json") {
		body = rewrite(ww.held, ww.truncated)
	} else {
		body = []byte(plainBody(ww.status, ww.held))
		h.Set("Content-Type", "text/plain; charset=utf-8")
		h.Set("X-Content-Type-Options", "nosniff")
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	ww.w.WriteHeader(ww.status)
	_, _ = ww.w.Write(body)
}
