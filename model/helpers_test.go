package model

import (
	"math"
	"testing"

	"github.com/anishathalye/porcupine"
)

// end is where an operation with an unknown outcome returns.
const end = math.MaxInt64

func op(client int, call, ret int64, in, out any) porcupine.Operation {
	return porcupine.Operation{ClientId: client, Call: call, Return: ret, Input: in, Output: out}
}

type historyCase struct {
	name string
	ops  []porcupine.Operation
	want porcupine.CheckResult
}

func runCases(t *testing.T, m porcupine.Model, cases []historyCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := porcupine.CheckOperationsTimeout(m, c.ops, 0)
			if got != c.want {
				t.Errorf("check = %v, want %v", got, c.want)
			}
		})
	}
}
