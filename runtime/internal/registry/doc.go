// Package registry is the runtime's tool registry: what a generated
// package's New returns, as a tool.Registry, through runtime/toolimpl
// (the constructor and the names generated code uses). Everything
// policy-like about running one of its tools is written once, here:
// lookup, suggestions for unknown names, refusal of propose tools,
// decoding limits, timeouts and abandoned runs (through run.Runner),
// panic recovery, error mapping, the output cap and the pooling of
// decoders and encoders.
//
// What only the call service (runtime/service) may do with a registry
// (run a propose tool once a person has confirmed it, give the log form
// of a call's arguments, ask a tool whether it offers itself) are
// functions of this package, not methods: a host holds the registry as a
// tool.Registry and cannot import an internal package, so neither a
// method call nor a type assertion reaches them, and a propose tool runs
// through the service's confirmation or not at all.
package registry
