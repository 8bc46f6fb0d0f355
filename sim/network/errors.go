package network

import "fmt"

// TimeoutError is a call that got no reply within the client-side timeout
// (go-redis's ReadTimeout). Like net.Error, it reports Timeout() true.
type TimeoutError struct {
	Client, Endpoint string
}

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("read %s→%s: i/o timeout", e.Client, e.Endpoint)
}

// Timeout is true: this is a timeout.
func (e *TimeoutError) Timeout() bool { return true }

// Temporary is true, as for a net timeout.
func (e *TimeoutError) Temporary() bool { return true }

// ClosedError is a call whose connection the endpoint closed before it
// answered (a node that crashed under a blocked command).
type ClosedError struct {
	Client, Endpoint string
}

func (e *ClosedError) Error() string {
	return fmt.Sprintf("read %s→%s: connection reset by peer", e.Client, e.Endpoint)
}

// RefusedError is a request that reached an endpoint that is down.
type RefusedError struct {
	Client, Endpoint string
}

func (e *RefusedError) Error() string {
	return fmt.Sprintf("dial %s→%s: connect: connection refused", e.Client, e.Endpoint)
}

// ResetError is a call on a connection that its endpoint closed (the node
// crashed or failed over since the connection's last write).
type ResetError struct {
	Client, Endpoint string
}

func (e *ResetError) Error() string {
	return fmt.Sprintf("read %s→%s: connection reset by peer", e.Client, e.Endpoint)
}
