// Package jsontree is an ordered JSON tree for toolgen and the code it
// generates: Parse reads JSON text into Nodes that keep the order of object
// members (so a schema's properties stay in struct field order), and
// Compact and Indent write it back, never going through a Go map. The
// provider projections (runtime/provider) rewrite published schemas with
// it at run time, and toolgen's generator post-processes and projects them
// with it at generation time.
//
//	root, err := jsontree.Parse(schema)
//	if err != nil {
//		return err
//	}
//	for _, m := range root.Get("properties").Members { // in the order written
//		fmt.Println(m.Key, m.Value.Get("type").Text)
//	}
//	out := root.Compact() // the same bytes for the same tree
//
// It is deliberately small: no encoding/json, no reflection, nothing of the
// generator. Its strings, numbers and literals are read and written by
// runtime/jsonlex, the text layer it shares with runtime/codec. Programs reach it through the provider packages; it is not
// meant as a general-purpose JSON library.
package jsontree
