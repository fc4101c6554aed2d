package console

// AppMetaKeys returns the tool.Meta keys the catalog reads of an app, for
// the test that they are runtime/mcpserver's.
func AppMetaKeys() []string { return []string{metaUI, metaUIResource, metaUIHTML} }
