package codec

// Kind is the kind of a JSON value.
type Kind uint8

// The kinds of JSON values. Invalid is the zero Kind, returned when no
// value can be read.
const (
	Invalid Kind = iota // no value: malformed JSON or end of input
	Null                // null
	Bool                // true or false
	Number              // a number
	String              // a string
	Object              // an object
	Array               // an array
)

// String returns the JSON Schema name of the kind ("boolean" for Bool),
// as used in messages such as "expected integer, got string".
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

// kindOf returns the kind of value that starts with byte c.
func kindOf(c byte) Kind {
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
