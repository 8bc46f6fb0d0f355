package report

import (
	"fmt"
	"strings"
	"time"

	"github.com/locksim/locksim/internal/gate"
	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim"
)

// production writes the production-faults section from pm, the patterns
// measured under the production scenarios (MeasureProduction); nothing
// when there is none.
func production(d *Document, pm *Measurements) {
	if pm == nil || len(pm.Scenarios) == 0 {
		return
	}
	d.heading(2, "production", "Production faults: fault schedules, split brain, WAIT and finer triggers")
	d.para(text("The built-in scenarios place one fault by hand. Lock failures seen in production need more: faults drawn from distributions over the run, a split brain, a half-open connection, a CPU-starved watchdog, an fsync window, replicas that lag by a distribution or fail over more than once, WAIT for replicas, faults at an acquisition's N-th attempt, at a request sent or a reply received, or at an offset from a point, and clients that extend by hand or misuse the API; and a lossy link, which no built-in has either. "),
		text("Each scenario below is one of the gate's own files (%s/NAME.txt; ", gate.ScenarioDir), code("locksim run --scenario NAME"),
		text(" replays it); %d simulations ran %d patterns under %d of them (%s).", pm.Runs, len(pm.Patterns), len(pm.Scenarios), seedsRule(pm)))
	d.para(text("Each scenario's table has every correct pattern, then each broken variant that broke a claim there while the pattern it imitates did not (the variant's own mistake, not a limit both share), and the replay command of every violating row's first seed. "),
		text("Each row reads the seeds that broke a safety claim/seeds (the rate, then its 95%% Wilson interval) and the violations of the pattern's safety claims per hour of simulated time and per million successful acquisitions, summed over its seeds: "),
		text("a safety violation is an overlapping pair of critical sections (mutex), a lost update (safe-store), a reused or decreasing token (fencing) or a section past the holder limit (max-holders). "),
		text("A loss signalled late (promptness: loss-signal) and a stall past the progress bound (liveness: progress) have columns of their own, never pooled with safety. "),
		text("%s", drawnNote(pm)),
		text(" A cell whose fault never fired in some seeds (its trigger point was not reached, e.g. a renewal in a pattern that does not renew) says so: such a seed is clean by default. "),
		text("locksim run and explore print the same two rates over every oracle finding, claimed or not, so theirs are higher where a pattern breaks a property it does not claim (the lost updates of readers and permits, which share by design)."))
	d.add(productionScenarioTable(pm))
	d.heading(3, "production-grid", "Seeds that broke a safety claim, every correct pattern")
	d.para(text("Red: a safety claim (mutex, safe-store, fencing, max-holders) broke in that many seeds; green: none did; yellow: none did, but the fault did not fire in every seed (the count of seeds it fired in follows); \"not fired\" (see the "), link("glossary", "#glossary"), text("): in no seed; \"refused\": the pattern refuses the scenario's options, so it did not run. "),
		text("Late loss signals and stalls colour no cell here: they are the grids below. The scenario's table has the interval and the rates."))
	d.add(productionGrid(pm, Safety))
	d.heading(3, "production-grid-promptness", "Seeds with a late loss signal, every correct pattern")
	d.para(text("The same runs, counting the seeds in which some holder learnt of its loss later than its pattern's "), link("loss-signal", "#glossary"), text(" bound (promptness): a starved watchdog or a black-holed renewal shows here, with or without a safety violation."))
	d.add(productionGrid(pm, Promptness))
	d.heading(3, "production-grid-liveness", "Seeds with a stall, every correct pattern")
	d.para(text("The same runs, counting the seeds in which the lock was free and no waiting client took it within the progress bound (liveness)."))
	d.add(productionGrid(pm, Liveness))
	for j := range pm.Scenarios {
		productionScenario(d, pm, j)
	}
}

// seedsRule states the seed counts run, by simulated length.
func seedsRule(pm *Measurements) string {
	var parts []string
	seen := map[string]bool{}
	for _, s := range pm.Scenarios {
		p := fmt.Sprintf("%s of %v simulated", seedsText(s.Seeds), s.Duration)
		if !seen[p] {
			seen[p] = true
			parts = append(parts, p)
		}
	}
	return "seeds 1..N per scenario: " + strings.Join(parts, ", ")
}

// drawnNote says which scenarios draw their faults over the run, whose
// hourly rate is one of operation under that fault process.
func drawnNote(pm *Measurements) string {
	var drawn []string
	for _, s := range pm.Scenarios {
		if s.Drawn {
			drawn = append(drawn, s.Name)
		}
	}
	s := "Under a scenario that places its faults by hand, the hour is made of runs that each meet them: compare patterns within a scenario."
	switch len(drawn) {
	case 0:
	case 1:
		s += fmt.Sprintf(" %s draws its faults over the run from distributions (a schedule): there the hourly rate is that of a service running under that fault process.", drawn[0])
	default:
		s += fmt.Sprintf(" %s draw their faults over the run from distributions (schedules): there the hourly rate is that of a service running under that fault process.", strings.Join(drawn, ", "))
	}
	return s
}

