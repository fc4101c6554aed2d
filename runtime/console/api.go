package console

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
)

// The JSON API: the twin of each page, for a host with its own UI. Its
// shapes are documented in the package doc.

// apiMe is the answer of GET api/me.
type apiMe struct {
	Principal string `json:"principal"`
	Operator  bool   `json:"operator"`
	CSRFToken string `json:"csrf_token"`
}

// apiProposal is a proposal as the person may see it.
type apiProposal struct {
	ID           string          `json:"id"`
	Tool         string          `json:"tool"`
	Summary      string          `json:"summary"`
	Args         json.RawMessage `json:"args,omitempty"`
	ProposedBy   string          `json:"proposed_by"`
	Conversation string          `json:"conversation,omitempty"`
	Turn         string          `json:"turn,omitempty"`
	CallID       string          `json:"call_id,omitempty"`
	Created      time.Time       `json:"created"`
	Expires      time.Time       `json:"expires"`
	State        string          `json:"state"`
	DecidedBy    string          `json:"decided_by,omitempty"`
	Decided      *time.Time      `json:"decided,omitempty"`
	CanDecide    bool            `json:"can_decide"`
}

// apiOutcome is how a proposal was decided.
type apiOutcome struct {
	Event   string          `json:"event"`
	By      string          `json:"by"`
	Time    time.Time       `json:"time"`
	Outcome string          `json:"outcome"`
	Code    string          `json:"code,omitempty"`
	Error   string          `json:"error,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
}

// apiProposalAnswer is the answer of GET api/proposals/{id} and of a
// decision.
type apiProposalAnswer struct {
	Proposal apiProposal `json:"proposal"`
	Outcome  *apiOutcome `json:"outcome"`
}

// apiRecord is one row of the record. It never holds a result: a
// confirmation's is in its proposal's outcome.
type apiRecord struct {
	ID           int64           `json:"id"`
	Time         time.Time       `json:"time"`
	Principal    string          `json:"principal"`
	Conversation string          `json:"conversation,omitempty"`
	Turn         string          `json:"turn,omitempty"`
	CallID       string          `json:"call_id,omitempty"`
	Agent        string          `json:"agent,omitempty"`
	Tool         string          `json:"tool,omitempty"`
	Kind         string          `json:"kind,omitempty"`
	Event        string          `json:"event"`
	Outcome      string          `json:"outcome"`
	Code         string          `json:"code,omitempty"`
	DurationMS   float64         `json:"duration_ms"`
	Error        string          `json:"error,omitempty"`
	Args         json.RawMessage `json:"args,omitempty"`
	Proposal     string          `json:"proposal,omitempty"`
}

// apiTool is one tool of the catalog.
type apiTool struct {
	Name         string                     `json:"name"`
	Title        string                     `json:"title,omitempty"`
	Kind         string                     `json:"kind"`
	ReadOnly     bool                       `json:"read_only"`
	Destructive  bool                       `json:"destructive"`
	Group        string                     `json:"group,omitempty"`
	Permissions  []string                   `json:"permissions,omitempty"`
	Secrets      []string                   `json:"secret_members,omitempty"`
	Description  string                     `json:"description"`
	InputSchema  json.RawMessage            `json:"input_schema"`
	OutputSchema json.RawMessage            `json:"output_schema,omitempty"`
	Definitions  map[string]json.RawMessage `json:"definitions"`
	Precomputed  bool                       `json:"precomputed"`
	Error        string                     `json:"error,omitempty"`
	App          *apiApp                    `json:"app,omitempty"`
}

// rawJSON is b as a json.RawMessage when it is JSON, else nil: the API
// never writes invalid JSON.
func rawJSON(b []byte) json.RawMessage {
	if len(b) == 0 || !json.Valid(b) {
		return nil
	}
	return b
}

// proposalJSON is v as the API shows it: without its digest.
func proposalJSON(v *service.ProposalView) apiProposal {
	p := apiProposal{
		ID: v.ID, Tool: v.Tool, Summary: v.Summary, Args: rawJSON(v.Args), ProposedBy: v.Principal,
		Conversation: v.Conversation, Turn: v.Turn, CallID: v.CallID, Created: v.Created.UTC(), Expires: v.Expires.UTC(),
		State: v.State.String(), DecidedBy: v.DecidedBy, CanDecide: v.Decidable,
	}
	if !v.Decided.IsZero() {
		t := v.Decided.UTC()
		p.Decided = &t
	}
	return p
}

// outcomeJSON is o as the API shows it: a structured result as JSON, a
// text one as a JSON string.
func outcomeJSON(o *outcome) *apiOutcome {
	if o == nil {
		return nil
	}
	a := &apiOutcome{Event: o.Event, By: o.By, Time: o.Time.UTC(), Outcome: o.Outcome, Code: o.Code, Error: o.Error}
	if len(o.Result) > 0 {
		if o.Structured {
			a.Result = rawJSON(o.Result)
		} else if b, err := json.Marshal(string(o.Result)); err == nil {
			a.Result = b
		}
	}
	return a
}

// recordJSON is r as the API shows it.
func recordJSON(r *service.Record) apiRecord {
	a := apiRecord{
		ID: r.ID, Time: r.Time.UTC(), Principal: r.Principal, Conversation: r.Conversation, Turn: r.Turn, CallID: r.CallID,
		Agent: r.Agent, Tool: r.Tool, Event: r.Event.String(), Outcome: r.Outcome.String(),
		DurationMS: float64(r.Duration.Microseconds()) / 1000, Error: r.Error, Args: rawJSON(r.Args), Proposal: r.Proposal,
	}
	if r.Kind != 0 {
		a.Kind = r.Kind.String()
	}
	if r.Code != 0 {
		a.Code = r.Code.String()
	}
	return a
}

// apiMe answers GET api/me: who the console takes the caller for, and a
// CSRF token for the caller's posts.
func (c *Console) apiMe(w http.ResponseWriter, _ *http.Request, who tool.Principal) {
	writeJSON(w, http.StatusOK, &apiMe{Principal: who.ID, Operator: c.isOperator(who), CSRFToken: c.token(who.ID)})
}

// apiProposals answers GET api/proposals: the pending proposals the
// person may see.
func (c *Console) apiProposals(w http.ResponseWriter, r *http.Request, who tool.Principal) {
	ps, err := c.pending(as(r.Context(), who), who)
	if err != nil {
		c.failed(w, r, "read the proposals", err)
		return
	}
	out := struct {
		Proposals []apiProposal `json:"proposals"`
	}{Proposals: make([]apiProposal, len(ps))}
	for i := range ps {
		out.Proposals[i] = proposalJSON(&ps[i])
	}
	writeJSON(w, http.StatusOK, &out)
}

// apiProposal answers GET api/proposals/{id}.
func (c *Console) apiProposal(w http.ResponseWriter, r *http.Request, who tool.Principal) {
	c.writeProposal(w, r, who, r.PathValue("id"), http.StatusOK)
}

// writeProposal writes the proposal id and its outcome.
func (c *Console) writeProposal(w http.ResponseWriter, r *http.Request, who tool.Principal, id string, status int) {
	ctx := as(r.Context(), who)
	v, err := c.svc.ViewProposal(ctx, id, who)
	if err != nil {
		c.proposalError(w, r, err)
		return
	}
	o, err := c.outcome(ctx, v)
	if err != nil {
		c.failed(w, r, "read a proposal's record", err)
		return
	}
	writeJSON(w, status, &apiProposalAnswer{Proposal: proposalJSON(v), Outcome: outcomeJSON(o)})
}

// apiDecide answers POST api/proposals/{id}/confirm and .../reject: the
// confirm route. 200 with the proposal and its outcome once decided now
// (a run that failed included); a refusal otherwise, 409 when it had
// already been decided.
func (c *Console) apiDecide(confirm bool) handler {
	return func(w http.ResponseWriter, r *http.Request, who tool.Principal) {
		id := r.PathValue("id")
		d := c.decide(r.Context(), id, who, confirm)
		switch {
		case d.err != nil:
			c.proposalError(w, r, d.err)
		case d.notice == "decided":
			writeError(w, http.StatusConflict, "already_decided", "nothing ran now: this proposal had already been decided")
		default:
			c.writeProposal(w, r, who, id, http.StatusOK)
		}
	}
}

// apiRecords answers GET api/records: a page of the record, newest first,
// and the cursor of the next one.
func (c *Console) apiRecords(w http.ResponseWriter, r *http.Request, who tool.Principal) {
	f, err := c.parseFilter(r.URL.Query(), who)
	if err != nil {
		writeError(w, http.StatusBadRequest, "bad_filter", err.Error())
		return
	}
	recs, next, err := c.records(as(r.Context(), who), f)
	if err != nil {
		c.failed(w, r, "read the record", err)
		return
	}
	out := struct {
		Records []apiRecord `json:"records"`
		Next    string      `json:"next,omitempty"`
	}{Records: make([]apiRecord, len(recs)), Next: next.String()}
	for i := range recs {
		out.Records[i] = recordJSON(&recs[i])
	}
	writeJSON(w, http.StatusOK, &out)
}

// apiCatalog answers GET api/catalog: the tools offered to the person and
// the definition each provider receives.
func (c *Console) apiCatalog(w http.ResponseWriter, r *http.Request, who tool.Principal) {
	tools := c.catalog(r.Context(), who)
	out := struct {
		Tools []apiTool `json:"tools"`
	}{Tools: make([]apiTool, len(tools))}
	for i := range tools {
		t, s := &tools[i], tools[i].Spec
		a := apiTool{
			Name: s.Name, Title: s.Title, Kind: s.Kind.String(), ReadOnly: s.ReadOnly, Destructive: s.Destructive,
			Group: s.Group, Permissions: s.Permissions, Secrets: s.Secrets, Description: s.Description,
			InputSchema: rawJSON(s.InputSchema), OutputSchema: rawJSON(s.OutputSchema),
			Definitions: make(map[string]json.RawMessage, len(t.Defs)), Precomputed: t.Precomputed, Error: t.Err,
		}
		if a.InputSchema == nil {
			a.InputSchema = json.RawMessage(tool.NoInputSchema)
		}
		if t.App != nil {
			a.App = &apiApp{Bytes: t.App.Bytes, SHA256: t.App.SHA256, Resource: t.App.Resource, Visibility: t.App.Visibility}
		}
		for _, d := range t.Defs {
			if raw := rawJSON(d.JSON); raw != nil {
				a.Definitions[d.Key] = raw
			}
		}
		out.Tools[i] = a
	}
	writeJSON(w, http.StatusOK, &out)
}
