// The second package doc comment describes the archive group again.
//
//tool:groupdoc archive Described a second time.
package groupdocs
