package tool

import (
	"fmt"
	"strconv"
)

// Kind says how a call runs. The zero value is not a kind: every Spec a
// Static serves declares one of the constants below.
type Kind uint8

const (
	// KindRead tools only read; Call runs them.
	KindRead Kind = iota + 1
	// KindDisplay tools show something to a person; Call runs them.
	KindDisplay
	// KindPropose tools prepare a change that a person must confirm. A plain
	// Call validates their arguments and runs nothing (CodeNeedsConfirmation).
	KindPropose
	// KindAction tools change something; Call runs them.
	KindAction
)

// String returns the kind's name ("read", "display", "propose", "action"),
// or "Kind(N)" for a value that is not a kind.
func (k Kind) String() string {
	switch k {
	case KindRead:
		return "read"
	case KindDisplay:
		return "display"
	case KindPropose:
		return "propose"
	case KindAction:
		return "action"
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// valid reports whether k is one of the declared kinds.
func (k Kind) valid() bool { return k >= KindRead && k <= KindAction }

// ParseKind returns the kind named s, exactly as String spells it.
func ParseKind(s string) (Kind, error) {
	for k := KindRead; k <= KindAction; k++ {
		if k.String() == s {
			return k, nil
		}
	}
	return 0, fmt.Errorf("unknown tool kind %q (want read, display, propose or action)", s)
}

// MarshalText encodes the kind as its name; a value that is not a kind is
// an error.
func (k Kind) MarshalText() ([]byte, error) {
	if !k.valid() {
		return nil, fmt.Errorf("marshal tool kind: invalid value %d", uint8(k))
	}
	return []byte(k.String()), nil
}

// UnmarshalText decodes a kind's name as ParseKind does.
func (k *Kind) UnmarshalText(text []byte) error {
	parsed, err := ParseKind(string(text))
	if err != nil {
		return err
	}
	*k = parsed
	return nil
}
