package pattern

// Finding names a kind of violation the oracles find, as results spell
// it (a violation's Kind): the typed set, beside the claims they break.
type Finding string

// The findings, each with the claim it breaks.
const (
	FindingOverlap    Finding = "overlap"     // ClaimMutex
	FindingHolders    Finding = "holders"     // ClaimMaxHolders
	FindingLostUpdate Finding = "lost-update" // ClaimSafeStore
	FindingFence      Finding = "fence"       // ClaimFencing
	FindingStall      Finding = "stall"       // ClaimProgress
	FindingLateSignal Finding = "late-signal" // the loss-signal claim (Claims.LossSignal)
)
