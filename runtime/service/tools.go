package service

import "github.com/toolgen-go/toolgen/runtime/tool"

// Tools returns every tool of the service's registry, sorted by name,
// whether or not anyone is offered it: what a server needs to know before
// any request, such as whether a tool has an MCP App (runtime/mcpserver
// declares the apps extension then). Who may see or call a tool is Offer's
// and Call's to say. The slice and the specs are shared: callers must not
// modify them.
func (s *Service) Tools() []*tool.Spec { return s.tools }

// Tools returns the tools of the Caller As wraps, when it lists them all
// (the call service does), else nil: a server in front of As learns, as
// in front of the service, whether a tool has an MCP App.
func (a *as) Tools() []*tool.Spec {
	if all, ok := a.c.(interface{ Tools() []*tool.Spec }); ok {
		return all.Tools()
	}
	return nil
}
