package notes

import (
	"context"
	"time"

	"github.com/toolgen-go/toolgen/runtime/tool"
)

// DefaultShareURL is what share links start with when ShareTool.BaseURL
// is empty.
const DefaultShareURL = "https://notes.example/s/"

// Makes a link that shares one note with whoever knows a passphrase, until
// it expires (after 24 hours unless told otherwise, at most a week). Ask the
// user for the passphrase: it is never shown again, so they must pass it on
// themselves.
//
//tool:name notes_share
//tool:kind action
//tool:title Share note
//tool:verb Sharing the note
//tool:permission notes.share
type ShareTool struct {
	Store *Store // the notes shared
	// BaseURL is what links start with, followed by the share's token;
	// empty means DefaultShareURL.
	BaseURL string
}

// ShareInput holds the arguments of notes_share.
type ShareInput struct {
	// The note's ID.
	ID NoteID `json:"id" jsonschema:"pattern=^n[1-9][0-9]*$"`
	// The passphrase that opens the link, chosen by the user.
	Passphrase string `json:"passphrase" jsonschema:"minLength=8,maxLength=200" toolgen:"secret"`
	// How long the link works, in hours; 24 when omitted.
	Hours int `json:"hours,omitempty" jsonschema:"minimum=1,maximum=168,default=24"`
}

// ShareOutput is the result of notes_share. It never holds the passphrase.
type ShareOutput struct {
	// The note's ID.
	ID NoteID `json:"id"`
	// The link to the shared note.
	URL string `json:"url"`
	// When the link stops working.
	Expires time.Time `json:"expires"`
}

// Offered offers notes_share to signed-in callers only: a share belongs
// to someone, and an anonymous caller (no principal in ctx, or one without
// an ID) cannot share.
func (t ShareTool) Offered(ctx context.Context) bool {
	_, ok := principalID(ctx)
	return ok
}

// Call makes the share. It refuses an anonymous caller too: a registry
// that does not ask Offered still runs the tool.
func (t ShareTool) Call(ctx context.Context, in ShareInput) (ShareOutput, error) {
	who, ok := principalID(ctx)
	if !ok {
		return ShareOutput{}, tool.Errorf("sharing a note needs a signed-in user; this conversation has none")
	}
	hours := in.Hours
	if hours == 0 {
		hours = 24
	}
	link, err := t.Store.Share(in.ID, who, in.Passphrase, time.Duration(hours)*time.Hour)
	if err != nil {
		return ShareOutput{}, forModel(err)
	}
	base := t.BaseURL
	if base == "" {
		base = DefaultShareURL
	}
	return ShareOutput{ID: link.Note, URL: base + link.Token, Expires: link.Expires}, nil
}

// principalID is the ID of the principal ctx carries, if it has one.
func principalID(ctx context.Context) (string, bool) {
	p, ok := tool.PrincipalFrom(ctx)
	if !ok || p.ID == "" {
		return "", false
	}
	return p.ID, true
}
