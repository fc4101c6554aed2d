// Package sub is a package the fixture names.
package sub

// Thing is named as pkg/sub.Thing.
type Thing int
