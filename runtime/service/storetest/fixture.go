package storetest

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/toolgen-go/toolgen/runtime/codec"
	"github.com/toolgen-go/toolgen/runtime/service"
	"github.com/toolgen-go/toolgen/runtime/tool"
	"github.com/toolgen-go/toolgen/runtime/toolimpl"
)

// The fixture's tools, in name order: act (an action), echo (a read) and
// notes_delete (a propose tool). act and notes_delete count their runs
// themselves, as a line each in a file that every instance and process
// of a test shares; with "block":true they print "running" and never
// return, so that the test can kill their process mid-run.
const (
	tAct = iota
	tEcho
	tNotesDelete
)

func fixtureSpecs() []*tool.Spec {
	return []*tool.Spec{
		tAct:         {Name: "act", Kind: tool.KindAction},
		tEcho:        {Name: "echo", Kind: tool.KindRead, ReadOnly: true},
		tNotesDelete: {Name: "notes_delete", Kind: tool.KindPropose, Title: "Delete note"},
	}
}

// fixture runs the tools, appending each run of act and notes_delete to
// runs.
type fixture struct{ runs string }

// fixtureArgs are the tools' arguments: {"id", "text", "block", "fail"}.
// act with "fail":true fails with a message quoting the text.
type fixtureArgs struct {
	id          int64
	text        string
	block, fail bool
}

func decodeArgs(in *codec.Decoder) fixtureArgs {
	var a fixtureArgs
	if !in.Object("object") {
		in.End()
		return a
	}
	for {
		key, ok := in.Key()
		if !ok {
			break
		}
		switch string(key) {
		case "id":
			in.Push("id")
			a.id, _ = in.Int("integer", 64)
			in.Pop()
		case "text":
			in.Push("text")
			a.text, _ = in.String("string")
			in.Pop()
		case "block":
			in.Push("block")
			a.block, _ = in.Bool("boolean")
			in.Pop()
		case "fail":
			in.Push("fail")
			a.fail, _ = in.Bool("boolean")
			in.Pop()
		default:
			in.Unknown(key)
		}
	}
	in.End()
	return a
}

func (f *fixture) dispatch(ctx context.Context, i int, mode toolimpl.Mode, in *codec.Decoder, out *codec.Encoder) (toolimpl.Output, error) {
	a := decodeArgs(in)
	if err := toolimpl.InvalidArguments(in.Err()); err != nil {
		return 0, err
	}
	if mode != toolimpl.ModeCall {
		return 0, nil
	}
	inv, _ := tool.InvocationFrom(ctx)
	switch i {
	case tEcho:
		out.RawText("echo " + a.text)
		return toolimpl.OutputText, nil
	case tAct:
		f.ran("act " + inv.CallID + " " + a.text)
		if a.fail {
			return 0, &tool.ModelError{Message: "cannot act on " + a.text}
		}
		out.RawText("acted " + a.text + " for " + inv.Principal.ID)
	case tNotesDelete:
		f.ran("notes_delete " + strconv.FormatInt(a.id, 10))
		out.RawText("deleted " + strconv.FormatInt(a.id, 10) + " for " + inv.Principal.ID)
	}
	if a.block {
		fmt.Println(linePrefix + "running")
		for { // until the process is killed (a sleep, not select{}, which the runtime could call a deadlock)
			time.Sleep(time.Hour)
		}
	}
	return toolimpl.OutputText, nil
}

// ran appends a run to the runs file (if any): O_APPEND makes each line
// whole across processes.
func (f *fixture) ran(line string) {
	if f.runs == "" {
		return
	}
	fd, err := os.OpenFile(f.runs, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		panic(err)
	}
	defer fd.Close()
	if _, err := fd.WriteString(line + "\n"); err != nil {
		panic(err)
	}
}

// newRegistry returns the fixture's registry, counting runs in the file
// runs.
func newRegistry(runs string) (tool.Registry, error) {
	f := &fixture{runs: runs}
	return toolimpl.NewRegistry(fixtureSpecs(), nil, f.dispatch, nil)
}

// runLines returns the runs recorded in the file runs.
func runLines(t testing.TB, runs string) []string {
	t.Helper()
	b, err := os.ReadFile(runs)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// alice proposes and confirms.
var alice = tool.Principal{ID: "alice"}

// as returns a context calling as alice in conversation c1 with the call
// ID.
func as(callID string) context.Context {
	return tool.WithInvocation(context.Background(), &tool.Invocation{Principal: alice, Conversation: "c1", Turn: "t1", CallID: callID})
}

// newService returns a service over st running the fixture's tools.
func newService(st service.Store, lim service.Limiter, runs string) (*service.Service, error) {
	reg, err := newRegistry(runs)
	if err != nil {
		return nil, err
	}
	return service.New(reg, &service.Options{Store: st, Limiter: lim})
}
