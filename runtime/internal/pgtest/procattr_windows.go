package pgtest

import "syscall"

// procAttr: Windows runs the server as this user.
func procAttr(*ids) *syscall.SysProcAttr { return nil }
