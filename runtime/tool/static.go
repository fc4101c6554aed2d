package tool

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"sync"

	"github.com/toolgen-go/toolgen/runtime/codec"
)

// DefaultMaxOutputBytes is the output cap of a Static built without
// WithMaxOutputBytes: 1 MiB.
const DefaultMaxOutputBytes = 1 << 20

// Output says what a dispatched call wrote to its encoder.
type Output uint8

const (
	// OutputText: the encoder holds plain text; Result.Content is the text.
	OutputText Output = iota + 1
	// OutputJSON: the encoder holds JSON text that has no output schema.
	OutputJSON
	// OutputStructured: the encoder holds a JSON object matching the tool's
	// OutputSchema; Result.Structured is set.
	OutputStructured
)

// String returns "text", "json" or "structured", or "Output(N)".
func (o Output) String() string {
	switch o {
	case OutputText:
		return "text"
	case OutputJSON:
		return "json"
	case OutputStructured:
		return "structured"
	}
	return "Output(" + strconv.Itoa(int(o)) + ")"
}

// Mode says how far a dispatched call goes.
type Mode uint8

const (
	// ModeCall decodes the arguments, runs the tool and encodes its output.
	ModeCall Mode = iota + 1
	// ModeCheck decodes and validates the arguments only; it runs nothing
	// and writes nothing.
	ModeCheck
	// ModeLog decodes the arguments and, for a tool with a LogArgs method
	// (Spec.LogsArgs), encodes what LogArgs returns as a JSON string and
	// returns OutputText; it runs nothing. A tool without LogArgs writes
	// nothing and returns 0.
	ModeLog
)

// String returns "call", "check" or "log", or "Mode(N)".
func (m Mode) String() string {
	switch m {
	case ModeCall:
		return "call"
	case ModeCheck:
		return "check"
	case ModeLog:
		return "log"
	}
	return "Mode(" + strconv.Itoa(int(m)) + ")"
}

// Dispatch is a dispatch by name, for a Static built by NewStatic: a switch
// on name that decodes the arguments from in (already Reset by Static with
// the call's arguments and limits) and, in ModeCall, runs the tool and
// encodes its output to out (already Reset). Decoding failures are
// returned through InvalidArguments; the tool's own error is returned as
// is. In ModeCheck the Output is ignored.
type Dispatch func(ctx context.Context, name string, mode Mode, in *codec.Decoder, out *codec.Encoder) (Output, error)

// TableDispatch is generated, for a Static built by NewStaticTable: a
// switch on i, the index in the table of the tool to run (a constant per
// tool), which does what a Dispatch does. Static calls it only with the
// index of a tool the table holds and the registry serves.
type TableDispatch func(ctx context.Context, i int, mode Mode, in *codec.Decoder, out *codec.Encoder) (Output, error)

// TableOffered is generated, for a Static built by NewStaticTable: a
// switch on i, the index in the table of a tool whose Spec.DecidesOffer is
// set, that returns what the tool's Offered method returns for ctx.
type TableOffered func(ctx context.Context, i int) bool

// options holds what Option values set.
type options struct {
	limits       codec.Limits
	maxOutput    int
	maxAbandoned int
	offered      TableOffered
}

// Option configures a Static.
type Option func(*options)

// WithLimits sets the limits every call's arguments are decoded under; the
// zero Limits means the codec's defaults.
func WithLimits(lim codec.Limits) Option {
	return func(o *options) { o.limits = lim }
}

// WithMaxOutputBytes caps the size of a call's output; n must be positive.
// A larger output fails with CodeOutputTooLarge. The default is
// DefaultMaxOutputBytes.
func WithMaxOutputBytes(n int) Option {
	return func(o *options) { o.maxOutput = n }
}

// WithMaxAbandoned sets how many abandoned runs of one tool (runs that
// outlived their call's context, see Runner) may go on running before
// calls of that tool are refused with CodeBusy; n must not be negative,
// and 0 means DefaultMaxAbandoned.
func WithMaxAbandoned(n int) Option {
	return func(o *options) { o.maxAbandoned = n }
}

// WithOffered sets the function that asks a tool whose Spec.DecidesOffer
// is set whether it is offered: what a generated package passes when a
// tool has an Offered method. Without it such tools are always offered.
func WithOffered(f TableOffered) Option {
	return func(o *options) { o.offered = f }
}

