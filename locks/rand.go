package locks

import (
	crand "crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"sync"
)

// Rand is the source of owner tokens and retry jitter. Production uses
// CryptoRand; the simulator passes a seeded source so runs replay.
type Rand interface {
	// Token returns a fresh owner token, unique with overwhelming probability.
	Token() string
	// Int64N returns a uniform value in [0, n); n > 0.
	Int64N(n int64) int64
}

// CryptoRand draws from crypto/rand.
type CryptoRand struct{}

// Token returns 16 random bytes, hex encoded.
func (CryptoRand) Token() string {
	var b [16]byte
	_, _ = crand.Read(b[:]) // never fails (crypto/rand documents it)
	return hex.EncodeToString(b[:])
}

// Int64N returns a uniform value in [0, n).
func (CryptoRand) Int64N(n int64) int64 {
	var b [8]byte
	_, _ = crand.Read(b[:])
	return int64(binary.LittleEndian.Uint64(b[:])>>1) % n
}

// SeededRand is a deterministic Rand (PCG), safe for concurrent use.
type SeededRand struct {
	mu   sync.Mutex
	r    *rand.Rand
	name string
	n    uint64
}

// NewSeededRand returns a deterministic source. Tokens are name-counter-
// random, so a trace shows whose token it is.
func NewSeededRand(seed uint64, name string) *SeededRand {
	return &SeededRand{r: rand.New(rand.NewPCG(seed, 0x10c6519)), name: name}
}

// Token returns the next deterministic token.
func (s *SeededRand) Token() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.n++
	return fmt.Sprintf("%s-%d-%06x", s.name, s.n, s.r.Uint32()&0xffffff)
}

// Int64N returns the next deterministic value in [0, n).
func (s *SeededRand) Int64N(n int64) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.r.Int64N(n)
}
