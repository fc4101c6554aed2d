package console_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/toolgen-go/toolgen/examples/demo"
	"github.com/toolgen-go/toolgen/generated"
	"github.com/toolgen-go/toolgen/generated/providers"
	"github.com/toolgen-go/toolgen/runtime/console"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/tools/notes"
)

// The JSON API, as a host with its own UI uses it: who am I, what waits
// for me, the confirm route, the record, the catalog. A browser gets the
// same as pages.
func Example() {
	now := demo.FixedClock(time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC))
	reg, err := generated.New(demo.All(notes.NewDemoStore(), now))
	if err != nil {
		panic(err)
	}
	svc, err := service.New(reg, &service.Options{Now: now})
	if err != nil {
		panic(err)
	}
	defs, err := providers.NewDefinitions(reg) // the definitions toolgen precomputed
	if err != nil {
		panic(err)
	}
	ana := tool.Principal{ID: "ana", Permissions: []string{"notes.read", "notes.write", "notes.delete"}}
	const token = "ana's bearer token"
	c, err := console.New(svc, &console.Options{
		Principal:   console.BearerTokens(map[string]tool.Principal{token: ana}),
		Key:         []byte("a secret key of 32 bytes or more"),
		Definitions: defs,
		Now:         now,
	})
	if err != nil {
		panic(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/console/", http.StripPrefix("/console", c))
	ts := httptest.NewServer(mux)
	defer ts.Close()

	// A model proposed to delete a note, in ana's conversation.
	ctx := tool.WithInvocation(context.Background(), &tool.Invocation{Principal: ana, Conversation: "c-1"})
	if _, err := svc.Propose(ctx, "notes_delete", []byte(`{"id":"n2"}`)); err != nil {
		panic(err)
	}

	call := func(method, path, csrf string) string {
		req, err := http.NewRequest(method, ts.URL+"/console/"+path, nil)
		if err != nil {
			panic(err)
		}
		req.Header.Set("Authorization", "Bearer "+token)
		if csrf != "" {
			req.Header.Set("X-CSRF-Token", csrf)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			panic(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			panic(err)
		}
		return fmt.Sprintf("%d %s", resp.StatusCode, bytes.TrimSpace(b))
	}
	var me struct {
		Principal string `json:"principal"`
		CSRFToken string `json:"csrf_token"`
	}
	_ = json.Unmarshal([]byte(call("GET", "api/me", "")[4:]), &me)
	fmt.Println("signed in:", me.Principal)

	var pending struct {
		Proposals []struct{ ID string } `json:"proposals"`
	}
	list := call("GET", "api/proposals", "")
	_ = json.Unmarshal([]byte(list[4:]), &pending)
	id := pending.Proposals[0].ID
	fmt.Println(mask(list, id))

	fmt.Println(mask(call("POST", "api/proposals/"+id+"/confirm", ""), id)) // no CSRF token
	fmt.Println(mask(call("POST", "api/proposals/"+id+"/confirm", me.CSRFToken), id))
	fmt.Println(mask(call("POST", "api/proposals/"+id+"/confirm", me.CSRFToken), id))
	fmt.Println(mask(call("GET", "api/records?event=confirmation", ""), id))
	// Output:
	// signed in: ana
	// 200 {"proposals":[{"id":"prop_…","tool":"notes_delete","summary":"Delete this note? This cannot be undone. (notes_delete)","args":{"id":"n2"},"proposed_by":"ana","conversation":"c-1","created":"2026-12-02T09:00:00Z","expires":"2026-12-02T09:15:00Z","state":"pending","can_decide":true}]}
	// 403 {"error":{"code":"bad_csrf_token","message":"the X-CSRF-Token header must hold a token from GET api/me"}}
	// 200 {"proposal":{"id":"prop_…","tool":"notes_delete","summary":"Delete this note? This cannot be undone. (notes_delete)","args":{"id":"n2"},"proposed_by":"ana","conversation":"c-1","created":"2026-12-02T09:00:00Z","expires":"2026-12-02T09:15:00Z","state":"done","decided_by":"ana","decided":"2026-12-02T09:00:00Z","can_decide":true},"outcome":{"event":"confirmation","by":"ana","time":"2026-12-02T09:00:00Z","outcome":"ok","result":{"id":"n2","deleted":true}}}
	// 409 {"error":{"code":"already_decided","message":"nothing ran now: this proposal had already been decided"}}
	// 200 {"records":[{"id":2,"time":"2026-12-02T09:00:00Z","principal":"ana","conversation":"c-1","tool":"notes_delete","kind":"propose","event":"confirmation","outcome":"ok","duration_ms":0,"args":{"id":"n2"},"proposal":"prop_…"}]}
}

// mask replaces a proposal's random ID.
func mask(s, id string) string {
	return strings.ReplaceAll(s, id, "prop_…")
}
