// Package palette gives an agent its palette: the tools of a registry
// seen through a Selector.
//
//	sel := palette.Minus(palette.Union(palette.Groups("notes"), palette.Packages("example.com/clock")), palette.Names("notes_purge"))
//	p, err := palette.New(svc, reg.Tools(), sel, &palette.Options{ReadOnly: true})
//	if err != nil {
//		return err
//	}
//	log.Println("not offered, read-only:", p.Swept()) // each mutating tool the binding removed
//	offer, err := defs.Subset(p.Offer(ctx))           // this turn's tools, as their precomputed definitions
//	res, err := p.Call(ctx, name, args)               // a tool outside the palette is an unknown tool
//
// A Selector picks tools by exact name (Names), group (Groups), the Go
// package that declares them (Packages), kind (Kinds) and read-only
// (ReadOnly), and selectors combine (Union, Minus). New builds a Palette
// over a tool.Caller (the call service, or a bare registry) from the
// registry's tools; the Palette is a tool.Caller itself. Its Offer is the
// caller's Offer kept to the palette's tools: the caller's own specs, in
// the registry's order (sorted by name), so that provider.Definitions.Subset gives
// their precomputed definitions byte for byte. Its Call refuses a tool
// outside the palette as the registry refuses an unknown tool, naming
// only the palette's offered tools. A tool the caller offers beyond the
// registry (a toolkit's, runtime/dynamic) is in the palette when
// the selector picks it (selectors read Spec fields; a dynamic tool's
// Group is its toolkit's group), and is judged by the caller's spec.
//
// Over the call service, everything a palette does is a row of its
// record (the service is a tool.Recorder): each turn's Offer (a row when
// the turn or the offer changed), its refusals and its meta-tools'
// grants; service.As keeps all three.
//
// # Bound arguments
//
// Options.Bind fixes some of a tool's arguments for one agent, such as a
// search kept to one notebook:
//
//	Bind: map[string]json.RawMessage{"notes_search": json.RawMessage(`{"notebook":"work"}`)}
//
// New checks each binding (the tool is the registry's, the value an
// object, each member a property of the tool's input schema; errors name
// the tool and the members) and derives, once, a spec whose input schema
// lacks those properties and their "required" entries. Offer hands out
// that derived spec in place of the registry's, the same pointer and bytes
// every turn. Call fills the bound members into the model's arguments
// before the caller validates them; a model that sends a bound member
// gets the decoder's "unknown property" error and nothing runs: it can
// neither see nor override a bound argument.
//
// # request_tools and request_skill
//
// Two meta-tools an agent can be given. request_tools (Options.Requestable,
// the catalog it admits from) adds tools to the palette; request_skill
// (Options.Skills and Options.RequestableSkills) attaches skills to the
// conversation (Palette.Admitted, whose Preamble the host sends every
// turn). Each takes {"names":[...]}, and its input schema is built from
// what the palette could still admit for the caller: a oneOf of consts,
// one per tool the caller offers and the catalog picks but the palette
// lacks (per skill the catalog names and the conversation lacks), each
// with that tool's or skill's description. A provider that enforces
// schemas refuses a name off the catalog before it reaches the palette;
// the catalog is never free text in the prompt. The spec is rebuilt only
// when that set changes: its pointer and bytes are the same from turn to
// turn otherwise, as prompt caches need. A meta-tool with nothing left to
// admit is not offered.
//
// Admission is judged by the same declarations: a name is admitted when
// the catalog picks it and the caller offers it; one already present
// reads as admitted; every other comes back named with its reason
// (ReasonNotInCatalog, ReasonNotOffered, ReasonReadOnly,
// ReasonUnknownTool, ReasonUnknownSkill), a name that is not an
// identifier as UnknownName. Admitted tools are in the next turn's Offer.
// A meta-tool runs through the caller's CallDynamic when the caller is a
// tool.Recorder (the call service, which refuses and records it as any
// call: every grant is recorded), else directly.
//
// A bound tool and the meta-tools have specs of their own, not the
// registry's: their provider definitions come from provider.Compute (once
// per spec pointer), not from the registry's provider.Definitions.
//
// # Read-only, enforced twice
//
// A palette bound read-only (Options.ReadOnly, or BindReadOnly) sweeps
// every mutating tool out of its tools and names each removal (Swept). A
// tool is mutating unless it says //tool:readonly (Spec.ReadOnly). The
// binding is a latch: no method undoes it, and Add refuses a mutating
// tool, naming it. request_tools is swept too (it can admit any tool of
// its catalog) and named in Swept; request_skill stays, as it only
// changes the conversation's preamble. A dynamic tool that does not say
// it is read-only is never offered or called.
//
// A palette can be widened after it was built (Add, for request_tools; a
// toolkit; a host calling the service directly), so the sweep is
// not enough on its own. A read-only palette marks every Offer and Call it
// passes on with tool.WithReadOnly, and the call service
// (runtime/service) refuses under that mark any call or confirmation of a
// tool that is not //tool:readonly, as an unknown tool, recorded as a
// refusal. The mark cannot be removed from a context, and the service
// reads it before any Observer, Policy or tool sees the call: nothing a
// tool or a host hook does lifts it.
package palette
