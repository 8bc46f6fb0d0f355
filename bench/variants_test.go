package bench

// The broken variants register themselves in the pattern registry; the
// tests select them by name.
import _ "github.com/locksim/locksim/internal/broken"
