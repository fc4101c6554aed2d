package main

import (
	"os"
	"syscall"
)

// maxRSS returns the peak RSS of an ended process in KiB (Linux reports
// ru_maxrss in KiB).
func maxRSS(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss
	}
	return 0
}
