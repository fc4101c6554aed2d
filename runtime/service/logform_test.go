package service

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestLogForm(t *testing.T) {
	secrets := splitSecrets([]string{"/password", "/accounts/*/token", "/vault/*", "/a~1b"})
	cases := []struct{ in, want string }{
		{``, `{}`},
		{` { "a" : 1 , "b" : [ true , false , null ] } `, `{"a":1,"b":[true,false,null]}`},
		{`{"password":"hunter2","user":"x"}`, `{"password":"[secret]","user":"x"}`},
		{`{"password":{"deep":["a"]}}`, `{"password":"[secret]"}`},
		{`{"accounts":[{"token":"t1","name":"n"},{"token":"t2"}]}`, `{"accounts":[{"token":"[secret]","name":"n"},{"token":"[secret]"}]}`},
		{`{"vault":{"k1":"v1","k2":2}}`, `{"vault":{"k1":"[secret]","k2":"[secret]"}}`},
		{`{"a/b":"s","nested":{"password":"kept"}}`, `{"a/b":"[secret]","nested":{"password":"kept"}}`},
		// Any spelling that differs only in case, or in escapes, is the
		// secret too.
		{`{"Password":"hunter2"}`, `{"Password":"[secret]"}`},
		{`{"PASSWORD":"hunter2","password":"x"}`, `{"PASSWORD":"[secret]","password":"[secret]"}`},
		{`{"pass\u0077ord":"hunter2"}`, `{"pass\u0077ord":"[secret]"}`},
		{`{"PASS\u0057ORD":"hunter2"}`, `{"PASS\u0057ORD":"[secret]"}`},
		{`{"paſſword":"hunter2"}`, `{"paſſword":"[secret]"}`},
		{`{"Accounts":[{"Token":"t1","name":"n"}]}`, `{"Accounts":[{"Token":"[secret]","name":"n"}]}`},
		{`{"VAULT":{"k1":"v1"}}`, `{"VAULT":{"k1":"[secret]"}}`},
		{`{"A/B":"s"}`, `{"A/B":"[secret]"}`},
		{`{"passwords":"kept","passwor":"kept"}`, `{"passwords":"kept","passwor":"kept"}`},
		{`{"s":"\u00e9\n"}`, `{"s":"\u00e9\n"}`},
		{`{"x":1.5e3,"y":-0}`, `{"x":1.5e3,"y":-0}`},
		{`[1,2]`, `[1,2]`},
		{`{"a":1`, `"[not JSON: 6 bytes]"`},
		{`{"a":1} x`, `"[not JSON: 9 bytes]"`},
		{`{"a":tru}`, `"[not JSON: 9 bytes]"`},
		{strings.Repeat("[", 100) + strings.Repeat("]", 100), `"[not JSON: 200 bytes]"`},
	}
	for _, c := range cases {
		got := string(appendLogForm(nil, []byte(c.in), secrets, 0))
		assert.Equal(t, c.want, got, "input %s", c.in)
	}
	got := string(appendLogForm(nil, []byte(`{"long":"`+strings.Repeat("x", 20)+`"}`), nil, 8))
	assert.Equal(t, `{"long":"xxxxxxxx…[20 bytes]"}`, got)
}

func FuzzLogForm(f *testing.F) {
	for _, s := range []string{`{"password":"p","a":[{"token":"t"}]}`, `[]`, `"x"`, `{"a":{"b":{"c":1}}}`, `{"password":"\u0000"}`} {
		f.Add([]byte(s))
	}
	secrets := splitSecrets([]string{"/password", "/a/*/token"})
	f.Fuzz(func(t *testing.T, args []byte) {
		out := appendLogForm(nil, args, secrets, 16)
		if !json.Valid(out) {
			t.Fatalf("log form of %q is not JSON: %q", args, out)
		}
		// Without secrets and cuts, the form of JSON is the JSON compacted,
		// its tokens as they were.
		plain := appendLogForm(nil, args, nil, 0)
		notJSON := bytes.HasPrefix(plain, []byte(`"[not JSON: `))
		if !notJSON && len(args) > 0 {
			var want bytes.Buffer
			if err := json.Compact(&want, args); err != nil {
				t.Fatalf("log form of %q, which is not JSON: %q", args, plain)
			}
			if !bytes.Equal(plain, want.Bytes()) {
				t.Fatalf("log form of %q is %q, want %q", args, plain, want.Bytes())
			}
		}
		var v any
		if json.Unmarshal(args, &v) != nil {
			return
		}
		if m, ok := v.(map[string]any); ok {
			if p, ok := m["password"].(string); ok && len(p) > 3 && strings.Contains(string(out), p) && !strings.Contains(string(out), `"password":"[secret]"`) {
				t.Fatalf("secret kept: %q", out)
			}
		}
	})
}