// codecs is one call: the decoder and encoder it uses, pooled per Static,
// and what its dispatch needs. It is the Job the Static's Runner runs: an
// abandoned run keeps it until it ends, then gives it back to the pool.
type codecs struct {
	s      *Static
	i      int
	mode   Mode
	args   []byte // the call's arguments
	output Output // what the dispatch returned
	in     *codec.Decoder
	out    *codec.Encoder
	// own is the encoder's own memory while it appends to a caller's
	// buffer (AppendCall); release gives it back.
	own      []byte
	appended bool
}

// Run decodes the arguments and dispatches the tool, on the Runner's
// goroutine.
func (c *codecs) Run(ctx context.Context) error {
	s, args := c.s, c.args
	if len(args) == 0 {
		args = s.emptyArgs
	}
	c.in.Reset(args, s.opts.limits)
	var err error
	c.output, err = s.dispatch(ctx, s.id(c.i), c.mode, c.in, c.out)
	if err != nil {
		return ReturnedError(s.specs[c.i].Name, err)
	}
	return nil
}

// ReturnedError maps the error a tool's own code returned (the generated
// dispatch's, or a toolkit's call): a *Error whose code is
// reserved to the runtime (Code.Reserved) can only have come from the
// tool, which has then failed ("the tool failed", CodeFailed, the error
// kept as the cause); any other error passes through. name is the tool's.
func ReturnedError(name string, err error) error {
	var te *Error
	if !errors.As(err, &te) || !te.Code.Reserved() {
		return err
	}
	return &Error{
		Code:    CodeFailed,
		Tool:    name,
		Message: "the tool failed",
		Cause:   fmt.Errorf("tool %s returned an error with the code %s, which is reserved to the runtime: %w", name, te.Code, err),
	}
}

// Abandoned gives the codecs of an abandoned run back to the pool once it
// has ended, unless it panicked (they may then be in any state: they are
// left to the collector).
func (c *codecs) Abandoned(healthy bool) {
	if healthy {
		c.s.release(c)
	}
}

// start prepares pooled codecs for a call of s.specs[i] that Run runs:
// the encoder appends to dst when appendTo and the run cannot be abandoned
// (otherwise an abandoned run could write into dst after the call
// returned). The arguments are not copied: an abandoned run may read them
// while it decodes (see Call).
func (s *Static) start(ctx context.Context, i int, mode Mode, args, dst []byte, appendTo bool) (c *codecs, direct bool) {
	c = s.pool.Get().(*codecs)
	c.i, c.mode = i, mode
	mayAbandon := mode == ModeCall && s.specs[i].Timeout > 0 || ctx.Done() != nil
	direct = appendTo && !mayAbandon
	if direct {
		c.own, c.appended = c.out.Bytes()[:0], true
		c.out.ResetAppend(dst)
	} else {
		c.out.Reset()
	}
	c.args = args
	return c, direct
}

// Static is the Registry a generated package builds: a fixed, sorted set of
// specs and the generated Dispatch that runs them. It is safe for
// concurrent use and must not be copied.
type Static struct {
	specs []Spec
	// ids holds the table index of each of specs, for the dispatch; nil
	// when specs is the whole table (the index is the position).
	ids       []int32
	tools     []*Spec
	dispatch  TableDispatch
	runner    *Runner // runs every call; its tool index is the position in specs
	opts      options
	pool      sync.Pool // of *codecs
	emptyArgs []byte
}

var (
	_ Registry = (*Static)(nil)
	_ Caller   = (*Static)(nil)
)

// NewStatic returns the Registry serving specs through dispatch, a switch
// on the tool's name (generated packages use NewStaticTable). The specs
// must have non-empty names, sorted by byte-wise string comparison and
// unique, and valid kinds: NewStatic refuses anything else rather than
// serve a registry whose Lookup would miss tools. NewStatic keeps specs as
// they are, without a copy: neither they nor what they hold may be
// modified afterwards.
func NewStatic(specs []Spec, dispatch Dispatch, opts ...Option) (*Static, error) {
	if dispatch == nil {
		return nil, errors.New("new static tool registry: nil dispatch")
	}
	return newStatic(specs, nil, func(ctx context.Context, i int, mode Mode, in *codec.Decoder, out *codec.Encoder) (Output, error) {
		return dispatch(ctx, specs[i].Name, mode, in, out)
	}, opts)
}

