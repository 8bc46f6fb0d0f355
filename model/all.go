package model

import (
	"sort"

	"github.com/anishathalye/porcupine"
)

// Names of the models, as PartitionOf reports them.
const (
	NameCounter  = "counter"
	NameRegister = "register"
	NameLock     = "lock"
)

// Part identifies one partition of a history: a model and a key. A history
// is linearizable if and only if each of its partitions is.
type Part struct {
	Model string
	Key   string
}

func (p Part) String() string { return p.Model + " " + p.Key }

// PartitionOf returns the partition an input belongs to, and false for an
// input of no model in this package.
func PartitionOf(input any) (Part, bool) {
	switch in := input.(type) {
	case SectionIn:
		return Part{NameCounter, in.Key}, true
	case RegisterIn:
		return Part{NameRegister, in.Key}, true
	case LockIn:
		return Part{NameLock, in.Key}, true
	}
	return Part{}, false
}

// Partition splits ops into one partition per Part, ordered by model name
// then key, each keeping the order of ops. Operations whose input belongs
// to no model are dropped. AllModel's Partition function is this one.
func Partition(ops []porcupine.Operation) [][]porcupine.Operation {
	parts := map[Part][]porcupine.Operation{}
	for _, op := range ops {
		if p, ok := PartitionOf(op.Input); ok {
			parts[p] = append(parts[p], op)
		}
	}
	keys := make([]Part, 0, len(parts))
	for p := range parts {
		keys = append(keys, p)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].Model != keys[j].Model {
			return keys[i].Model < keys[j].Model
		}
		return keys[i].Key < keys[j].Key
	})
	out := make([][]porcupine.Operation, len(keys))
	for i, p := range keys {
		out[i] = parts[p]
	}
	return out
}

// partitionBy partitions by a key drawn from each input, keys in order.
func partitionBy(key func(input any) string) func([]porcupine.Operation) [][]porcupine.Operation {
	return func(ops []porcupine.Operation) [][]porcupine.Operation {
		parts := map[string][]porcupine.Operation{}
		for _, op := range ops {
			k := key(op.Input)
			parts[k] = append(parts[k], op)
		}
		keys := make([]string, 0, len(parts))
		for k := range parts {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		out := make([][]porcupine.Operation, len(keys))
		for i, k := range keys {
			out[i] = parts[k]
		}
		return out
	}
}

// AllModel returns one model covering CounterModel, RegisterModel and LockModel: it partitions
// a history with Partition, and within a partition steps the model the
// inputs belong to. Its initial state is nil, which each model reads as its
// own initial state, so a single check covers a history that mixes
// critical sections, store reads and writes, and lock calls.
func AllModel() porcupine.Model {
	models := map[string]porcupine.Model{
		NameCounter: CounterModel(), NameRegister: RegisterModel(), NameLock: LockModel(),
	}
	pick := func(input any) porcupine.Model {
		p, _ := PartitionOf(input)
		return models[p.Model]
	}
	return porcupine.Model{
		Partition: Partition,
		Init:      func() any { return nil },
		Step: func(state, input, output any) (bool, any) {
			m := pick(input)
			if m.Step == nil {
				return false, state
			}
			if state == nil {
				state = m.Init()
			}
			return m.Step(state, input, output)
		},
		Equal:             func(a, b any) bool { return a == b },
		Hash:              hashAny,
		DescribeOperation: func(in, out any) string { return pick(in).DescribeOperation(in, out) },
		DescribeState:     describeAny,
	}
}

func hashAny(state any) uint64 {
	switch s := state.(type) {
	case int64:
		return hashCounter(s)
	case RegisterState:
		return hashRegister(s)
	case LockState:
		return hashLock(s)
	}
	return 0
}

func describeAny(state any) string {
	switch s := state.(type) {
	case int64:
		return describeCounter(s)
	case RegisterState:
		return describeRegister(s)
	case LockState:
		return describeLock(s)
	}
	return "initial"
}
