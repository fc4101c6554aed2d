//go:build !linux

package main

import "os"

// maxRSS returns 0: ru_maxrss is in KiB on Linux only (bytes on macOS,
// absent on Windows), and the figures are taken on Linux.
func maxRSS(*os.ProcessState) int64 { return 0 }
