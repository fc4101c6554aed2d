package codec

import (
	"slices"
	"strconv"
	"strings"

	"github.com/toolgen-go/toolgen/runtime/jsonlex"
)

// Limits bound what a Decoder accepts. Zero fields mean the defaults.
type Limits struct {
	// MaxBytes is the largest accepted input, in bytes (DefaultMaxBytes
	// when zero or negative).
	MaxBytes int
	// MaxDepth is the deepest accepted nesting of objects and arrays
	// (DefaultMaxDepth when zero or negative).
	MaxDepth int
}

// DefaultMaxBytes is the input size limit when Limits.MaxBytes is zero:
// 1 MiB of arguments.
const DefaultMaxBytes = 1 << 20

// DefaultMaxDepth is the nesting limit when Limits.MaxDepth is zero.
const DefaultMaxDepth = 64

// pathToken is one reference token of the current JSON Pointer: a member
// name, an array index, or a map key given by its position (index, with
// isKey).
type pathToken struct {
	name    string
	index   int
	isIndex bool
	isKey   bool
}

// frame is one open object or array inside a value being skipped.
type frame struct {
	object bool
	index  int                 // array: index of the current element
	names  int                 // object: where its names start in Decoder.nameEnds
	set    map[string]struct{} // object with many names, when refusing duplicates
}

// Decoder reads one JSON text. It is reused through Reset; it is not safe
// for concurrent use.
//
// Every read method skips leading whitespace, so generated code never
// deals with it. Reads after a fatal problem do nothing and return zero
// values and false.
type Decoder struct {
	data     []byte
	pos      int
	depth    int
	maxDepth int
	first    bool // the last token was '{' or '[': no ',' before the next member or element
	fatal    bool
	noPaths  bool // SkipPaths: Push, PushKey and PushIndex do nothing

	problems []Problem
	omitted  int
	path     []pathToken
	ptr      []byte // scratch for building pointers

	scratch  []byte          // unescaped strings
	block    strings.Builder // where String carves strings from; see makeString
	frames   []frame         // open containers while skipping
	names    []byte          // member names of the open objects while refusing duplicates
	nameEnds []int           // end of each name in names
	keys     []int           // position of the member Key last read, in each object Object opened
}

// NewDecoder returns a Decoder with no input; call Reset before reading.
func NewDecoder() *Decoder {
	d := &Decoder{}
	d.Reset(nil, Limits{})
	return d
}

// Reset makes d read data within the limits lim, forgetting all problems
// and the path. Input larger than lim.MaxBytes, and input that is empty or
// only whitespace, is a fatal problem at once.
func (d *Decoder) Reset(data []byte, lim Limits) {
	maxBytes := lim.MaxBytes
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	d.maxDepth = lim.MaxDepth
	if d.maxDepth <= 0 {
		d.maxDepth = DefaultMaxDepth
	}
	d.data = data
	if d.block.Cap() > 0 {
		// Strings of the last input alias it: never reuse it. (Cleared
		// only when used: a store of its pointers costs a write barrier
		// while the collector runs.)
		d.block = strings.Builder{}
	}
	d.pos = 0
	d.depth = 0
	d.first = false
	d.fatal = false
	d.noPaths = false
	clear(d.problems)
	d.problems = d.problems[:0]
	d.omitted = 0
	clear(d.path)
	d.path = d.path[:0]
	d.keys = d.keys[:0]
	if len(data) > maxBytes {
		d.data = nil
		d.fatalProblem("arguments are larger than " + strconv.Itoa(maxBytes) + " bytes")
		return
	}
	if i := jsonlex.SkipSpace(data, 0); i == len(data) {
		d.syntaxError(i, "expected a JSON value, got end of input")
	}
}

// Forget drops d's references to the input and to the block its strings
// were made in, keeping its own memory and its problems: a decoder kept
// for later (in a pool) keeps no caller's bytes alive. Call Reset before
// reading again.
func (d *Decoder) Forget() {
	d.data = nil
	if d.block.Cap() > 0 {
		d.block = strings.Builder{}
	}
}

