// Package console is a person's view of the call service (runtime/service)
// in a browser: what waits for their yes, what ran in their name, and what
// each model is offered. It is an http.Handler a host mounts:
//
//	lister, err := servicemcp.NewLister() // optional: the MCP definitions
//	defs, err := providers.NewDefinitions(reg) // the generated providers package
//	c, err := console.New(svc, &console.Options{
//		Principal:          console.BearerTokens(map[string]tool.Principal{token: ana}),
//		Key:                key, // 32 random bytes, the same on every instance
//		OperatorPermission: "console.operator",
//		Definitions:        defs,
//		MCP:                lister.List,
//	})
//	mux.Handle("/console/", http.StripPrefix("/console", c))
//
// # Pages
//
//   - Proposals (/): the person's pending proposals, and those the Policy
//     lets them decide: the tool, the summary, the arguments as the
//     record keeps them (secret members replaced), who proposed it, the
//     conversation, and the time left, counting down. Confirm and Reject
//     go through the service (Confirm, Reject): at most once, the
//     person's permissions checked again, the digest checked, and
//     carried out even when the request ends first (a tab closed, a
//     proxy's timeout: the decision is made under the request's values
//     without its cancellation). The proposal's own page
//     (/proposals/{id}) then shows the outcome: the run's result or
//     error, or the rejection.
//   - Tasks (/tasks): the person's tasks that have not ended
//     (service.Tasks: calls that outlive their request, such as those of
//     an MCP client that declared the Tasks extension), newest first:
//     running ones with the progress their tool last reported (the
//     task's message, renewed with its lease), and those waiting for a
//     decision on their proposal, linked to it. Cancel asks the service
//     to cancel one (service.CancelTask): a running tool sees its context
//     end within the service's task tick, on whichever instance runs it;
//     a waiting one ends at once, its proposal rejected. The page's own
//     small script reads api/tasks every second to keep each task's
//     progress and state current, and marks a task that ended.
//   - Record (/record): the person's calls, refusals, proposals,
//     confirmations and offers, newest first, filtered by conversation,
//     tool, event and time (UTC), a page at a time. A holder of
//     Options.OperatorPermission sees everyone's and may filter by
//     principal. Arguments are shown in their logged form; results never
//     are.
//   - Catalog (/catalog): every tool the person is offered, its kind and
//     read-only mark, description, input and output schema, and the exact
//     definition each provider receives: OpenAI (Chat Completions and
//     Responses), Anthropic and Gemini from the precomputed bytes of
//     Options.Definitions, and MCP as runtime/mcpserver lists it
//     (Options.MCP).
//
// The pages are html/template and embedded files: a style sheet (light
// and dark, after prefers-color-scheme; usable at phone width) and
// small scripts (the countdown; a form posts once; the tasks page kept
// current), with no build step.
// They work without the script. They are tested in Chromium (apt-get
// install chromium); the browser tests skip only under -short.
// examples/console serves them over the sample tools.
//
// # JSON API
//
// Every page has a JSON twin under api/, for a host with its own UI.
// Requests carry the principal as pages do (with BearerTokens, an
// "Authorization: Bearer" header); a POST also carries a CSRF token, from
// GET api/me, in the X-CSRF-Token header. Times are RFC 3339, UTC.
//
//	GET  api/me                     {"principal","operator","csrf_token"}
//	GET  api/proposals              {"proposals":[proposal...]}: pending, oldest first
//	GET  api/proposals/{id}         {"proposal":proposal,"outcome":outcome|null}
//	POST api/proposals/{id}/confirm {"proposal":proposal,"outcome":outcome}: the confirm route
//	POST api/proposals/{id}/reject  {"proposal":proposal,"outcome":outcome}
//	GET  api/tasks                  {"tasks":[task...]}: running and waiting, newest first
//	POST api/tasks/{id}/cancel      {"done":"cancelled"|"ended"} (ended: nothing was cancelled)
//	GET  api/records?...            {"records":[record...],"next":cursor}: newest first
//	GET  api/catalog                {"tools":[tool...]}
//
// A proposal is {"id","tool","summary","args","proposed_by",
// "conversation","turn","call_id","created","expires","state",
// "decided_by","decided","can_decide"}: args in their logged form, state
// one of pending, running, done, unknown, rejected, expired (a pending
// proposal past its expiry reads expired). An outcome is {"event"
// (confirmation, rejection, expiry),"by","time","outcome" (ok, failed,
// unknown, started),"code","error","result"}: result is the tool's
// structured output, or its text as a JSON string. A record is {"id",
// "time","principal","conversation","turn","call_id","agent","tool",
// "kind","event","outcome","code","duration_ms","error","args",
// "proposal"}. A tool is {"name","title","kind","read_only",
// "destructive","group","permissions","secret_members","description",
// "input_schema","output_schema","definitions","precomputed"} where
// definitions maps openai_chat, openai_responses, anthropic, gemini and
// mcp to the exact bytes each receives. A task is {"id","tool","status"
// (working, input_required),"message","proposal","conversation",
// "created","updated","cancelling"}.
//
// api/records takes the query parameters conversation, tool, event (call,
// refusal, proposal, confirmation, rejection, expiry, replay, offer),
// since and until (2006-01-02T15:04 in UTC, or RFC 3339), limit (1 to
// MaxPageSize), before (the next cursor of the previous page) and, for an
// operator, principal.
//
// A refusal is {"error":{"code","message"}} with a status: 401 without a
// principal, 403 for a cross-site request, a missing or bad CSRF token, or
// a decision the service refused (the tool is no longer offered, the kill
// switch), 404 for a proposal that is unknown or not the person's (the
// same answer for both; a task likewise), 409 for one already decided (its own code, such
// as already_confirmed, or already_decided), 400 for a bad filter. A
// confirmation whose run failed is decided: 200, its outcome failed.
//
// # Security
//
//   - Who: Options.Principal, a function of the request the host gives.
//     BearerTokens is the ready-made one: tokens in the Authorization
//     header. The console's sign-in form checks a pasted token with it
//     and starts a session: SessionCookie (HttpOnly, SameSite=Strict,
//     the console's path) holds 256 random bits, never the token; the
//     service's store keeps their SHA-256 and the principal the session
//     was made for (service.Session), which it resolves to and to no one
//     else, with a digest under Options.Key: a session changed or written
//     in the store without the key is refused. Every instance sharing the store knows the session; signing
//     out deletes it there, so the cookie is refused everywhere after.
//     A session ends after Options.SessionTTL (DefaultSessionTTL, 12 h)
//     or Options.SessionIdle unused (DefaultSessionIdle, 1 h); it keeps
//     the permissions the principal held at sign-in until then. A
//     tampered, unknown, ended or expired session is answered as no
//     principal (a page sends to sign in, the API answers 401), its
//     value never echoed. The store's Purge deletes expired sessions.
//   - TLS: the cookie is Secure when the request came over TLS, always
//     with Options.SecureCookies (set it when TLS ends at a proxy), and
//     when a peer of Options.TrustedProxies sends X-Forwarded-Proto:
//     https; the header of any other peer is ignored.
//   - Cross-site requests: every request that changes anything (every
//     method but GET and HEAD) is refused when a browser says it comes
//     from another site (net/http's CrossOriginProtection), and needs a
//     CSRF token bound to the principal (HMAC under Options.Key, with an
//     expiry): a form's hidden field, the API's X-CSRF-Token header.
//   - Content: a strict Content-Security-Policy (scripts and styles from
//     the console's own files only, nothing inline, no frames, forms post
//     only to the console), nosniff, no referrer. Every value is escaped
//     by html/template where it stands; nothing of the record, a tool's
//     description or a tool's error is rendered as HTML.
//   - Secrets: arguments are only ever shown in their logged form (the
//     tool's LogArgs form, or secret members replaced), a proposal's
//     digest is not shown, and no page or answer holds a token.
//   - Whose: a person sees their own proposals and those the Policy lets
//     them decide, their own tasks, their own record (all of it with
//     the operator permission), and the tools offered to them. Another person's
//     proposal ID is answered as an unknown one.
package console
