package model

import (
	"fmt"
	"sort"
	"strings"

	"github.com/anishathalye/porcupine"
)

// Owners is a set of owner tokens kept as one comparable string: sorted,
// separated by ownersSep. The zero value is the empty set.
type Owners string

const ownersSep = "\x1f"

// List returns the owners, sorted.
func (o Owners) List() []string {
	if o == "" {
		return nil
	}
	return strings.Split(string(o), ownersSep)
}

// Len is the number of owners.
func (o Owners) Len() int { return len(o.List()) }

// Has reports whether owner is in the set.
func (o Owners) Has(owner string) bool {
	for _, x := range o.List() {
		if x == owner {
			return true
		}
	}
	return false
}

// With returns the set with owner added.
func (o Owners) With(owner string) Owners {
	if o.Has(owner) {
		return o
	}
	l := append(o.List(), owner)
	sort.Strings(l)
	return Owners(strings.Join(l, ownersSep))
}

// Without returns the set with owner removed.
func (o Owners) Without(owner string) Owners {
	var l []string
	for _, x := range o.List() {
		if x != owner {
			l = append(l, x)
		}
	}
	return Owners(strings.Join(l, ownersSep))
}

func (o Owners) String() string {
	l := o.List()
	for i, x := range l {
		l[i] = short(x)
	}
	return "{" + strings.Join(l, ", ") + "}"
}

// SemIn is one call on the semaphore Key by Owner (the permit's token):
// Acquire takes a permit, Release gives it back.
type SemIn struct {
	Key   string
	Op    LockOp
	Owner string
}

// SemaphoreModel returns the model of a semaphore with n permits for runs
// in which no permit expires: at most n owners hold a permit at once; an
// acquisition succeeds while fewer than n are held (by a token that holds
// none) and fails only while all n are; a release succeeds exactly for a
// holder. Outputs are LockOut (Count is not checked); a call with an
// unknown outcome takes effect if the state allows it and leaves the
// state alone otherwise. The state is the set of holders (Owners).
func SemaphoreModel(n int) porcupine.Model {
	if n < 1 {
		panic(fmt.Sprintf("model: SemaphoreModel(%d): n must be at least 1", n))
	}
	return porcupine.Model{
		Partition:         partitionBy(func(in any) string { return in.(SemIn).Key }),
		Init:              func() any { return Owners("") },
		Step:              func(s, in, out any) (bool, any) { return semStep(n, s.(Owners), in.(SemIn), out.(LockOut)) },
		Equal:             func(a, b any) bool { return a == b },
		Hash:              func(s any) uint64 { return hashString(string(s.(Owners))) },
		DescribeOperation: describeSemOp,
		DescribeState:     func(s any) string { return fmt.Sprintf("held by %s of %d", s.(Owners), n) },
	}
}

func semStep(n int, s Owners, in SemIn, out LockOut) (bool, any) {
	held := s.Has(in.Owner)
	var next Owners
	var can, canFail bool
	switch in.Op {
	case Acquire:
		next, can, canFail = s.With(in.Owner), !held && in.Owner != "" && s.Len() < n, s.Len() >= n
	case Release:
		next, can, canFail = s.Without(in.Owner), held, !held
	default:
		return false, s
	}
	return judge(effect[Owners]{next: next, failed: s, can: can, canFail: canFail}, out)
}

func describeSemOp(input, output any) string {
	in, out := input.(SemIn), output.(LockOut)
	return describeOutcome(fmt.Sprintf("%s(%s)", in.Op, short(in.Owner)), out)
}
