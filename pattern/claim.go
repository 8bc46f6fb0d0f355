package pattern

// Claim names one claim of Claims as results, expectations and reports
// spell it: the typed set of names, so that no caller compares claim
// strings by hand.
type Claim string

// The claims, in the order Claims.List gives them.
const (
	ClaimMutex      Claim = "mutex"       // Claims.Mutex
	ClaimSafeStore  Claim = "safe-store"  // Claims.SafeStore
	ClaimFencing    Claim = "fencing"     // Claims.Fencing
	ClaimMaxHolders Claim = "max-holders" // Claims.MaxHolders, for a limit that is not a mutex
	ClaimProgress   Claim = "progress"    // Claims.Progress
)

// allClaims is every Claim, in order.
var allClaims = []Claim{ClaimMutex, ClaimSafeStore, ClaimFencing, ClaimMaxHolders, ClaimProgress}

// Has reports whether c makes claim k. A holder limit counts as
// ClaimMaxHolders only when it is not a mutex (a mutex's limit of one is
// its mutex claim).
func (c Claims) Has(k Claim) bool {
	switch k {
	case ClaimMutex:
		return c.Mutex
	case ClaimSafeStore:
		return c.SafeStore
	case ClaimFencing:
		return c.Fencing
	case ClaimMaxHolders:
		return !c.Mutex && c.MaxHolders > 0
	case ClaimProgress:
		return c.Progress > 0
	}
	return false
}

// List returns the claims c makes, in the order of the constants.
func (c Claims) List() []Claim {
	out := []Claim{}
	for _, k := range allClaims {
		if c.Has(k) {
			out = append(out, k)
		}
	}
	return out
}