// NewStaticTable returns the Registry serving the tools of table through
// dispatch, a switch on a tool's index in table: what a generated package
// builds from its static table. The tools whose off is true are left out
// (neither listed nor callable); off may be nil or shorter than table
// (the tools past its end are served). The table must satisfy what
// NewStatic requires of its specs, and it is kept as it is, without a
// copy, when off leaves no tool out: neither it nor what it holds may be
// modified afterwards.
func NewStaticTable(table []Spec, off []bool, dispatch TableDispatch, opts ...Option) (*Static, error) {
	if dispatch == nil {
		return nil, errors.New("new static tool registry: nil dispatch")
	}
	return newStatic(table, off, dispatch, opts)
}

// newStatic is NewStatic and NewStaticTable.
func newStatic(table []Spec, off []bool, dispatch TableDispatch, opts []Option) (*Static, error) {
	o := options{maxOutput: DefaultMaxOutputBytes}
	for _, opt := range opts {
		opt(&o)
	}
	if o.maxOutput <= 0 {
		return nil, fmt.Errorf("new static tool registry: max output bytes must be positive, got %d", o.maxOutput)
	}
	if o.limits.MaxBytes < 0 || o.limits.MaxDepth < 0 {
		return nil, fmt.Errorf("new static tool registry: negative limits %+v", o.limits)
	}
	if o.maxAbandoned < 0 {
		return nil, fmt.Errorf("new static tool registry: max abandoned runs must not be negative, got %d", o.maxAbandoned)
	}
	if err := validate(table); err != nil {
		return nil, err
	}
	s := &Static{
		specs:     table,
		dispatch:  dispatch,
		opts:      o,
		emptyArgs: []byte("{}"),
	}
	if slices.Contains(off, true) {
		s.specs = make([]Spec, 0, len(table))
		s.ids = make([]int32, 0, len(table))
		for i := range table {
			if i >= len(off) || !off[i] {
				s.specs = append(s.specs, table[i])
				s.ids = append(s.ids, int32(i))
			}
		}
	}
	s.tools = make([]*Spec, len(s.specs))
	for i := range s.specs {
		s.tools[i] = &s.specs[i]
	}
	runner, err := NewRunner(len(s.specs), o.maxAbandoned)
	if err != nil {
		return nil, fmt.Errorf("new static tool registry: %w", err)
	}
	s.runner = runner
	s.pool.New = func() any {
		out := codec.NewEncoder()
		out.SetLimit(s.opts.maxOutput)
		return &codecs{s: s, in: codec.NewDecoder(), out: out}
	}
	return s, nil
}

// validate reports specs that are not as NewStatic requires.
func validate(specs []Spec) error {
	if len(specs) > math.MaxInt32 {
		return fmt.Errorf("new static tool registry: %d specs, more than %d", len(specs), math.MaxInt32)
	}
	for i := range specs {
		sp := &specs[i]
		switch {
		case sp.Name == "":
			return fmt.Errorf("new static tool registry: spec %d (type %s) has no name", i, sp.Type)
		case !sp.Kind.valid():
			return fmt.Errorf("new static tool registry: tool %q has invalid kind %s", sp.Name, sp.Kind)
		case i == 0:
		case specs[i-1].Name == sp.Name:
			return fmt.Errorf("new static tool registry: duplicate tool name %q", sp.Name)
		case specs[i-1].Name > sp.Name:
			return fmt.Errorf("new static tool registry: specs not sorted by name: %q before %q", specs[i-1].Name, sp.Name)
		}
	}
	return nil
}

// Tools returns every tool sorted by name. The slice and the specs are
// shared: callers must not modify them.
func (s *Static) Tools() []*Spec { return s.tools }

// Lookup returns the tool with the given name, by binary search (written
// out: on the call path, slices.BinarySearchFunc's comparison through a
// function value cost more than the search).
func (s *Static) Lookup(name string) (*Spec, bool) {
	if i := s.find(name); i >= 0 {
		return &s.specs[i], true
	}
	return nil, false
}

// find returns the position in s.specs of the tool with the given name, or
// -1.
func (s *Static) find(name string) int {
	i, j := 0, len(s.specs)
	for i < j {
		h := int(uint(i+j) >> 1)
		if s.specs[h].Name < name {
			i = h + 1
		} else {
			j = h
		}
	}
	if i < len(s.specs) && s.specs[i].Name == name {
		return i
	}
	return -1
}

