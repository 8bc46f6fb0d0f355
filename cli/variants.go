package cli

// The broken variants register themselves in the pattern registry, so that
// every command selects them by name beside the correct patterns.
import _ "github.com/locksim/locksim/internal/broken"
