package dynamic

import "github.com/toolgen-go/toolgen/runtime/tool"

// CompiledSchema returns the compiled input schema a dynamic tool of a Source
// validates with, so that tests can see it is compiled once per version.
func CompiledSchema(d tool.Dynamic) any { return d.(*dynTool).sch }