// id returns the table index of s.specs[i], which the dispatch switches on.
func (s *Static) id(i int) int {
	if s.ids == nil {
		return i
	}
	return int(s.ids[i])
}

// Call runs the named tool with JSON arguments (empty arguments mean {}).
//
// It never panics. On success the Result holds a copy of the tool's output
// and the error is nil. On every failure it returns a *Error and a Result
// with IsError set and Content holding the Error's Message, which is safe
// to send to the model: an unknown name (with suggestions), invalid
// arguments (every problem listed), a propose tool (validated, not run:
// CodeNeedsConfirmation), a tool error (its *ModelError message, else "the
// tool failed"), a panic, runtime.Goexit, a context done before the run
// (nothing is run), a timeout (Spec.Timeout) or the context done while the
// tool runs, too many abandoned runs of the tool (CodeBusy), an output
// over the cap.
//
// Every call runs through the Static's Runner, on a goroutine of its own,
// and returns once the tool returns or the context is done, whichever
// comes first: a tool that ignores its context is abandoned (its error
// wraps ErrAbandoned), goes on running, and its result is discarded. Such
// a run may still read args while it decodes them, before its tool
// starts: a caller that reuses argument buffers must not reuse args after
// an error that wraps ErrAbandoned (the MCP server's arguments are fresh
// per request).
func (s *Static) Call(ctx context.Context, name string, args []byte) (Result, error) {
	return s.call(ctx, name, args, nil, false)
}

// AppendCall is Call with the Result's Content appended to dst: the
// output is encoded straight into dst's spare capacity (growing it as
// append does), with no copy, and on failure the error's Message is
// appended instead. Content is dst extended, so a caller that reuses one
// buffer across calls, as AppendCall(ctx, buf[:0], ...), pays for no
// allocation of the output once the buffer has grown. The bytes of dst
// before len(dst) are never changed. A run that could be abandoned (a
// context that can be done, or a Spec.Timeout) encodes into the Static's
// own memory instead, copied into dst when the run ends in time, so that
// an abandoned run never writes into dst.
func (s *Static) AppendCall(ctx context.Context, dst []byte, name string, args []byte) (Result, error) {
	return s.call(ctx, name, args, dst, true)
}

// call is Call and AppendCall: with appendTo, the output is encoded into
// dst; without, it is copied out of the pooled encoder.
func (s *Static) call(ctx context.Context, name string, args, dst []byte, appendTo bool) (Result, error) {
	i := s.find(name)
	if i < 0 {
		return failure(dst, unknownTool(s.tools, name))
	}
	spec := &s.specs[i]
	if spec.Kind == KindPropose {
		if e := s.check(ctx, i, args); e != nil {
			return failure(dst, e)
		}
		return failure(dst, &Error{
			Code:    CodeNeedsConfirmation,
			Tool:    spec.Name,
			Message: "tool " + spec.Name + " needs a person's confirmation; nothing was run",
		})
	}
	return s.run(ctx, i, args, dst, appendTo)
}

// RunProposed runs the named tool whatever its kind, propose included, and
// returns what Call returns for the other kinds. It is the one way a
// propose tool runs: the call service calls it once a person has confirmed
// the proposal, with the arguments that were proposed. Nothing else should
// call it.
func (s *Static) RunProposed(ctx context.Context, name string, args []byte) (Result, error) {
	i := s.find(name)
	if i < 0 {
		return failure(nil, unknownTool(s.tools, name))
	}
	return s.run(ctx, i, args, nil, false)
}

// Offer returns the tools offered to the caller ctx carries: every tool,
// less those whose own Offered method declines (Spec.DecidesOffer). It
// returns Tools itself, without allocating, when no tool declines; the
// slice and the specs are shared: callers must not modify them. The bare
// registry applies no policy and checks no permission: that is the call
// service's work.
func (s *Static) Offer(ctx context.Context) []*Spec {
	if s.opts.offered == nil {
		return s.tools
	}
	var out []*Spec
	for i := range s.specs {
		if s.SelfOffered(ctx, i) {
			if out != nil {
				out = append(out, &s.specs[i])
			}
			continue
		}
		if out == nil {
			out = make([]*Spec, i, len(s.specs)-1)
			copy(out, s.tools[:i])
		}
	}
	if out == nil {
		return s.tools
	}
	return out
}

