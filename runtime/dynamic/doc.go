// Package dynamic serves tools that are not known at build time: a
// Provider registers several tools at once (a remote MCP server's tools,
// workflows stored in a database) and a Set composes providers behind the
// generated registry for the call service (runtime/service, through
// tool.Source).
package dynamic
