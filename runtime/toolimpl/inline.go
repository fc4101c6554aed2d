package toolimpl

// The compiler inlines a method of a type defined in another package only
// where it has the method's body: in the export data of a package its
// caller's package imports (golang/go#74783). Generated code imports this
// package, not runtime/codec, where Encoder and Decoder are defined, and
// through the aliases alone none of their small methods was inlined in
// generated code. Each function below is small enough to be inlined
// itself, so that this package's export data carries its body and the
// bodies of the methods it calls, one or two of those generated code
// calls most: the generated code's calls of them are then inlined too
// (TestGeneratedCallsInlined). Nothing calls these functions.

func inlineRawKey(e *Encoder)                       { e.RawKey(`"":`) }
func inlineRawMember(e *Encoder)                    { e.RawMember(`,"":`) }
func inlineObjectStart(e *Encoder)                  { e.ObjectStart() }
func inlineObjectEnd(e *Encoder)                    { e.ObjectEnd() }
func inlineArrayStart(e *Encoder)                   { e.ArrayStart() }
func inlineArrayEnd(e *Encoder)                     { e.ArrayEnd() }
func inlineRawText(e *Encoder)                      { e.RawText("") }
func inlineFail(e *Encoder, err error)              { e.Fail(err) }
func inlinePop(d *Decoder)                          { d.Pop() }
func inlineMember(d *Decoder) bool                  { return d.Member("", false) }
func inlinePushIndex(d *Decoder, i int)             { d.PushIndex(i) }
func inlinePushKey(d *Decoder)                      { d.PushKey() }
func inlineUnknown(d *Decoder, key []byte)          { d.Unknown(key) }
func inlineErr(d *Decoder) error                    { return d.Err() }
func inlineKeyString(d *Decoder, key []byte) string { return d.KeyString(key) }
