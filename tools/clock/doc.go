// Package clock is the time part of the sample tool domain:
//
//   - clock_now ([NowTool]): the current date and time, a tool without
//     arguments;
//   - clock_zones ([ZonesTool]): the time zones on offer, a tool whose
//     output is a JSON array rather than a struct;
//   - clock_sync ([SyncTool]): how far this machine's clock is from a
//     reference clock, an open-world tool that is only offered when it has
//     a reference to ask;
//   - clock_wait ([WaitTool]): wait a few seconds, a long-running tool that
//     reports its progress (tool.Progress) and stops when its call is
//     cancelled.
//
// Every tool reads the time from a Clock field (nil means time.Now), so
// tests and replays can fix it.
package clock
