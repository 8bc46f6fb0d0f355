package locks

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

// replyErr is a Redis error reply, as a client library reports one.
type replyErr string

func (e replyErr) Error() string { return string(e) }
func (replyErr) RedisError()     {}

// TestErrorClasses: permanent Redis errors end Acquire at once; transient
// ones (a failover, a loading or busy server, the network) are retried.
func TestErrorClasses(t *testing.T) {
	for _, tc := range []struct {
		err       error
		permanent bool
	}{
		{replyErr("WRONGTYPE Operation against a key holding the wrong kind of value"), true},
		{replyErr("NOPERM this user has no permissions to run the 'evalsha' command"), true},
		{replyErr("NOAUTH Authentication required."), true},
		{replyErr("WRONGPASS invalid username-password pair or user is disabled."), true},
		{replyErr("ERR unknown command 'EVALSHA', with args beginning with: "), true},
		{replyErr("MOVED 3999 127.0.0.1:6381"), true},
		{replyErr("ASK 3999 127.0.0.1:6381"), true},
		{replyErr("CROSSSLOT Keys in request don't hash to the same slot"), true},
		{replyErr("ERR Script attempted to access a non local key in a cluster node"), true},
		{replyErr("ERR value is not an integer or out of range"), true},
		{replyErr("LOADING Redis is loading the dataset in memory"), false},
		{replyErr("BUSY Redis is busy running a script."), false},
		{replyErr("TRYAGAIN Multiple keys request during rehashing of slot"), false},
		{replyErr("CLUSTERDOWN The cluster is down"), false},
		{replyErr("MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to 'no'."), false},
		{replyErr("READONLY You can't write against a read only replica."), false},
		// Redis 7 keeps a failed redis.call's code; Redis < 7 wraps it.
		{replyErr("READONLY You can't write against a read only replica. script: 9811b575a4ffce6e, on @user_script:1."), false},
		{replyErr("ERR Error running script (call to f_9811b575a4ffce6e): @user_script:1: @user_script: 1: -READONLY You can't write against a read only replica. "), false},
		{replyErr("ERR Error running script (call to f_9811b575a4ffce6e): @user_script:1: @user_script: 1: -WRONGTYPE Operation against a key holding the wrong kind of value "), true},
		{replyErr("ERR Error running script (call to f_9811b575a4ffce6e): @user_script:3: user_script:3: attempt to compare nil with number "), true},
		{fmt.Errorf("dial tcp 127.0.0.1:1: connect: connection refused"), false},
		{context.DeadlineExceeded, false},
		{fmt.Errorf("acquire: %w", replyErr("NOPERM no")), true},
	} {
		err := wrap("acquire", "k", tc.err)
		if got := errors.Is(err, ErrPermanent); got != tc.permanent {
			t.Errorf("errors.Is(wrap(%q), ErrPermanent) = %v, want %v", tc.err, got, tc.permanent)
		}
		if got := retryable(context.Background(), err); got == tc.permanent {
			t.Errorf("retryable(%q) = %v, want %v", tc.err, got, !tc.permanent)
		}
		if !errors.Is(err, tc.err) {
			t.Errorf("wrap(%q) lost the Redis error from its chain: %v", tc.err, err)
		}
	}
}
