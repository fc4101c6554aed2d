package mcpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolgen-go/toolgen/runtime/codec"
)

// Nothing echoed: the SDK answers malformed requests before this package's
// middleware runs, with messages that quote the request (whole params,
// arguments included; method names; header values; JSON snippets). The
// wire layer (wire.go for HTTP, stdio.go for other transports) rewrites
// every JSON-RPC error on its way out: the code is kept, the message is
// the fixed one of its code unless it is one of the messages this package
// writes itself, the data is dropped (but for the supported protocol
// versions of an unsupported-version error), and the id is kept only when
// it is a plain identifier (codec.IsIdentifier). A rewritten error is at most maxErrorBytes.

// maxErrorBytes bounds every error response the wire layer writes.
const maxErrorBytes = 1024

// maxWord is the longest word of a message safeText lets through: as long
// as a plain identifier (codec.IsIdentifier, the one grammar of the names
// a message may repeat).
const maxWord = 64

// Fixed messages of the error codes.
var codeMessages = map[int64]string{
	jsonrpc.CodeParseError:                    "parse error: the message is not valid JSON-RPC",
	jsonrpc.CodeInvalidRequest:                "invalid request",
	jsonrpc.CodeMethodNotFound:                "method not found",
	jsonrpc.CodeInvalidParams:                 "invalid params",
	jsonrpc.CodeInternalError:                 "internal error",
	mcp.CodeHeaderMismatch:                    "the request's Mcp- headers do not match its body",
	mcp.CodeMissingRequiredClientCapabilities: "the client lacks a capability the request needs",
	mcp.CodeUnsupportedProtocolVersion:        "unsupported protocol version",
	mcp.CodeURLElicitationRequired:            "URL elicitation required",
	-32001:                                    "unknown error",
	-32003:                                    "client is closing",
	-32004:                                    "server is closing",
	-32005:                                    "rejected by transport",
}

// fixedMessage is the message of code.
func fixedMessage(code int64) string {
	if m, ok := codeMessages[code]; ok {
		return m
	}
	return "request failed"
}

// Messages this package writes itself, which the wire layer passes.
const (
	msgInvalidCursor = "invalid cursor"
	msgCannotList    = "the server cannot list its tools"
	// msgUnknownTool replaces the registry's message for an unknown tool
	// whose name is not a plain identifier.
	msgUnknownTool = "unknown tool; tool names are letters, digits, '_', '.' and '-', as tools/list lists them"
	// unknownToolPrefix starts the registry's messages for unknown tools,
	// passed when safeText.
	unknownToolPrefix = "unknown tool"
)

// ownMessages are the other messages this package writes, which quote
// nothing of a request.
var ownMessages = map[string]bool{
	msgMetaCallID:       true,
	msgMetaConversation: true,
	msgMetaTurn:         true,
	msgNoPrincipal:      true,
	msgNoInputAsked:     true,
	msgUnknownTask:      true,
	msgTaskNotWaiting:   true,
	msgTaskFinished:     true,
	msgBadTaskParams:    true,
	msgTaskFailed:       true,
}

// vetMessage returns the message the wire carries for an error of code
// with message msg.
func vetMessage(code int64, msg string) string {
	switch {
	case msg == msgInvalidCursor || msg == msgCannotList || ownMessages[msg]:
		return msg
	case code == jsonrpc.CodeInvalidParams && strings.HasPrefix(msg, unknownToolPrefix) && safeText(msg):
		return msg
	}
	return fixedMessage(code)
}

// safeText reports whether msg carries nothing of a request but plain
// identifiers: at most 512 bytes; every double-quoted part an identifier;
// the rest letters, digits, spaces and plain punctuation, in words of at
// most maxWord bytes.
func safeText(msg string) bool {
	if len(msg) > 512 {
		return false
	}
	for i, part := range strings.Split(msg, `"`) {
		if i%2 == 1 {
			if !codec.IsIdentifier(part) {
				return false
			}
			continue
		}
		for _, word := range strings.Fields(part) {
			if len(word) > maxWord {
				return false
			}
			for j := 0; j < len(word); j++ {
				c := word[j]
				if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("_.,;:?!()'/-", c) >= 0) {
					return false
				}
			}
		}
	}
	return strings.Count(msg, `"`)%2 == 0
}

