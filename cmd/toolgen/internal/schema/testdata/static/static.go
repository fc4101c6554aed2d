// Package static is a fixture of the static path's parity test (package
// gen, TestStaticParity): a construct of every kind invopop reflects from
// structure and tags, derived both ways.
package static

import (
	"encoding/json"
	"net"
	"net/url"
	"time"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/schema/testdata/a"
	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/schema/testdata/b"
)

// Color is a named string.
type Color string

// Level is a named integer.
type Level int8

// Names is a named slice: it gets a definition.
type Names []string

// Scores is a named map: it gets a definition.
type Scores map[string]float64

// Blob is a named byte slice.
type Blob []byte

// Tree refers to itself.
type Tree struct {
	Value    int     `json:"value"`
	Children []*Tree `json:"children,omitempty"`
	Parent   *Tree   `json:"parent,omitempty" jsonschema:"nullable"`
}

// Base is embedded.
type Base struct {
	// ID identifies it.
	ID      string `json:"id" jsonschema:"minLength=1"`
	Created time.Time
	hidden  int
}

type inner struct {
	Inner string `json:"inner"`
	// Bounded is a bounded map in an unexported embedded struct.
	Bounded map[string]int `json:"bounded" jsonschema:"minProperties=1,maxProperties=3"`
}

// Other is embedded by pointer.
type Other struct {
	Note string `json:"note,omitempty"`
}

// Inlined is inlined by its json tag.
type Inlined struct {
	Flat string `json:"flat"`
}

// Kinds has a field of every kind.
type Kinds struct {
	Base
	inner
	*Other
	Color     Color              `json:"color" jsonschema:"enum=red,enum=green,default=red"`
	Level     Level              `json:"level" jsonschema:"minimum=1,maximum=5,exclusiveMaximum=9,multipleOf=1,default=2,example=3,enum=1,enum=2"`
	Ratio     float32            `json:"ratio,omitempty" jsonschema:"minimum=0.5,maximum=1e3,minimum=bad"`
	On        bool               `json:"on" jsonschema:"default=true"`
	Count     int64              `json:"count,string"`
	Names     Names              `json:"names" jsonschema:"minItems=1,maxItems=4,uniqueItems=true,default=a,default=b,pattern=^x,minLength=2"`
	Tags      []string           `json:"tags" jsonschema:"format=email,enum=x,example=y"`
	Nums      []int              `json:"nums" jsonschema:"minimum=3,enum=4"`
	Flags     []bool             `json:"flags" jsonschema:"default=true"`
	Grid      [2][3]int          `json:"grid"`
	Fixed     [4]byte            `json:"fixed"`
	Raw       []byte             `json:"raw" jsonschema:"minLength=4"`
	Blob      Blob               `json:"blob,omitempty"`
	Message   json.RawMessage    `json:"message,omitempty"`
	Number    json.Number        `json:"number,omitempty"`
	Any       any                `json:"any"`
	Err       error              `json:"err,omitempty"`
	Scores    Scores             `json:"scores"`
	ByID      map[int]string     `json:"by_id"`
	ByUint    map[uint16]*Tree   `json:"by_uint"`
	Loose     map[string]any     `json:"loose" jsonschema:"minProperties=2"`
	Opt       *map[string]bool   `json:"opt,omitempty" jsonschema:"nullable,maxProperties=9"`
	Deep      map[string][]Tree  `json:"deep"`
	When      *time.Time         `json:"when,omitempty" jsonschema:"nullable"`
	Wait      time.Duration      `json:"wait"`
	Link      url.URL            `json:"link"`
	Addr      net.IP             `json:"addr"`
	AItem     a.Item             `json:"a_item"`
	BItem     *b.Item            `json:"b_item"`
	Anon      struct{ X, Y int } `json:"anon"`
	Inlined   Inlined            `json:",inline"`
	Ignored   string             `json:"-"`
	Dash      string             `json:"-,"`
	Skipped   string             `jsonschema:"-"`
	Plain     string
	Described string `json:"described" jsonschema_description:"From the tag." jsonschema:"title=T,description=From the keyword."`
	// Commented has a doc comment.
	Commented string `json:"commented"`
	Typed     Tree   `json:"typed" jsonschema:"type=string,maxLength=3"`
	Forced    string `json:"forced" jsonschema:"type=integer,minimum=2"`
	Anchored  string `json:"anchored" jsonschema:"anchor=here,readOnly=true,writeOnly=1,format=uri,pattern=a\\,b"`
	OneA      string `json:"one_a,omitempty" jsonschema:"oneof_required=A,anyof_required=X"`
	OneB      string `json:"one_b,omitempty" jsonschema:"oneof_required=B,oneof_required=A,required"`
	Refs      Tree   `json:"refs" jsonschema:"oneof_ref=#/$defs/x;#/$defs/y"`
	RefItems  []Tree `json:"ref_items" jsonschema:"anyof_ref=#/a"`
	Types     string `json:"types" jsonschema:"oneof_type=string;null"`
	AnyTypes  int    `json:"any_types" jsonschema:"anyof_type=integer;string"`
	Extra     string `json:"extra" jsonschema_extras:"x-a=1,x-a=2,x-b=true,minimum=4,x-c=false,x-c=true"`
	Emptied   string `json:"emptied" jsonschema:"minLength=3,minLength=x"`
	Nullable  []int  `json:"nullable" jsonschema:"nullable,minItems=1"`
	unexp     string
}

// Alias is an alias of a struct.
type Alias = Kinds

// Wrapper holds the alias and a pointer to a pointer.
type Wrapper struct {
	K  Alias  `json:"k"`
	PP **Tree `json:"pp"`
}

// Empty has no fields.
type Empty struct{}

// Stringer is a named interface.
type Stringer interface{ String() string }

// Key is a named integer used as a map key.
type Key uint8

// SignedKey is a named signed integer used as a map key.
type SignedKey int32

// Label is embedded without being a struct.
type Label string

type hiddenLabel string

// More covers the rest: omitzero, embedded non-structs, named interfaces,
// keys of named integer types, and text that JSON escapes.
type More struct {
	Label
	hiddenLabel
	Zero     int                  `json:"zero,omitzero"`
	Req      string               `json:"req,omitempty" jsonschema:"required"`
	Str      Stringer             `json:"str"`
	ByKey    map[Key]Tree         `json:"by_key"`
	BySigned map[SignedKey][]Tree `json:"by_signed"`
	Trees    [2]Tree              `json:"trees"`
	PNames   *Names               `json:"p_names" jsonschema:"nullable"`
	Nested   struct {
		Base
		Deeper struct {
			Z []map[string]*Tree `json:"z"`
		} `json:"deeper"`
	} `json:"nested"`
	// Escaped says <b>&</b> "quoted" \ and ü, in a comment.
	Escaped string `json:"esc<&>" jsonschema:"enum=<a>,enum=&,default=\u2028"`
	Unicode string `json:"unicode" jsonschema_description:"Größe ✓"`
	Bools   []bool `json:"bools" jsonschema:"type=array"`
	Nums    []int  `json:"nums" jsonschema:"enum=1.5e3,example=-0,default=7"`
}

// Shadow has two fields publishing one property, a promoted one and its
// own, and a map bounded under a name a later field takes.
type Shadow struct {
	Base
	Other
	ID     int               `json:"id" jsonschema:"minimum=1"`
	Note   map[string]string `json:"note" jsonschema:"minProperties=2"`
	Bounds map[string]int    `json:"bounds" jsonschema:"maxProperties=4"`
	Again  []string          `json:"bounds,omitempty" jsonschema:"oneof_required=X"`
}
