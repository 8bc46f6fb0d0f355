// Package bench measures what each lock pattern costs on a real
// redis-server (or, as a demo, on embedded miniredis), beside references
// measured in the same run.
package bench
