package explore

// The broken variants register themselves in the pattern registry; this
// package selects them by name beside the correct patterns.
import _ "github.com/locksim/locksim/internal/broken"
