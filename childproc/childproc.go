package childproc

import (
	"bytes"
	"os/exec"
)

// Start starts cmd as Cmd.Start does, marked to die with this process.
// It sets cmd.SysProcAttr's parent-death signal, keeping the rest of a
// SysProcAttr the caller set.
func Start(cmd *exec.Cmd) error {
	return start(cmd)
}

// Run starts cmd with Start and waits for it, as Cmd.Run does.
func Run(cmd *exec.Cmd) error {
	if err := Start(cmd); err != nil {
		return err
	}
	return cmd.Wait()
}

// Output runs cmd with Run and returns its standard output, as
// Cmd.Output does (with its standard error in an *exec.ExitError when
// the caller set no Stderr).
func Output(cmd *exec.Cmd) ([]byte, error) {
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	var stderr *bytes.Buffer
	if cmd.Stderr == nil {
		stderr = &bytes.Buffer{}
		cmd.Stderr = stderr
	}
	err := Run(cmd)
	if ee, ok := err.(*exec.ExitError); ok && stderr != nil {
		ee.Stderr = stderr.Bytes()
	}
	return stdout.Bytes(), err
}

// CombinedOutput runs cmd with Run and returns its standard output and
// standard error together, as Cmd.CombinedOutput does.
func CombinedOutput(cmd *exec.Cmd) ([]byte, error) {
	var b bytes.Buffer
	cmd.Stdout, cmd.Stderr = &b, &b
	err := Run(cmd)
	return b.Bytes(), err
}
