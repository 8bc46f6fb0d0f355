package simcheck

import (
	"github.com/locksim/locksim/internal/broken"
	"github.com/locksim/locksim/pattern"
)

// The tests select the broken variants by name beside the correct patterns.
func init() { broken.Extend(pattern.Default) }
