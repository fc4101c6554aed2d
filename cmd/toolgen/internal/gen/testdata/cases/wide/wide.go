// Package wide declares a tool whose input has more properties than a
// uint64 has bits: its decoder records the properties read in an array.
package wide

import "context"

// Wide takes seventy arguments.
//
//tool:name wide
type Wide struct{}

// Call returns the first, the 65th and the last argument, joined.
func (Wide) Call(ctx context.Context, in In) (string, error) {
	return in.F00 + "," + in.F64 + "," + in.F69, nil
}

// In holds the arguments of wide: f00 and f69 required.
type In struct {
	// F00 is argument 0.
	F00 string `json:"f00"`
	// F01 is argument 1.
	F01 string `json:"f01,omitempty"`
	// F02 is argument 2.
	F02 string `json:"f02,omitempty"`
	// F03 is argument 3.
	F03 string `json:"f03,omitempty"`
	// F04 is argument 4.
	F04 string `json:"f04,omitempty"`
	// F05 is argument 5.
	F05 string `json:"f05,omitempty"`
	// F06 is argument 6.
	F06 string `json:"f06,omitempty"`
	// F07 is argument 7.
	F07 string `json:"f07,omitempty"`
	// F08 is argument 8.
	F08 string `json:"f08,omitempty"`
	// F09 is argument 9.
	F09 string `json:"f09,omitempty"`
	// F10 is argument 10.
	F10 string `json:"f10,omitempty"`
	// F11 is argument 11.
	F11 string `json:"f11,omitempty"`
	// F12 is argument 12.
	F12 string `json:"f12,omitempty"`
	// F13 is argument 13.
	F13 string `json:"f13,omitempty"`
	// F14 is argument 14.
	F14 string `json:"f14,omitempty"`
	// F15 is argument 15.
	F15 string `json:"f15,omitempty"`
	// F16 is argument 16.
	F16 string `json:"f16,omitempty"`
	// F17 is argument 17.
	F17 string `json:"f17,omitempty"`
	// F18 is argument 18.
	F18 string `json:"f18,omitempty"`
	// F19 is argument 19.
	F19 string `json:"f19,omitempty"`
	// F20 is argument 20.
	F20 string `json:"f20,omitempty"`
	// F21 is argument 21.
	F21 string `json:"f21,omitempty"`
	// F22 is argument 22.
	F22 string `json:"f22,omitempty"`
	// F23 is argument 23.
	F23 string `json:"f23,omitempty"`
	// F24 is argument 24.
	F24 string `json:"f24,omitempty"`
	// F25 is argument 25.
	F25 string `json:"f25,omitempty"`
	// F26 is argument 26.
	F26 string `json:"f26,omitempty"`
	// F27 is argument 27.
	F27 string `json:"f27,omitempty"`
	// F28 is argument 28.
	F28 string `json:"f28,omitempty"`
	// F29 is argument 29.
	F29 string `json:"f29,omitempty"`
	// F30 is argument 30.
	F30 string `json:"f30,omitempty"`
	// F31 is argument 31.
	F31 string `json:"f31,omitempty"`
	// F32 is argument 32.
	F32 string `json:"f32,omitempty"`
	// F33 is argument 33.
	F33 string `json:"f33,omitempty"`
	// F34 is argument 34.
	F34 string `json:"f34,omitempty"`
	// F35 is argument 35.
	F35 string `json:"f35,omitempty"`
	// F36 is argument 36.
	F36 string `json:"f36,omitempty"`
	// F37 is argument 37.
	F37 string `json:"f37,omitempty"`
	// F38 is argument 38.
	F38 string `json:"f38,omitempty"`
	// F39 is argument 39.
	F39 string `json:"f39,omitempty"`
	// F40 is argument 40.
	F40 string `json:"f40,omitempty"`
	// F41 is argument 41.
	F41 string `json:"f41,omitempty"`
	// F42 is argument 42.
	F42 string `json:"f42,omitempty"`
	// F43 is argument 43.
	F43 string `json:"f43,omitempty"`
	// F44 is argument 44.
	F44 string `json:"f44,omitempty"`
	// F45 is argument 45.
	F45 string `json:"f45,omitempty"`
	// F46 is argument 46.
	F46 string `json:"f46,omitempty"`
	// F47 is argument 47.
	F47 string `json:"f47,omitempty"`
	// F48 is argument 48.
	F48 string `json:"f48,omitempty"`
	// F49 is argument 49.
	F49 string `json:"f49,omitempty"`
	// F50 is argument 50.
	F50 string `json:"f50,omitempty"`
	// F51 is argument 51.
	F51 string `json:"f51,omitempty"`
	// F52 is argument 52.
	F52 string `json:"f52,omitempty"`
	// F53 is argument 53.
	F53 string `json:"f53,omitempty"`
	// F54 is argument 54.
	F54 string `json:"f54,omitempty"`
	// F55 is argument 55.
	F55 string `json:"f55,omitempty"`
	// F56 is argument 56.
	F56 string `json:"f56,omitempty"`
	// F57 is argument 57.
	F57 string `json:"f57,omitempty"`
	// F58 is argument 58.
	F58 string `json:"f58,omitempty"`
	// F59 is argument 59.
	F59 string `json:"f59,omitempty"`
	// F60 is argument 60.
	F60 string `json:"f60,omitempty"`
	// F61 is argument 61.
	F61 string `json:"f61,omitempty"`
	// F62 is argument 62.
	F62 string `json:"f62,omitempty"`
	// F63 is argument 63.
	F63 string `json:"f63,omitempty"`
	// F64 is argument 64.
	F64 string `json:"f64,omitempty"`
	// F65 is argument 65.
	F65 string `json:"f65,omitempty"`
	// F66 is argument 66.
	F66 string `json:"f66,omitempty"`
	// F67 is argument 67.
	F67 string `json:"f67,omitempty"`
	// F68 is argument 68.
	F68 string `json:"f68,omitempty"`
	// F69 is argument 69.
	F69 string `json:"f69"`
}
