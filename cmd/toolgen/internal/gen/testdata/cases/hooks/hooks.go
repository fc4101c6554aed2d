// Package hooks is a golden case: tools with Offered and LogArgs methods,
// and secrets at every depth of an input (a field, a nested struct, a
// pointer, a slice, an array, a map, an embedded struct and pointer, names
// renamed by json tags and escaped in the pointers).
package hooks

import (
	"context"
	"strings"
)

// userKey is the context key of the user WithUser sets.
type userKey struct{}

// WithUser returns ctx carrying a user name, which the Offered methods
// here read.
func WithUser(ctx context.Context, name string) context.Context {
	return context.WithValue(ctx, userKey{}, name)
}

func userFrom(ctx context.Context) string {
	name, _ := ctx.Value(userKey{}).(string)
	return name
}

// Logs in to an account; offered to signed-in users only.
//
//tool:name hooks_login
type Login struct {
	Realm string
}

// Account is one account of a login.
type Account struct {
	Name  string `json:"name"`
	Token string `json:"token" toolgen:"secret"`
}

// Key is an API key.
type Key struct {
	ID     string `json:"id"`
	Secret string `json:"secret,omitempty" toolgen:"secret"`
	// A name JSON writes with escapes: the decoder reads it with Key.
	Label string `json:"say \"hi\",omitempty"`
}

// Credentials are embedded: their fields are properties of the login.
type Credentials struct {
	OTP  string `json:"otp,omitempty" toolgen:"secret"`
	Hint string `json:"hint,omitempty"`
}

// Extra is embedded by pointer.
type Extra struct {
	Recovery string `json:"recovery,omitempty" toolgen:"secret"`
}

// LoginInput holds the arguments of hooks_login.
type LoginInput struct {
	User     string `json:"user"`
	Password string `json:"password" toolgen:"secret"`
	// Renamed, with characters a JSON Pointer escapes.
	Phrase string `json:"pass/phrase~1,omitempty" toolgen:"secret"`
	// A Go name without a json tag.
	Pin      string              `toolgen:"secret"`
	Key      *Key                `json:"key,omitempty"`
	Accounts []Account           `json:"accounts,omitempty"`
	Backup   [2]Account          `json:"backup"`
	Vault    map[string]*Account `json:"vault,omitempty"`
	Deep     struct {
		Inner struct {
			Code string `json:"code" toolgen:"secret"`
		} `json:"inner"`
	} `json:"deep"`
	// Secret as a whole: nothing below it is listed.
	Whole *Account `json:"whole,omitempty" toolgen:"secret"`
	Credentials
	*Extra
}

// Offered offers the login to signed-in users.
func (l Login) Offered(ctx context.Context) bool { return userFrom(ctx) != "" }

// LogArgs keeps the user and how many accounts, never a secret.
func (l Login) LogArgs(in LoginInput) string {
	return "login " + in.User + " with " + strings.Repeat("*", len(in.Accounts))
}

// Call logs in.
func (l Login) Call(ctx context.Context, in LoginInput) (string, error) {
	return "welcome " + in.User + " to " + l.Realm, nil
}

// Shows the signed-in user; offered to admins only.
//
//tool:name hooks_whoami
type WhoAmI struct {
	Admins []string
}

// Offered offers it to admins.
func (w *WhoAmI) Offered(ctx context.Context) bool {
	for _, a := range w.Admins {
		if a == userFrom(ctx) {
			return true
		}
	}
	return false
}

// Call tells the user.
func (w *WhoAmI) Call(ctx context.Context) (string, error) { return userFrom(ctx), nil }

// Stores a value under a key; no hooks, one secret.
//
//tool:name hooks_store
type Store struct{}

// StoreInput holds the arguments of hooks_store.
type StoreInput struct {
	Key   string `json:"key"`
	Value string `json:"value" toolgen:"secret"`
}

// Call stores nothing.
func (Store) Call(ctx context.Context, in StoreInput) (string, error) { return "stored " + in.Key, nil }