// productionScenarioTable says per scenario what it models (its own
// summary), the directives that make its faults, and its seeds.
func productionScenarioTable(pm *Measurements) Table {
	t := Table{Header: []string{"scenario", "what it models", "faults (scenario text)", "seeds", "simulated"}, Prose: true}
	for _, s := range pm.Scenarios {
		var dirs []Span
		for k, line := range s.Text {
			if k > 0 {
				dirs = append(dirs, text("; "))
			}
			dirs = append(dirs, code(line))
		}
		t.Rows = append(t.Rows, []TCell{cell(Plain, link(s.Name, "#production-"+s.Name)), plain("%s", s.Summary), cell(Plain, dirs...),
			plain("%d", s.Seeds), plain("%v", s.Duration)})
	}
	return t
}

// productionGrid is violating seeds/seeds of every correct pattern (a
// column each) under every production scenario (a row each, linked to its
// table).
func productionGrid(pm *Measurements, k ClaimKind) Table {
	t := Table{Header: []string{"scenario"}}
	rows := pm.patternRows(false)
	for _, i := range rows {
		t.Header = append(t.Header, pm.Patterns[i].Name)
	}
	for j, s := range pm.Scenarios {
		r := []TCell{cell(Plain, link(s.Name, "#production-"+s.Name))}
		for _, i := range rows {
			if !Makes(pm.Patterns[i].Claims, k) {
				r = append(r, cell(Plain, text("not claimed")))
				continue
			}
			r = append(r, gridCell(pm.Cells[i][j], k))
		}
		t.Rows = append(t.Rows, r)
	}
	return t
}

// gridCell is k/n of one kind of claim, red when one broke, grey-plain
// when the fault fired in no seed.
func gridCell(c *Cell, kind ClaimKind) TCell {
	if c.Refused != "" {
		return cell(Plain, text("refused"))
	}
	k := c.Kinds[kind].Violating
	s := text("%d/%d", k, c.Seeds)
	switch {
	case k > 0:
		return cell(Bad, s)
	case c.Seeds > 0 && c.Unfired == c.Seeds:
		return cell(Plain, text("not fired"))
	case c.Unfired > 0:
		return cell(Warn, s, text(" (fired in %d)", c.Seeds-c.Unfired))
	}
	return cell(Good, s)
}

// productionScenario is one scenario's table: every correct pattern, and
// the broken variants caught where the pattern they imitate is clean; then
// the replay of each violating row's first seed.
func productionScenario(d *Document, pm *Measurements, j int) {
	s := pm.Scenarios[j]
	d.heading(3, "production-"+s.Name, s.Name)
	d.para(text("%s. %s of %v simulated, %d clients.", s.Summary, seedsText(s.Seeds), s.Duration, s.Clients))
	t := Table{Header: []string{"pattern", "safety: violating seeds", "claims broken, by kind", "safety violations", "per simulated hour", "per million acquisitions", "promptness: seeds with a late signal", "liveness: seeds with a stall", "acquisitions", "faults fired"}}
	var replays List
	var refused []string
	example := ""
	for _, i := range pm.productionRows(j) {
		c, name := pm.Cells[i][j], pm.Patterns[i].Name
		if c.Refused != "" {
			refused = append(refused, name)
			if example == "" {
				example = name + ": " + c.Refused
			}
			continue
		}
		if pm.Patterns[i].Broken {
			name += " (broken variant)"
		}
		t.Rows = append(t.Rows, productionRow(name, pm.Patterns[i].Claims, c))
		if c.Violating > 0 {
			replays = append(replays, []Span{text("%s, seed %d: ", c.Pattern, c.FirstSeed), code(replay(c))})
		}
	}
	d.add(t)
	if len(refused) > 0 {
		d.para(text("Not run, refusing the scenario's options: %s (e.g. %s).", strings.Join(refused, ", "), example))
	}
	if len(replays) > 0 {
		d.para(text("Replay the first violating seed:"))
		d.add(replays)
	}
}

// productionRows are the patterns of scenario j's table: every correct
// one, then each broken variant that broke a claim where the pattern it
// imitates did not (it shows its own mistake, not a limit both share).
func (m *Measurements) productionRows(j int) []int {
	rows := m.patternRows(false)
	for _, i := range m.patternRows(true) {
		cp := m.counterpart(i)
		if m.Cells[i][j].Violating > 0 && (cp < 0 || m.Cells[cp][j].Violating == 0) {
			rows = append(rows, i)
		}
	}
	return rows
}

func productionRow(name string, claims pattern.Claims, c *Cell) []TCell {
	rate := rateCell(c)
	broken := "–"
	if len(c.Violated) > 0 {
		broken = kindsBroken(c)
	}
	sf := c.Kinds[Safety]
	fired := plain("%d/%d", c.Seeds-c.Unfired, c.Seeds)
	if c.Unfired > 0 {
		fired.Tone = Warn
	}
	return []TCell{plain("%s", name), rate, plain("%s", broken), plain("%d", sf.Violations),
		plain("%s", compact(sim.PerSimHour(sf.Violations, c.SimTime))), plain("%s", compact(sim.PerMillionAcquisitions(sf.Violations, c.Acquisitions))),
		claimedCell(claims, c, Promptness), claimedCell(claims, c, Liveness),
		plain("%d in %v", c.Acquisitions, c.SimTime.Round(time.Millisecond)), fired}
}