// SelfOffered reports whether the tool at position i of Tools offers itself
// to the caller ctx carries: what its Offered method returns, or true
// when it has none (Spec.DecidesOffer unset). A panic in Offered counts as
// declining.
func (s *Static) SelfOffered(ctx context.Context, i int) (ok bool) {
	if !s.specs[i].DecidesOffer || s.opts.offered == nil {
		return true
	}
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return s.opts.offered(ctx, s.id(i))
}

// LogArgs decodes the arguments of the named tool and returns the form of
// them its LogArgs method gives (Spec.LogsArgs), as a JSON string, with
// own set; for a tool without LogArgs it returns nil and false, and
// decodes nothing. It runs nothing else of the tool and fails as Check
// does, and with CodeOutputTooLarge when the form exceeds the registry's
// output cap.
func (s *Static) LogArgs(ctx context.Context, name string, args []byte) (form []byte, own bool, err error) {
	i := s.find(name)
	if i < 0 {
		return nil, false, unknownTool(s.tools, name)
	}
	if !s.specs[i].LogsArgs {
		return nil, false, nil
	}
	spec := &s.specs[i]
	c, _ := s.start(ctx, i, ModeLog, args, nil, false)
	ended, runErr := s.runner.Run(ctx, i, spec.Name, 0, c)
	switch {
	case ended == Abandoned || ended == Crashed:
		return nil, false, ErrorOf(spec.Name, runErr)
	case runErr != nil:
		s.release(c)
		return nil, false, ErrorOf(spec.Name, runErr)
	}
	switch {
	case c.out.TooLarge():
		// The encoder dropped the form when it passed the cap: Bytes is
		// empty, which is no JSON string.
		s.release(c)
		return nil, false, &Error{
			Code:    CodeOutputTooLarge,
			Tool:    spec.Name,
			Message: "the log form of the tool's arguments exceeds " + strconv.Itoa(s.opts.maxOutput) + " bytes",
			Cause:   fmt.Errorf("log form of tool %s: more than the cap of %d bytes", spec.Name, s.opts.maxOutput),
		}
	case c.out.Err() != nil:
		err := c.out.Err()
		s.release(c)
		return nil, false, &Error{Code: CodeFailed, Tool: spec.Name, Message: "the tool failed",
			Cause: fmt.Errorf("log form of tool %s: %w", spec.Name, err)}
	case c.output != OutputText || c.out.Len() == 0:
		s.release(c)
		return nil, false, &Error{Code: CodeFailed, Tool: spec.Name, Message: "the tool failed",
			Cause: fmt.Errorf("log form of tool %s: dispatch returned %s and %d bytes, not a JSON string", spec.Name, c.output, c.out.Len())}
	}
	form = bytes.Clone(c.out.Bytes())
	s.release(c)
	return form, true, nil
}

// UnknownTool returns the error Call reports for a name no tool of offered
// has: the registry's correctable message, with close names among offered
// suggested. The call service reports every tool it does not offer with
// it, so that a refusal reads as the registry's.
func UnknownTool(offered []*Spec, name string) *Error { return unknownTool(offered, name) }

// Check validates the arguments of the named tool (ModeCheck) and runs
// nothing, whatever the tool's kind. It returns nil or a *Error, as Call
// would report it.
func (s *Static) Check(ctx context.Context, name string, args []byte) error {
	i := s.find(name)
	if i < 0 {
		return unknownTool(s.tools, name)
	}
	if e := s.check(ctx, i, args); e != nil {
		return e
	}
	return nil
}

// failure returns e as Call (dst nil) and AppendCall report it: a Result
// the model can be sent, its Message appended to dst, and the error itself.
func failure(dst []byte, e *Error) (Result, error) {
	return Result{Content: append(dst, e.Message...), IsError: true}, e
}

// timeoutCause marks a context that expired because of Spec.Timeout.
type timeoutCause struct{ tool string }

// Error says which tool's timeout passed.
func (c *timeoutCause) Error() string { return "timeout of tool " + c.tool + " passed" }

