// Package apperrors is a golden case: app directives toolgen refuses.
package apperrors

import "context"

// In is empty.
type In struct{}

// MissingTool names a file that does not exist.
//
//tool:name missing
//tool:ui missing.html
type MissingTool struct{}

// Call does nothing.
func (MissingTool) Call(context.Context, In) (string, error) { return "", nil }

// BinaryTool names a file that is not UTF-8.
//
//tool:name binary
//tool:ui binary.html
type BinaryTool struct{}

// Call does nothing.
func (BinaryTool) Call(context.Context, In) (string, error) { return "", nil }

// LargeTool names a file over the limit.
//
//tool:name large
//tool:ui large.html
type LargeTool struct{}

// Call does nothing.
func (LargeTool) Call(context.Context, In) (string, error) { return "", nil }

// ExternalTool loads a script from an origin its CSP does not declare.
//
//tool:name external
//tool:ui external.html
//tool:uicsp resource https://cdn.example.com
type ExternalTool struct{}

// Call does nothing.
func (ExternalTool) Call(context.Context, In) (string, error) { return "", nil }

// TextTool names a file that is not an HTML document.
//
//tool:name text
//tool:ui text.html
type TextTool struct{}

// Call does nothing.
func (TextTool) Call(context.Context, In) (string, error) { return "", nil }

// BadDirectivesTool misuses the app directives.
//
//tool:name bad_directives
//tool:ui ../outside.html
//tool:uicsp script https://cdn.example.com
//tool:uicsp resource https://cdn.example.com/path
//tool:uicsp connect ftp://files.example.com
//tool:uipermission usb
//tool:uiborder maybe
//tool:visibility everyone
//tool:meta io.modelcontextprotocol/ui {}
type BadDirectivesTool struct{}

// Call does nothing.
func (BadDirectivesTool) Call(context.Context, In) (string, error) { return "", nil }

// LooseTool declares a CSP without an app.
//
//tool:name loose
//tool:uicsp connect https://api.example.com
type LooseTool struct{}

// Call does nothing.
func (LooseTool) Call(context.Context, In) (string, error) { return "", nil }
