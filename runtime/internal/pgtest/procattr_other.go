//go:build unix && !linux

package pgtest

import "syscall"

// procAttr runs a server process as cred (when set).
func procAttr(cred *ids) *syscall.SysProcAttr {
	if cred == nil {
		return nil
	}
	return &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: cred.uid, Gid: cred.gid}}
}
