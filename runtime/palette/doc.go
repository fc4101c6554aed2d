// Package palette gives an agent its palette: the tools of a registry
// seen through a Selector.
//
// A Selector picks tools by exact name (Names), group (Groups), the Go
// package that declares them (Packages), kind (Kinds) and read-only
// (ReadOnly), and selectors combine (Union, Minus). New builds a Palette
// over a tool.Caller (the call service, or a bare registry) from the
// registry's tools; the Palette is a tool.Caller itself. Its Offer is the
// caller's Offer kept to the palette's tools: the caller's own specs, in
// the registry's order (sorted by name), so that provider.Set.Subset gives
// their precomputed definitions byte for byte. Its Call refuses a tool
// outside the palette as the registry refuses an unknown tool, naming
// only the palette's offered tools.
//
// # Read-only, enforced twice
//
// A palette bound read-only (Options.ReadOnly, or BindReadOnly) sweeps
// every mutating tool out of its tools and names each removal (Swept). A
// tool is mutating unless it says //tool:readonly (Spec.ReadOnly). The
// binding is a latch: no method undoes it, and Add refuses a mutating
// tool, naming it.
//
// A palette can be widened after it was built (Add, for request_tools; a
// dynamic provider; a host calling the service directly), so the sweep is
// not enough on its own. A read-only palette marks every Offer and Call it
// passes on with tool.WithReadOnly, and the call service
// (runtime/service) refuses under that mark any call or confirmation of a
// tool that is not //tool:readonly, as an unknown tool, recorded as a
// refusal. The mark cannot be removed from a context, and the service
// reads it before any Observer, Policy or tool sees the call: nothing a
// tool or a host hook does lifts it.
package palette
