package service

import "testing"

// mediumArgs are bench/tools.MediumArgs: the medium benchmark's input.
var mediumArgs = []byte(`{"title":"Quarterly office supply","priority":3,"status":"open",` +
	`"owner":{"name":"Ada Lovelace","email":"ada@example.com"},` +
	`"items":[{"sku":"PEN-01","qty":12,"price":1.5},{"sku":"PAD-A4","qty":5,"price":3.25},{"sku":"INK-BK","qty":2,"price":19.99}],` +
	`"tags":["office","q3","rush"],"labels":{"dept":"research","site":"lisbon"},` +
	`"created":"2026-07-01T09:30:00Z","due":"2026-07-15T17:00:00+01:00","budget":250,"notify":true,"discount":0.1}`)

// BenchmarkLogForm is the logged form of the medium input, without and
// with a secret member to replace; "writer" is the plain form written by
// the logWriter, which compactForm spares it.
func BenchmarkLogForm(b *testing.B) {
	for _, c := range []struct {
		name    string
		secrets secretPaths
		form    func(dst, args []byte, secrets secretPaths, maxString int) []byte
	}{{"plain", nil, appendLogForm}, {"writer", nil, writeLogForm}, {"secret", splitSecrets([]string{"/owner/email"}), appendLogForm}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(mediumArgs)))
			b.ReportAllocs()
			for b.Loop() {
				sink = c.form(make([]byte, 0, len(mediumArgs)+8), mediumArgs, c.secrets, DefaultMaxLoggedString)
			}
		})
	}
}

var sink []byte
