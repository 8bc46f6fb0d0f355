// Package childproc starts the processes locksim runs — redis-servers,
// real-mode clients, the commands its tests run — so that none outlives
// the process that started it, even when that process is killed outright
// (SIGKILL), where no deferred stop and no signal handler runs.
//
// On Linux each child carries a parent-death signal (SIGKILL). The kernel
// sends it when the thread that started the child exits, not the
// process, and the Go runtime ends a thread whenever a goroutine that
// locked it returns without unlocking. So every child is started from one
// goroutine locked to its thread for the life of the process: the signal
// fires when the process dies, and only then. Elsewhere children start as
// plain exec.Cmd.Start does, and a killed parent leaves them running.
//
//	cmd := exec.Command("redis-server", "--port", "0")
//	if err := childproc.Start(cmd); err != nil { ... }
//	defer cmd.Wait()
//
// Wait, Kill and the rest of exec.Cmd work as usual, from any goroutine.
//
// The first Start starts that goroutine (childproc.starter) and it never
// returns: a goroutine-leak check that runs after one must ignore it.
package childproc
