// Package nested is a module of its own, as bench/ is: its paths are
// relative to its root, nested/ (tools/x.txt), and an import path of the
// repository's module to the repository's root
// (github.com/toolgen-go/toolgen/pkg/sub). It names tools/absent.txt.
package nested