// Failed reports whether a fatal problem (malformed JSON, input too large,
// nesting too deep) happened.
func (d *Decoder) Failed() bool { return d.fatal }

// Err returns nil when no problem was recorded since Reset, and otherwise an
// *ArgumentsError listing them in the order found.
func (d *Decoder) Err() error {
	if len(d.problems) == 0 && d.omitted == 0 {
		return nil
	}
	return d.argumentsError()
}

// argumentsError is Err when a problem was recorded. It is never inlined:
// every generated call function inlines Err, and would otherwise compile
// this rare path again.
//
//go:noinline
func (d *Decoder) argumentsError() error {
	return &ArgumentsError{Problems: slices.Clone(d.problems), Omitted: d.omitted}
}

// End checks that only whitespace follows the top-level value.
func (d *Decoder) End() {
	if d.fatal {
		return
	}
	if i := jsonlex.SkipSpace(d.data, d.pos); i < len(d.data) {
		d.pos = i
		d.fatalProblem("unexpected data after the top-level value")
	}
}

// Push appends a member name to the current path. d may keep name after
// Pop and Reset, until a later Push overwrites it: push constants, or
// names that may live as long as d.
func (d *Decoder) Push(name string) {
	if d.noPaths {
		return
	}
	d.path = append(d.path, pathToken{name: name})
}

// SkipPaths makes d keep no path until the next Reset: Push, PushKey and
// PushIndex do nothing, and the problems are recorded with the pointer of
// the top-level value, "", whatever their place. Call it right after
// Reset. Arguments are mostly valid, and a path is only needed to tell
// where a problem is: a caller that finds problems (Err not nil) decodes
// the same input again, after Reset, to get them with their pointers. The
// registry decodes every call's arguments so, saving a store of a token,
// with a write barrier while the collector runs, per member and element.
func (d *Decoder) SkipPaths() { d.noPaths = true }

// PushKey appends to the current path the key of a map's member that Key
// last read, as its position in the object (KeyToken): a key is text the
// model chose, so a message gives where it is, never what it says. The
// generated decoders push a map's keys with it, and property names with
// Member.
func (d *Decoder) PushKey() {
	if d.noPaths {
		return
	}
	d.path = append(d.path, pathToken{index: d.keyPosition(), isKey: true})
}

// keyPosition returns the position of the member Key last read in the
// innermost open object, from 0.
func (d *Decoder) keyPosition() int {
	if n := len(d.keys); n > 0 {
		return max(d.keys[n-1], 0)
	}
	return 0
}

// PushIndex appends an array index to the current path.
func (d *Decoder) PushIndex(i int) {
	if d.noPaths {
		return
	}
	d.path = append(d.path, pathToken{index: i, isIndex: true})
}

// Pop removes the last token of the current path. It leaves the token in
// the path's spare capacity rather than clear it: one store less per
// member, and no write barrier while the collector runs. The names the
// generated decoders push are constants, which nothing frees.
func (d *Decoder) Pop() {
	if n := len(d.path); n > 0 {
		d.path = d.path[:n-1]
	}
}

// Problem records msg at the current path. After a fatal problem it does
// nothing: the input was not read to the end, so checks are meaningless.
func (d *Decoder) Problem(msg string) {
	if d.room() {
		d.addProblem(d.pointer(), msg)
	}
}

// Missing records that the required property name of the object at the
// current path is missing.
func (d *Decoder) Missing(name string) {
	if d.room() {
		d.addProblem(d.pointerWith(name), "required property is missing")
	}
}

// Member begins the value of the property name of the object being read,
// pushing name on the path, and reports whether to decode it: a property
// read before (dup) is a problem, and its value is skipped. The caller pops
// the path after the value either way. One call per property keeps the
// decoders toolgen writes small; it is inlined, and makes no call for a
// first occurrence when d keeps no path (SkipPaths).
func (d *Decoder) Member(name string, dup bool) bool {
	if dup || !d.noPaths {
		return d.enter(name, dup)
	}
	return true
}

