// Package jsonlex is the JSON text layer for toolgen and the code it
// generates: the one string escaper, string reader (with its \u escape
// reader and UTF-8 check), number and literal scanner, white-space
// skipper and kind of a JSON value (Kind, whose zero value is Invalid)
// that both runtime/codec (the reader and writer generated code calls) and
// runtime/jsontree (the ordered tree the generator and the provider
// projections use) are built on. The two packages read and write
// the same JSON text, byte for byte, because they share this code.
//
// For example, reading the string at the start of data and writing it
// back as encoding/json's Marshal would:
//
//	var scratch []byte
//	s, next, msg := jsonlex.ReadString(data, 0, &scratch)
//	if msg != "" {
//		return fmt.Errorf("invalid JSON at byte %d: %s", next, msg)
//	}
//	out := jsonlex.AppendStringHTML(nil, s)
//
// It is a package of its own, not part of runtime/codec, so that the JSON
// tree can use it without linking the codec (its time, base64 and
// formatting dependencies, and an API that changes with the generator),
// and so that it stays a leaf: it imports nothing but unicode/utf8, and
// never encoding/json.
//
// The functions work on a []byte and an offset and return the offset
// where they stopped, so that callers keep their own position, depth and
// error types. A scanning function that fails returns the offset of the
// offending byte and a fixed message saying what is wrong there; messages
// never quote the input, which may hold secrets or text meant to steer a
// model.
//
// The reader is strict RFC 8259: strings must be valid UTF-8, both as raw
// bytes and as \u escapes (a lone surrogate escape is refused, where
// encoding/json would substitute U+FFFD). The escaper follows
// encoding/json: invalid UTF-8 becomes \ufffd, U+2028 and U+2029 are
// always escaped, and AppendStringHTML also escapes '<', '>' and '&'.
package jsonlex
