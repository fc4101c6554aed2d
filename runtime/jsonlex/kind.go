package jsonlex

// Kind is the kind of a JSON value: the one kind enum of the runtime,
// shared by runtime/codec (Decoder.Kind) and runtime/jsontree (Node.Kind).
type Kind uint8

// The kinds of JSON values. Invalid is the zero Kind, deliberately: a
// decoder that cannot read a value, or a Node nobody set, says so rather
// than passing for null.
const (
	Invalid Kind = iota // no value: malformed JSON, end of input, or unset
	Null                // null
	Bool                // true or false
	Number              // a number
	String              // a string
	Object              // an object
	Array               // an array
)

// String returns the JSON Schema name of the kind ("boolean" for Bool),
// as used in messages such as "expected integer, got string", and
// "invalid" for Invalid or any other value.
func (k Kind) String() string {
	switch k {
	case Null:
		return "null"
	case Bool:
		return "boolean"
	case Number:
		return "number"
	case String:
		return "string"
	case Object:
		return "object"
	case Array:
		return "array"
	default:
		return "invalid"
	}
}

// KindOf returns the kind of the value that starts with byte c (its first
// byte after white space), or Invalid when no value starts with c. It
// does not check the rest of the value.
func KindOf(c byte) Kind {
	switch c {
	case 'n':
		return Null
	case 't', 'f':
		return Bool
	case '"':
		return String
	case '{':
		return Object
	case '[':
		return Array
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return Number
	default:
		return Invalid
	}
}