// enter is Member when a path is kept or the property is a duplicate.
func (d *Decoder) enter(name string, dup bool) bool {
	d.Push(name)
	if dup {
		d.duplicateValue()
		return false
	}
	return true
}

// duplicateValue records a duplicate property and skips its value.
func (d *Decoder) duplicateValue() {
	d.Duplicate()
	d.Skip()
}

// Duplicate records that the property at the current path occurs twice.
func (d *Decoder) Duplicate() {
	d.Problem("duplicate property")
}

// Unknown records that the object at the current path has a member name
// that is not allowed, then skips the member's value.
func (d *Decoder) Unknown(name []byte) {
	d.skipMember(name, "unknown property (additional properties are not allowed)")
}

// DuplicateMember records that the object at the current path (a map) has
// the member name, the one Key last read, twice, then skips the member's
// value. The problem is at the member's position (as PushKey gives it),
// not its name, which a message never repeats; making it costs no
// allocation until a problem is kept.
func (d *Decoder) DuplicateMember(name []byte) {
	_ = name // the position says where; the name is the model's text
	if d.room() {
		d.ptr = appendKeyToken(d.appendPath(d.ptr[:0]), d.keyPosition())
		d.addProblem(string(d.ptr), "duplicate property")
	}
	d.Skip()
}

// skipMember records msg at the member name of the object at the current
// path, then skips the member's value.
func (d *Decoder) skipMember(name []byte, msg string) {
	if d.room() {
		d.addProblem(d.pointerWith(string(name)), msg)
	}
	d.Skip()
}

// room reports whether a new non-fatal problem is to be recorded: not
// after a fatal one, and past MaxProblems only counted as omitted, so that
// callers build a problem's pointer only when it is kept. Every non-fatal
// problem goes through room, then addProblem.
func (d *Decoder) room() bool {
	if d.fatal {
		return false
	}
	if len(d.problems) >= MaxProblems {
		d.omitted++
		return false
	}
	return true
}

// addProblem records a non-fatal problem that room has let in.
func (d *Decoder) addProblem(ptr, msg string) {
	d.problems = append(d.problems, Problem{Pointer: ptr, Message: msg})
}

// problemCount counts the non-fatal problems recorded so far.
func (d *Decoder) problemCount() int { return len(d.problems) + d.omitted }

// fatalProblem records a problem that stops decoding.
func (d *Decoder) fatalProblem(msg string) {
	if d.fatal {
		return
	}
	d.fatal = true
	d.problems = append(d.problems, Problem{Pointer: d.pointer(), Message: msg})
}

// syntaxError records malformed JSON at byte offset at.
func (d *Decoder) syntaxError(at int, what string) {
	if d.fatal {
		return
	}
	d.pos = at
	d.fatalProblem("malformed JSON at byte " + strconv.Itoa(at) + ": " + what)
}

// appendPath appends the current path as a JSON Pointer.
func (d *Decoder) appendPath(b []byte) []byte {
	for _, t := range d.path {
		switch {
		case t.isIndex:
			b = append(b, '/')
			b = strconv.AppendInt(b, int64(t.index), 10)
		case t.isKey:
			b = appendKeyToken(b, t.index)
		default:
			b = appendPointerToken(b, t.name)
		}
	}
	return b
}

// pointer returns the current path as a JSON Pointer.
func (d *Decoder) pointer() string {
	d.ptr = d.appendPath(d.ptr[:0])
	return string(d.ptr)
}

// pointerWith returns the JSON Pointer of member name of the value at the
// current path.
func (d *Decoder) pointerWith(name string) string {
	d.ptr = appendPointerToken(d.appendPath(d.ptr[:0]), name)
	return string(d.ptr)
}