// vetData returns the data the wire carries for an error of code: the
// supported versions (plain identifiers) of an unsupported protocol
// version, the fixed capability of a missing tasks extension (tasks.go),
// nothing for other codes.
func vetData(code int64, data json.RawMessage) json.RawMessage {
	if code == mcp.CodeMissingRequiredClientCapabilities && bytes.Equal(data, missingTasksCapability) {
		return missingTasksCapability // the task layer's own, fixed
	}
	if code != mcp.CodeUnsupportedProtocolVersion || len(data) == 0 {
		return nil
	}
	var d mcp.UnsupportedProtocolVersionData
	if json.Unmarshal(data, &d) != nil {
		return nil
	}
	var keep []string
	for _, v := range d.Supported {
		if codec.IsIdentifier(v) && len(keep) < 8 {
			keep = append(keep, v)
		}
	}
	b, err := json.Marshal(mcp.UnsupportedProtocolVersionData{Supported: keep})
	if err != nil {
		return nil
	}
	return b
}

// scrubError returns the error the wire carries for err.
func scrubError(err error) *jsonrpc.Error {
	var we *jsonrpc.Error
	if !errors.As(err, &we) {
		return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fixedMessage(jsonrpc.CodeInternalError)}
	}
	return &jsonrpc.Error{Code: we.Code, Message: vetMessage(we.Code, we.Message), Data: vetData(we.Code, we.Data)}
}

// plainID returns id's JSON when it is an integer or a string that is a
// plain identifier, else null.
func plainID(id []byte) []byte {
	id = bytes.TrimSpace(id)
	if len(id) >= 2 && id[0] == '"' && id[len(id)-1] == '"' && codec.IsIdentifier(id[1:len(id)-1]) {
		return id
	}
	if len(id) > 0 && len(id) <= 20 && codec.IsIdentifier(id) {
		if _, err := strconv.ParseInt(string(id), 10, 64); err == nil {
			return id
		}
	}
	return []byte("null")
}

// errorResponse writes a JSON-RPC error response.
func errorResponse(id []byte, code int64, msg string, data json.RawMessage) []byte {
	b := make([]byte, 0, 128+len(msg)+len(data))
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = append(b, plainID(id)...)
	b = append(b, `,"error":{"code":`...)
	b = strconv.AppendInt(b, code, 10)
	b = append(b, `,"message":`...)
	m, _ := json.Marshal(msg) // a string always marshals
	b = append(b, m...)
	if len(data) > 0 {
		b = append(b, `,"data":`...)
		b = append(b, data...)
	}
	b = append(b, "}}"...)
	if len(b) > maxErrorBytes {
		return errorResponse(id, code, fixedMessage(code), nil)
	}
	return b
}

