package pattern

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"sync"

	"github.com/locksim/locksim/locks/scripts"
	"github.com/redis/go-redis/v9"
)

// Script names: the simulator's traces show a script a Locker runs (EVAL,
// EVALSHA, SCRIPT LOAD) by name. The patterns' own scripts carry the names
// scripts.All gives them; any other script shows as script:<the first 8
// hex digits of its SHA1> unless it is named here.
var (
	scriptMu    sync.RWMutex
	scriptNames = map[string]string{} // SHA1 → name
	namedSHA    = map[string]string{} // name → SHA1
	builtinSHA  = builtinScripts()
)

func builtinScripts() map[string]string {
	out := map[string]string{}
	for name, src := range scripts.All() {
		out[name] = sha1hex(src)
	}
	return out
}

// NameScript gives s a name the simulator's traces, counterexample traces
// and the harness's pages show in place of its SHA1, and returns s, so a
// Locker names its script where it declares it:
//
//	var acquire = pattern.NameScript("mylock_acquire", redis.NewScript(acquireSrc))
//
// Name scripts before runs start (a package-level var or an init function
// does), so that every run of a seed prints the same trace. A name is a
// word of letters, digits and _ - . (at most 64 bytes). NameScript panics
// (a programming error) on a nil script, a name that is not a word, a name
// scripts.All gives one of the patterns' own scripts, a name already
// given to another script or a script already named otherwise; naming the
// same script the same name again is allowed.
func NameScript(name string, s *redis.Script) *redis.Script {
	if s == nil {
		panic("pattern: NameScript(" + name + "): nil script")
	}
	if err := nameScript(name, s.Hash()); err != nil {
		panic(err.Error())
	}
	return s
}

// NameScriptSource is NameScript for a script the Locker runs by its
// source (Eval, ScriptLoad then EvalSha) rather than as a *redis.Script.
func NameScriptSource(name, src string) {
	if err := nameScript(name, sha1hex(src)); err != nil {
		panic(err.Error())
	}
}

func nameScript(name, sha string) error {
	if err := validScriptName(name); err != nil {
		return err
	}
	if _, builtin := builtinSHA[name]; builtin {
		return fmt.Errorf("pattern: script name %q is one of the patterns' own (scripts.All); choose another", name)
	}
	scriptMu.Lock()
	defer scriptMu.Unlock()
	if old, ok := namedSHA[name]; ok && old != sha {
		return fmt.Errorf("pattern: script name %q already names another script (SHA1 %s)", name, old[:8])
	}
	if old, ok := scriptNames[sha]; ok && old != name {
		return fmt.Errorf("pattern: script %s is already named %q, cannot also be %q", sha[:8], old, name)
	}
	scriptNames[sha], namedSHA[name] = name, sha
	return nil
}

func validScriptName(name string) error {
	if name == "" || len(name) > 64 {
		return fmt.Errorf("pattern: script name %q must be 1 to 64 bytes", name)
	}
	for _, r := range name {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.'
		if !ok {
			return fmt.Errorf("pattern: script name %q: want letters, digits and _ - . only", name)
		}
	}
	return nil
}

// ScriptName returns the name NameScript gave the script with this SHA1
// (lower-case hex, as EVALSHA takes it), or "" for a script not named so.
func ScriptName(sha string) string {
	scriptMu.RLock()
	defer scriptMu.RUnlock()
	return scriptNames[sha]
}

func sha1hex(src string) string {
	h := sha1.Sum([]byte(src))
	return hex.EncodeToString(h[:])
}
