package codec

import "unicode/utf8"

// Property reads the name of the next member of the object Object opened,
// with the ',' before it and the ':' after it, and returns the index of
// that name in names, the object's property names; or -1 when it consumed
// the '}' that closes the object, or after a fatal problem.
//
// next is the index of the property expected next: the one declared after
// the property read last, 0 at the start. When the input holds that name
// where a member name starts, written as is, Property compares its bytes
// there and reads nothing else. Any other member name (another property,
// one with escapes, white space around it) is read as Key reads it, then
// looked up in names. A member whose name is not in names is refused when
// closed (Unknown records it) and its value skipped otherwise; Property
// then reads on. So a generated decoder switches on an integer, not on a
// string, and an object sent in the declared order costs one comparison
// per member.
//
// Every name in names must be one that JSON writes as is (Plain): with
// another, the comparison could take for the name bytes that do not spell
// it, so an object with such a property is read with Key.
func (d *Decoder) Property(names []string, next int, closed bool) int {
	data, i := d.data, d.pos
	if uint(i) < uint(len(data)) && !d.fatal {
		switch c := data[i]; {
		case c == '}':
			d.closeObject(i)
			return -1
		case c == ',' && !d.first, c == '"' && d.first:
			if c == ',' {
				i++
			}
			if uint(next) < uint(len(names)) {
				name := names[next]
				end := i + 1 + len(name) // the closing quote
				if end+2 <= len(data) && data[i] == '"' && data[end] == '"' && data[end+1] == ':' && string(data[i+1:end]) == name {
					d.first = false
					d.pos = end + 2
					if n := len(d.keys); n > 0 {
						d.keys[n-1]++
					}
					return next
				}
			}
		}
	}
	return d.property(names, closed)
}

// property is Property's reading of a name that is not the one expected,
// or not written as is: with Key, then looked up in names.
func (d *Decoder) property(names []string, closed bool) int {
	for {
		key, ok := d.Key()
		if !ok {
			return -1
		}
		for k, name := range names {
			if name == string(key) {
				return k
			}
		}
		if closed {
			d.Unknown(key)
		} else {
			d.Skip()
		}
	}
}

// closeObject consumes the '}' at data[i] that closes the object being
// read.
func (d *Decoder) closeObject(i int) {
	d.first = false
	d.pos = i + 1
	d.depth--
	if n := len(d.keys); n > 0 {
		d.keys = d.keys[:n-1]
	}
}

// Plain reports whether JSON writes the member name as is, between
// quotes: valid UTF-8 without '"', '\\' or a control character. Property
// takes only such names.
func Plain(name string) bool {
	for i := 0; i < len(name); i++ {
		if c := name[i]; c == '"' || c == '\\' || c < 0x20 {
			return false
		}
	}
	return utf8.ValidString(name)
}