// wireMessage is the part of a JSON-RPC message the wire layer reads.
type wireMessage struct {
	ID    json.RawMessage `json:"id"`
	Error *struct {
		Code    int64           `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
}

// rewrite returns msg, one JSON-RPC message or a batch of them, with every
// error response rewritten; truncated means msg is only the start of the
// message (the rest was dropped to bound memory), to be read as far as it
// goes.
func rewrite(msg []byte, truncated bool) []byte {
	if t := bytes.TrimSpace(msg); !truncated && len(t) > 0 && t[0] == '[' {
		var batch []json.RawMessage
		if json.Unmarshal(t, &batch) != nil {
			return errorResponse(nil, jsonrpc.CodeInternalError, fixedMessage(jsonrpc.CodeInternalError), nil)
		}
		out := []byte{'['}
		for i, m := range batch {
			if i > 0 {
				out = append(out, ',')
			}
			if v, _ := inspect(m); v == verdictPass {
				out = append(out, m...)
			} else {
				out = append(out, rewrite(m, false)...)
			}
		}
		return append(out, ']')
	}
	if !truncated {
		var m wireMessage
		if json.Unmarshal(msg, &m) == nil && m.Error != nil {
			code := m.Error.Code
			return errorResponse(m.ID, code, vetMessage(code, m.Error.Message), vetData(code, m.Error.Data))
		}
	}
	_, info := inspect(msg)
	code := info.code
	if !info.hasCode {
		code = jsonrpc.CodeInternalError
	}
	return errorResponse(info.id, code, fixedMessage(code), nil)
}

// verdict is what inspect makes of the start of a message.
type verdict int

const (
	// verdictMore: the bytes end before a verdict.
	verdictMore verdict = iota
	// verdictPass: a result, a request or a notification, passed as is.
	verdictPass
	// verdictError: an error response (or not JSON-RPC at all), rewritten.
	verdictError
	// verdictBatch: a JSON array, rewritten as a whole.
	verdictBatch
)

// inspected is what inspect read of an error response.
type inspected struct {
	id      []byte
	code    int64
	hasCode bool
}

// inspect reads the start of one JSON-RPC message as the SDK writes it
// ({"jsonrpc":…,"id":…, then "result", "error" or "method"}) just far
// enough for a verdict: a successful result is recognized after its id,
// without reading it. An error's id and code are returned when present.
func inspect(b []byte) (verdict, inspected) {
	var info inspected
	i := skipSpace(b, 0)
	if i == len(b) {
		return verdictMore, info
	}
	switch b[i] {
	case '[':
		return verdictBatch, info
	case '{':
	default:
		return verdictError, info
	}
	i++
	for {
		i = skipSpace(b, i)
		if i == len(b) {
			return verdictMore, info
		}
		if b[i] == '}' {
			return verdictPass, info // no error member
		}
		keyStart := i
		j, st := skipValue(b, i)
		if st != scanDone {
			return more(st), info
		}
		key := b[keyStart:j]
		if key[0] != '"' {
			return verdictError, info
		}
		i = skipSpace(b, j)
		if i == len(b) {
			return verdictMore, info
		}
		if b[i] != ':' {
			return verdictError, info
		}
		i = skipSpace(b, i+1)
		switch string(key) {
		case `"result"`, `"method"`:
			return verdictPass, info
		case `"error"`:
			return verdictError, readCode(b, i, info)
		}
		valStart := i
		if i, st = skipValue(b, i); st != scanDone {
			return more(st), info
		}
		if string(key) == `"id"` {
			info.id = b[valStart:i]
		}
		i = skipSpace(b, i)
		if i == len(b) {
			return verdictMore, info
		}
		switch b[i] {
		case ',':
			i++
		case '}':
			return verdictPass, info
		default:
			return verdictError, info
		}
	}
}

// readCode reads the code of the error object at b[i:], as far as b goes.
func readCode(b []byte, i int, info inspected) inspected {
	if i >= len(b) || b[i] != '{' {
		return info
	}
	i++
	for {
		i = skipSpace(b, i)
		if i >= len(b) || b[i] == '}' {
			return info
		}
		keyStart := i
		j, st := skipValue(b, i)
		if st != scanDone {
			return info
		}
		key := string(b[keyStart:j])
		i = skipSpace(b, j)
		if i >= len(b) || b[i] != ':' {
			return info
		}
		i = skipSpace(b, i+1)
		valStart := i
		if i, st = skipValue(b, i); st != scanDone {
			return info
		}
		if key == `"code"` {
			if c, err := strconv.ParseInt(string(b[valStart:i]), 10, 64); err == nil {
				info.code, info.hasCode = c, true
			}
			return info
		}
		i = skipSpace(b, i)
		if i >= len(b) || b[i] != ',' {
			return info
		}
		i++
	}
}

// scanState is how skipValue ended.
type scanState int

const (
	scanDone scanState = iota
	scanShort
	scanBad
)

// more maps a scan that did not complete to a verdict.
func more(st scanState) verdict {
	if st == scanShort {
		return verdictMore
	}
	return verdictError
}

// skipSpace returns the index of the first non-space byte at or after i.
func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// skipValue returns the index just past the JSON value at b[i:]. It does
// not validate numbers and literals, only finds where they end; a value
// that runs to the end of b is scanShort (b may continue).
func skipValue(b []byte, i int) (int, scanState) {
	depth := 0
	for i < len(b) {
		c := b[i]
		switch c {
		case '"':
			i++
			for {
				k := bytes.IndexAny(b[i:], "\"\\")
				if k < 0 {
					return len(b), scanShort
				}
				i += k
				if b[i] == '\\' {
					i += 2
					if i > len(b) {
						return len(b), scanShort
					}
					continue
				}
				i++
				break
			}
		case '{', '[':
			depth++
			i++
		case '}', ']':
			depth--
			i++
			if depth < 0 {
				return i, scanBad
			}
		case ',', ':', ' ', '\t', '\r', '\n':
			if depth == 0 {
				return i, scanDone
			}
			i++
		default:
			if depth == 0 {
				// A number or literal: it ends at a delimiter.
				j := i
				for j < len(b) && !isDelim(b[j]) {
					j++
				}
				if j == len(b) {
					return j, scanShort
				}
				return j, scanDone
			}
			i++
		}
		if depth == 0 && (c == '"' || c == '}' || c == ']') {
			return i, scanDone
		}
	}
	return i, scanShort
}

// isDelim reports whether c ends a number or literal.
func isDelim(c byte) bool {
	switch c {
	case ',', ':', '}', ']', ' ', '\t', '\r', '\n':
		return true
	}
	return false
}
