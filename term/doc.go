// Package term says whether a writer is a terminal, so that a command
// draws a progress bar there and writes plain lines, or nothing, to a
// file or a pipe. The CLI's progress and the benchmarks' bar ask it.
//
//	if term.IsTerminal(os.Stderr) {
//		// draw a bar
//	}
package term
