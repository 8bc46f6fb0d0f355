package broken

import (
	"time"

	"github.com/locksim/locksim/internal/pitfall"
	"github.com/locksim/locksim/locks"
)

// Variants of bug classes that lock libraries have shipped and later
// fixed, beside the seeds' pitfalls: basic-shared-token,
// redlock-shared-token, watchdog-zombie-renewal and watchdog-late-done.

// sharedToken is the bug class "a fixed owner token shared by every
// client": the token a lock writes as its owner is not unique to the
// acquisition but the same for every process (a constant, the host or
// service name, a process id that every container shares, a random source
// seeded alike everywhere). Every owner check then passes for everyone: a
// late or losing client's cleanup release deletes the key of the client
// that now holds the lock, and a third client is granted it beside the
// holder. It wraps the Rand of a correct pattern, so that the variant
// differs from the pattern by its tokens alone; retry jitter still comes
// from the wrapped Rand.
type sharedToken struct {
	locks.Rand
	token string
}

// Token returns the shared token, whatever the acquisition: the bug.
func (s sharedToken) Token() string { return s.token }

// withSharedToken gives o a Rand whose tokens are all one.
func withSharedToken(o locks.Options) locks.Options {
	inner := o.Rand
	if inner == nil {
		inner = locks.CryptoRand{}
	}
	o.Rand = sharedToken{Rand: inner, token: "owner"}
	return o
}

// basicSharedToken is "basic-shared-token": a correct Basic lock whose
// every client writes the same owner token.
var basicSharedToken = variant{name: "basic-shared-token", of: "basic", nodes: 1, claims: claimsOf("basic"),
	steps: []string{"Options.Rand"}, options: withSharedToken,
	text:    "one owner token shared by every client: a late holder's release deletes the next holder's key",
	summary: "basic SET NX PX + owner-checked release, every client writing the same token"}

// redlockSharedToken is "redlock-shared-token": a correct Redlock whose
// every client writes the same owner token, so that a node takes another
// client's key for the client's own (a grant: the acquisition reads it as
// its own request sent again) and two clients count a quorum over the same
// keys, and a release deletes the keys of another holder.
var redlockSharedToken = variant{name: "redlock-shared-token", of: "redlock", nodes: 5, claims: claimsOf("redlock"),
	steps: []string{"Options.Rand"}, options: withSharedToken,
	text:    "one owner token shared by every client: a node takes another client's key for the client's own, so two clients hold a quorum at once",
	summary: "Redlock, every client writing the same token"}

// watchdogZombie is the bug class "a watchdog whose renewal outlives the
// release": Release deletes the key but does not stop the renewal (the
// cancel of the renewal task is lost on one path, the loop checks a flag
// that Release never sets), and the renewal takes the key again when it
// finds it gone (its RenewAfterRelease, a script meant to heal a lapse
// between renewals). After the first release the orphaned renewal
// re-creates the key under a token no client uses any more and keeps it
// alive for ever: the lock stays held after its holder is gone, every
// Acquire is refused, and nobody learns why. Mutual exclusion holds —
// nobody holds at all — so only a progress check sees it. The correct
// Watchdog stops the renewal before it releases.
var watchdogZombie = variant{name: "watchdog-zombie-renewal", of: "watchdog", nodes: 1, claims: claimsOf("watchdog"),
	steps: []string{"RenewAfterRelease"}, pitfall: pitfall.Pitfall{RenewAfterRelease: retakeSource},
	text:    "the renewal outlives the release and re-takes a free key: the lock stays held after its holder is gone",
	summary: "SET NX PX renewed every TTL/3 by a loop Release does not stop, which re-creates a missing key"}

// watchdogLateDone is the bug class "the holder learns of loss only from a
// renewal's outcome" (watchdog-late-done), which lock libraries have
// shipped and fixed: the lease is trusted for as long as the watchdog
// runs, with no validity of its own (its Validity: in effect none runs
// out). On a black-holed connection the renewals neither succeed nor are
// refused, each one times out and is tried again: the key expires on the
// server, another client takes the lock, and the holder's Done stays open
// — and Err nil — for as long as the connection stays black-holed, many
// TTLs later. The correct Watchdog closes Done when the validity runs out
// on the holder's clock, before the key expires.
var watchdogLateDone = variant{name: "watchdog-late-done", of: "watchdog", nodes: 1, claims: claimsOf("watchdog"),
	steps: []string{"Validity"}, pitfall: pitfall.Pitfall{Validity: func(time.Duration, time.Duration) time.Duration { return trusted }},
	text:    "loss learnt only from a renewal's outcome, the lease trusted with no validity of its own: on a black-holed connection Done stays open long after the key expired",
	summary: "SET NX PX renewed every TTL/3, the lease trusted until a renewal is refused, with no validity timer"}

// trusted is the validity watchdog-late-done gives its leases: in effect
// none runs out.
const trusted = 1000 * time.Hour
