// Package reportdir is the transaction that puts a report into its
// directory: the report is written aside, then put in place, and only
// the files it owns are ever replaced or removed.
//
// A report lists the files it wrote in the directory's Manifest; the
// next report replaces those and removes those it no longer writes,
// nothing else. Open checks the directory before any work: empty, new,
// or holding an earlier report, unless force, which writes beside other
// files and never over them (nor over a page every report writes, which
// Open is given). Lock takes the directory's lock (flock on
// .locksim-report.lock, dropped by the kernel when its holder dies), so
// that a second report into it is refused at once; Resume completes an
// install that a killed report left. Write stages the report and
// installs it: where the directory holds nothing but the earlier report,
// the staging sits beside it and the two are swapped in one step
// (renameat2 RENAME_EXCHANGE); beside other files (the default reports/
// holds bench/ and real/), each file is moved by its own rename after a
// journal (.locksim-report-install) names them all, and the next report
// completes an install the journal shows unfinished. Either way a reader,
// or a run killed at any point, finds one report, never files of two.
//
// Its errors are the report command's: they name the directory as its
// --out and say what --force would do. A UsageError is a directory that
// cannot take a report as given; any other error is the environment's.
//
// # Usage
//
//	d, err := reportdir.Open("reports", false, report.PageFiles())
//	err = d.Lock() // refused at once if another report is writing it
//	defer d.Unlock()
//	n, err := d.Resume() // the files of an interrupted install completed first
//	err = d.Write(func(staging string) error { return report.Write(staging, m, b, opt) })
//
// report.Generate is the one caller: it checks, measures and writes a
// whole report through this transaction.
package reportdir
