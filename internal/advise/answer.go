package advise

// FormatAnswer names the format of an encoded Answer.
const FormatAnswer = "locksim-advise/1"

// Answer is the engine's answer to one situation.
type Answer struct {
	Format    string    `json:"format"`
	Situation Situation `json:"situation"`
	// Use names the patterns to use, best first; empty when none is safe.
	Use []string `json:"use"`
	// Settings are, per pattern of Use (or LeastBad), the settings that
	// make the answer hold.
	Settings map[string]Settings `json:"settings"`
	// NoneSafe: no candidate came through every scenario of the situation
	// without the finding that counts; LeastBad is then the one that
	// fared best and Mitigations what would make one safe.
	NoneSafe    bool         `json:"none_safe"`
	LeastBad    string       `json:"least_bad,omitempty"`
	Mitigations []Mitigation `json:"mitigations"`
	// Counts is the one finding the answer counts (Kind.What).
	Counts string `json:"counts"`
	// Residual is, per pattern of Use (or LeastBad), its worst scenario:
	// the rate of the finding with its 95% Wilson interval.
	Residual []Residual `json:"residual"`
	// NotProtected says what the answer does not protect against.
	NotProtected []string `json:"not_protected"`
	// NotJudged says what the situation asks that no measurement judged.
	NotJudged []string `json:"not_judged"`
	// Real is, per pattern of Use (or LeastBad), what real mode's
	// agreement table says of its scenarios; empty when the evidence
	// holds no table (NotJudged then says so).
	Real []RealCheck `json:"real"`
	// RunnerUp is the best candidate not used and why it lost; nil when
	// there was no other.
	RunnerUp *RunnerUp `json:"runner_up"`
	// Evidence is every cell behind the answer, per scenario.
	Evidence []Judged `json:"evidence"`
	// Source is where the evidence came from.
	Source Source `json:"source"`
}

// Settings are a pattern's settings in an answer; empty fields do not
// apply.
type Settings struct {
	TTL             string `json:"ttl"`
	RenewEvery      string `json:"renew_every,omitempty"`
	WaitReplicas    int    `json:"wait_replicas,omitempty"`
	Appendfsync     string `json:"appendfsync,omitempty"`
	StoreTokenCheck bool   `json:"store_token_check"`
	Nodes           int    `json:"nodes,omitempty"`
	Quorum          int    `json:"quorum,omitempty"`
	Permits         int    `json:"permits,omitempty"`
	// For says when this pattern is the one to use, if not always.
	For string `json:"for,omitempty"`
}

// Residual is a pattern's worst scenario in a situation.
type Residual struct {
	Pattern  string  `json:"pattern"`
	Kind     string  `json:"kind"`
	Scenario string  `json:"scenario"`
	Runs     int     `json:"runs"`
	Seeds    int     `json:"seeds"`
	Rate     float64 `json:"rate"`
	Lo       float64 `json:"lo"`
	Hi       float64 `json:"hi"`
	// Few: clean over fewer seeds than it takes to see a 10% rate with
	// 95% probability; OneSeed: some scenario was judged on one seed.
	Few bool `json:"few"`
	// Scenarios counts the scenarios measured for the pattern: with no
	// failing seed, Scenario is merely the first of them.
	Scenarios int  `json:"scenarios"`
	OneSeed   bool `json:"one_seed"`
	// Replay replays the worst scenario's lowest failing seed ("" when
	// clean).
	Replay string `json:"replay,omitempty"`
}

// RunnerUp is the best candidate not used.
type RunnerUp struct {
	Pattern string `json:"pattern"`
	Why     string `json:"why"`
}

// Mitigation is a change of the situation under which some candidate is
// safe.
type Mitigation struct {
	Change   string   `json:"change"`
	Flags    string   `json:"flags"`
	Use      []string `json:"use"`
	Residual Residual `json:"residual"`
}

// Judged is one cell as the answer judged it.
type Judged struct {
	Pattern  string `json:"pattern"`
	Scenario string `json:"scenario"`
	// Wait: measured with WAIT 1 after every grant and renewal.
	Wait  bool   `json:"wait"`
	Why   string `json:"why"`
	Kind  string `json:"kind"`
	Runs  int    `json:"runs"`
	Seeds int    `json:"seeds"`
	// Lo and Hi bound the rate's 95% Wilson interval.
	Lo      float64 `json:"lo"`
	Hi      float64 `json:"hi"`
	Unfired int     `json:"unfired"`
	// Measured is false when the evidence has no such cell: the scenario
	// was not judged for the pattern.
	Measured bool   `json:"measured"`
	Replay   string `json:"replay,omitempty"`
}

// Source is the evidence's provenance.
type Source struct {
	Commit          string `json:"commit"`
	Seeds           int    `json:"seeds"`
	ProductionSeeds int    `json:"production_seeds"`
}
