package locks

import (
	"context"
	"fmt"
	"reflect"
	"time"

	"github.com/redis/go-redis/v9"
)

// Redis is the narrow Redis seam the patterns use: scripts, plus SET NX PX.
// *redis.Client, *redis.ClusterClient and *redis.Ring satisfy it, and so does
// the simulator's client.
type Redis interface {
	redis.Scripter
	SetNX(ctx context.Context, key string, value any, expiration time.Duration) *redis.BoolCmd
}

var (
	_ Redis = (*redis.Client)(nil)
	_ Redis = (*redis.ClusterClient)(nil)
)

// isNil reports whether r is nil, or a typed nil (a nil *redis.Client in
// the interface), which would panic on its first call.
func isNil(r Redis) bool {
	if r == nil {
		return true
	}
	v := reflect.ValueOf(r)
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface, reflect.Map, reflect.Slice, reflect.Func, reflect.Chan:
		return v.IsNil()
	}
	return false
}

// nilName names a nil r for an OptionError: "nil" or "*redis.Client(nil)".
func nilName(r Redis) string {
	if r == nil {
		return "nil"
	}
	return fmt.Sprintf("%T(nil)", r)
}

func runInt(ctx context.Context, r Redis, s *redis.Script, keys []string, args ...any) (int64, error) {
	return s.Run(ctx, r, keys, args...).Int64()
}
