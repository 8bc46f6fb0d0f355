package locks

// Fencing on the fair lock: with Options.Fencing, each grant also
// increments a never-expiring counter in the lock's hash slot, in the
// grant's own script (scripts/fair_acquire.lua), and the lease carries the
// new value as its Fence, as Fenced's do.

// FairFenceKey is the fence counter of the fair lock named name, used with
// Options.Fencing; it never expires.
func FairFenceKey(name string) string { return "{" + name + "}:fence" }

// fairFence is the fence counter's key of the fair lock named name when
// fencing, else "".
func fairFence(name string, fencing bool) string {
	if !fencing {
		return ""
	}
	return FairFenceKey(name)
}

// pollKeys are the keys of one fair_acquire call: the lock, the queue, the
// ticket counter and, when fencing, the fence counter.
func (f *Fair) pollKeys(lock, queue, seq string) []string {
	if f.fence == "" {
		return []string{lock, queue, seq}
	}
	return []string{lock, queue, seq, f.fence}
}
