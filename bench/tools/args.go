package tools

// SmallArgs are the small benchmark's arguments (33 bytes).
var SmallArgs = []byte(`{"query":"paper clips","limit":5}`)

// MediumArgs are the medium benchmark's arguments: twelve properties with
// a nested object, an array of objects, optional values, times, a map, an
// enum and bounded numbers (431 bytes).
var MediumArgs = []byte(`{"title":"Quarterly office supply","priority":3,"status":"open",` +
	`"owner":{"name":"Ada Lovelace","email":"ada@example.com"},` +
	`"items":[{"sku":"PEN-01","qty":12,"price":1.5},{"sku":"PAD-A4","qty":5,"price":3.25},{"sku":"INK-BK","qty":2,"price":19.99}],` +
	`"tags":["office","q3","rush"],"labels":{"dept":"research","site":"lisbon"},` +
	`"created":"2026-07-01T09:30:00Z","due":"2026-07-15T17:00:00+01:00","budget":250,"notify":true,"discount":0.1}`)
