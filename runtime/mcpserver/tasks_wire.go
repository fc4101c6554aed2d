package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The task layer: the SDK knows neither the tasks/* methods nor a
// tools/call answered with a task, so the requests of the tasks extension
// are answered before it, over HTTP (taskGate, inside the wire layer,
// which scrubs its errors as the SDK's) and over Run's transports
// (scrubConn.Read). Every other request reaches the SDK untouched.

// taskGate answers the task requests of HTTP POSTs.
type taskGate struct {
	srv      *Server
	next     http.Handler
	maxBytes int64
}

// taskGate wraps next with the task layer when the server serves tasks.
func (s *Server) taskGate(next http.Handler, maxBytes int64) http.Handler {
	if s.tasks == nil {
		return next
	}
	return &taskGate{srv: s, next: next, maxBytes: maxBytes}
}

// ServeHTTP answers a POST holding one task request, and hands every other
// request on with its body as it came.
func (g *taskGate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.Body == nil {
		g.next.ServeHTTP(w, r)
		return
	}
	limit := g.maxBytes
	if limit <= 0 {
		limit = DefaultMaxRequestBytes // lifted for the SDK: a larger body is its
	}
	orig := r.Body
	body, err := io.ReadAll(io.LimitReader(orig, limit+1))
	rest := io.Reader(orig) // what was not read, as it comes
	if err != nil {
		rest = errReader{err}
	}
	r.Body = readCloser{io.MultiReader(bytes.NewReader(body), rest), orig}
	if err != nil || int64(len(body)) > limit || !bytes.Contains(body, []byte("tasks")) {
		g.next.ServeHTTP(w, r)
		return
	}
	var req wireRequest
	if json.Unmarshal(body, &req) != nil || req.JSONRPC != "2.0" || !plainJSONID(req.ID) {
		g.next.ServeHTTP(w, r)
		return
	}
	extra := &mcp.RequestExtra{TokenInfo: auth.TokenInfoFromContext(r.Context()), Header: r.Header}
	res, werr, handled := g.srv.taskMessage(r.Context(), extra, &req)
	if !handled {
		g.next.ServeHTTP(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(responseJSON(req.ID, res, werr))
}

// errReader returns err once the body read before it is done: a read
// error reaches the handler as it would have.
type errReader struct{ err error }

// Read implements io.Reader.
func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// responseJSON is the JSON-RPC response of id with res or werr.
func responseJSON(id json.RawMessage, res json.RawMessage, werr *jsonrpc.Error) []byte {
	b := []byte(`{"jsonrpc":"2.0","id":`)
	b = append(b, id...)
	if werr != nil {
		e, err := json.Marshal(werr)
		if err != nil {
			e = []byte(`{"code":-32603,"message":"internal error"}`)
		}
		b = append(b, `,"error":`...)
		b = append(b, e...)
	} else {
		b = append(b, `,"result":`...)
		b = append(b, res...)
	}
	return append(b, '}')
}

// Read reads the next message the SDK is to see: a task request is
// answered here, and the next message read.
func (c scrubConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		msg, err := c.Connection.Read(ctx)
		if err != nil || c.srv == nil || c.srv.tasks == nil {
			return msg, err
		}
		req, ok := msg.(*jsonrpc.Request)
		if !ok || !req.IsCall() {
			return msg, nil
		}
		id, err := json.Marshal(req.ID.Raw())
		if err != nil {
			return msg, nil
		}
		wr := &wireRequest{JSONRPC: "2.0", ID: id, Method: req.Method, Params: req.Params}
		res, werr, handled := c.srv.taskMessage(c.ctx, nil, wr)
		if !handled {
			return msg, nil
		}
		resp := &jsonrpc.Response{ID: req.ID}
		if werr != nil {
			resp.Error = werr
		} else {
			resp.Result = res
		}
		if err := c.Write(ctx, resp); err != nil {
			return nil, errors.Join(errors.New("mcp server: answer a task request"), err)
		}
	}
}

// plainJSONID reports whether id is a JSON-RPC request's id: a string or
// a number.
func plainJSONID(id json.RawMessage) bool {
	var v any
	if len(id) == 0 || json.Unmarshal(id, &v) != nil {
		return false
	}
	switch v.(type) {
	case string, float64:
		return true
	}
	return false
}