// run runs s.specs[i], a tool that may run (every kind but propose),
// through the Runner.
func (s *Static) run(ctx context.Context, i int, args, dst []byte, appendTo bool) (Result, error) {
	spec := &s.specs[i]
	c, direct := s.start(ctx, i, ModeCall, args, dst, appendTo)
	ended, err := s.runner.Run(ctx, i, spec.Name, spec.Timeout, c)
	switch ended {
	case Abandoned, Crashed:
		// The run keeps the codecs (Abandoned gives them back), or they
		// may be in any state: leave them to the collector.
		return failure(dst, ErrorOf(spec.Name, err))
	}
	if err != nil {
		s.release(c)
		return failure(dst, ErrorOf(spec.Name, err))
	}
	if c.out.TooLarge() {
		// The encoder stopped at the cap: its memory is about the cap's.
		s.release(c)
		return failure(dst, &Error{
			Code:    CodeOutputTooLarge,
			Tool:    spec.Name,
			Message: "the tool's output exceeds " + strconv.Itoa(s.opts.maxOutput) + " bytes",
			Cause:   fmt.Errorf("tool %s wrote more than the cap of %d bytes of output", spec.Name, s.opts.maxOutput),
		})
	}
	if err := c.out.Err(); err != nil {
		s.release(c)
		return failure(dst, &Error{
			Code:    CodeFailed,
			Tool:    spec.Name,
			Message: "the tool failed",
			Cause:   fmt.Errorf("encode output of tool %s: %w", spec.Name, err),
		})
	}
	if c.output < OutputText || c.output > OutputStructured {
		s.release(c)
		return failure(dst, &Error{
			Code:    CodeFailed,
			Tool:    spec.Name,
			Message: "the tool failed",
			Cause:   fmt.Errorf("dispatch of tool %s returned invalid %s", spec.Name, c.output),
		})
	}
	res := Result{Content: c.out.Bytes(), Structured: c.output == OutputStructured}
	switch {
	case direct:
	case appendTo:
		res.Content = append(dst, res.Content...)
	default:
		res.Content = bytes.Clone(res.Content)
	}
	s.release(c)
	return res, nil
}

// check decodes the arguments of s.specs[i] in ModeCheck, through the
// Runner; it returns nil or the failure as Call reports it. Spec.Timeout
// bounds what the tool does, not a check (decoding is bounded by the
// limits; the caller's context still applies).
func (s *Static) check(ctx context.Context, i int, args []byte) *Error {
	spec := &s.specs[i]
	c, _ := s.start(ctx, i, ModeCheck, args, nil, false)
	ended, err := s.runner.Run(ctx, i, spec.Name, 0, c)
	switch {
	case ended == Abandoned || ended == Crashed:
		return ErrorOf(spec.Name, err)
	case err != nil:
		s.release(c)
		return ErrorOf(spec.Name, err)
	}
	s.release(c)
	return nil
}

// release returns healthy codecs to the pool, without a reference to the
// call's arguments or to a caller's buffer.
func (s *Static) release(c *codecs) {
	c.in.Reset(s.emptyArgs, s.opts.limits)
	if c.appended {
		c.out.ResetAppend(c.own)
		c.own, c.appended = nil, false
	}
	c.args = nil
	s.pool.Put(c)
}

// passesThrough reports whether err carries a *Error, which Call reports as
// is rather than as a timeout or a tool failure.
func passesThrough(err error) bool {
	var te *Error
	return errors.As(err, &te)
}

// ErrorOf maps the error of a call of the named tool to the *Error its
// caller reports: a *Error passes through with Tool filled in, a
// *ModelError gives its Message (CodeFailed), anything else is "the tool
// failed" (CodeFailed) with the error kept as the cause. Registry.Call
// reports its failures so, and so does a dynamic tool's call.
func ErrorOf(name string, err error) *Error {
	var te *Error
	if errors.As(err, &te) {
		e := *te
		e.Tool = name
		return &e
	}
	var me *ModelError
	if errors.As(err, &me) {
		return &Error{Code: CodeFailed, Tool: name, Message: me.Message, Cause: err}
	}
	return &Error{Code: CodeFailed, Tool: name, Message: "the tool failed", Cause: err}
}

// PanicError is the Cause of a CodePanic *Error: the value a tool, its
// decoder or its encoder panicked with, and the stack where it did.
type PanicError struct {
	// Value is the value passed to panic.
	Value any
	// Stack is the goroutine's stack at the recovery, as debug.Stack
	// formats it.
	Stack []byte
}

// Error returns the panic value and the stack, for logs.
func (e *PanicError) Error() string {
	return fmt.Sprintf("panic: %v\n\n%s", e.Value, e.Stack)
}

// Unwrap returns the panic value when it is an error (a runtime.Error, say).
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}
