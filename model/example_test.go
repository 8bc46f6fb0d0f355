package model_test

import (
	"fmt"
	"time"

	"github.com/locksim/locksim/model"
)

// A property test drives the reference lock beside the real one and
// compares every outcome; here the reference alone shows what it promises.
func ExampleLock() {
	ref, err := model.NewLock(model.LockSpec{TTL: 100 * time.Millisecond, Reentrant: true})
	if err != nil {
		panic(err)
	}
	fmt.Println(ref.Acquire("alice")) // first grant
	fmt.Println(ref.Acquire("alice")) // re-entry: count 2, TTL reset
	fmt.Println(ref.Acquire("bob"))   // refused while alice holds it
	ref.Advance(100 * time.Millisecond)
	fmt.Println(ref.Holder())         // the grant ran out
	fmt.Println(ref.Release("alice")) // too late: not held
	fmt.Println(ref.Acquire("bob"))
	// Output:
	// {true 1 0}
	// {true 2 0}
	// {false 0 0}
	//  0
	// 0 false
	// {true 1 0}
}

func ExampleFencedStore() {
	store := &model.FencedStore{Checking: true}
	fmt.Println(store.Write(2, 10)) // holder with token 2
	fmt.Println(store.Write(1, 99)) // a stale holder, token 1: rejected
	fmt.Println(store.Read(), store.Highest())
	// Output:
	// true
	// false
	// 10 2
}
