package pgtest

import "syscall"

// procAttr runs a server process as cred (when set), and ends it (fast
// shutdown) if this process dies first.
func procAttr(cred *ids) *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{Pdeathsig: syscall.SIGINT, Setpgid: true}
	if cred != nil {
		a.Credential = &syscall.Credential{Uid: cred.uid, Gid: cred.gid}
	}
	return a
}
