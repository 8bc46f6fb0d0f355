package sim

import "time"

// RatePerSimHour is the run's violations per hour of simulated time, the
// rate a team compares with its own tolerance under a fault schedule (0
// when no time was simulated).
func (r *Result) RatePerSimHour() float64 {
	if r.Stats.SimTime <= 0 {
		return 0
	}
	return float64(r.Stats.Violations) / (float64(r.Stats.SimTime) / float64(time.Hour))
}

// RatePerMillionAcquisitions is the run's violations per million
// successful acquisitions (0 when there were none).
func (r *Result) RatePerMillionAcquisitions() float64 {
	if r.Liveness.Acquisitions == 0 {
		return 0
	}
	return float64(r.Stats.Violations) * 1e6 / float64(r.Liveness.Acquisitions)
}
