package translate

import (
	"fmt"
	"sort"
	"strings"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/plugins/sdk/language"
)

// MaxLegs is the longest chain of served pairs a language pair is routed
// over: Apertium's 84 directed pairs reach 299 pairs within three legs.
const MaxLegs = 3

// Leg is one engine translating one direction.
type Leg struct {
	Engine ports.Engine
	Source string
	Target string
}

// Graph is the served pairs of a list of engines as a directed graph of
// languages, for routing over chains. Build one per engine list and ask
// it many questions: the legs it chooses are remembered.
type Graph struct {
	engines []ports.Engine
	routes  Routes
	out     map[string][]string // explicit pairs: source → targets
	degree  map[string]int      // explicit pairs a language is in
	anyway  bool                // an engine serves every registry pair
	legs    map[language.Pair]choice
}

type choice struct {
	e    ports.Engine
	rank int // the engine's place in priority order
	ok   bool
}

// Graph builds the routing graph of engines with r's overrides.
func (r Routes) Graph(engines []ports.Engine) *Graph {
	g := &Graph{engines: engines, routes: r, out: map[string][]string{}, degree: map[string]int{}, legs: map[language.Pair]choice{}}
	seen := map[language.Pair]bool{}
	for _, e := range engines {
		if e.Caps.AnyToAny {
			g.anyway = true
			continue
		}
		for _, p := range e.Caps.Pairs {
			if seen[p] || p.Source == p.Target {
				continue
			}
			seen[p] = true
			g.out[p.Source] = append(g.out[p.Source], p.Target)
			g.degree[p.Source]++
			g.degree[p.Target]++
		}
	}
	return g
}

// Plan chooses how src→tgt is translated (see Graph.Plan).
func (r Routes) Plan(engines []ports.Engine, src, tgt string) ([]Leg, bool) {
	return r.Graph(engines).Plan(src, tgt)
}

func (g *Graph) leg(src, tgt string) choice {
	p := language.Pair{Source: src, Target: tgt}
	if c, ok := g.legs[p]; ok {
		return c
	}
	var c choice
	if e, ok := g.routes.route(g.engines, src, tgt); ok {
		c = choice{e: e, ok: true}
		for i := range g.engines {
			if g.engines[i].Name == e.Name {
				c.rank = i
				break
			}
		}
	}
	g.legs[p] = c
	return c
}

// Plan chooses the legs of src→tgt: a direct pair if an engine serves it
// (a route's engine, else the first in priority order), else the shortest
// chain of served pairs up to MaxLegs, across engines. Among chains of
// the same length the one whose engines come first in priority order
// wins, then the one through the languages most pairs meet in (Apertium's
// best-kept pairs go through Spanish, Catalan and English), then by code,
// so a pair always takes the same route. ok is false when none reaches.
func (g *Graph) Plan(src, tgt string) ([]Leg, bool) {
	if c := g.leg(src, tgt); c.ok {
		return []Leg{{c.e, src, tgt}}, true
	}
	for n := 2; n <= MaxLegs; n++ {
		var best []string
		var bestCost pathCost
		path := []string{src}
		var walk func()
		walk = func() {
			last := path[len(path)-1]
			if len(path) == n { // n-1 hops made: the last leg reaches tgt
				if c := g.leg(last, tgt); c.ok {
					full := append(append([]string(nil), path...), tgt)
					if cost := g.cost(full); best == nil || cost.less(bestCost) {
						best, bestCost = full, cost
					}
				}
				return
			}
			for _, next := range g.next(last) {
				if next == tgt || contains(path, next) {
					continue
				}
				path = append(path, next)
				walk()
				path = path[:len(path)-1]
			}
		}
		walk()
		if best != nil {
			legs := make([]Leg, 0, n)
			for i := 0; i+1 < len(best); i++ {
				legs = append(legs, Leg{g.leg(best[i], best[i+1]).e, best[i], best[i+1]})
			}
			return legs, true
		}
	}
	return nil, false
}

// pathCost orders chains of one length.
type pathCost struct {
	worst, sum int      // engine ranks
	hubs       []int    // the intermediate languages' degrees
	via        []string // their codes
}

func (g *Graph) cost(path []string) pathCost {
	var c pathCost
	for i := 0; i+1 < len(path); i++ {
		r := g.leg(path[i], path[i+1]).rank
		c.worst, c.sum = max(c.worst, r), c.sum+r
	}
	for _, l := range path[1 : len(path)-1] {
		c.hubs = append(c.hubs, g.degree[l])
		c.via = append(c.via, l)
	}
	return c
}

func (a pathCost) less(b pathCost) bool {
	if a.worst != b.worst {
		return a.worst < b.worst
	}
	if a.sum != b.sum {
		return a.sum < b.sum
	}
	for i := range a.hubs {
		if a.hubs[i] != b.hubs[i] {
			return a.hubs[i] > b.hubs[i]
		}
	}
	for i := range a.via {
		if a.via[i] != b.via[i] {
			return a.via[i] < b.via[i]
		}
	}
	return false
}

// next lists the languages one leg reaches from l: the explicit pairs,
// and every registry language but the variants when an engine serves any
// pair.
func (g *Graph) next(l string) []string {
	if !g.anyway {
		return g.out[l]
	}
	if src, ok := language.ByCode(l); !ok || src.IsVariant() {
		return g.out[l]
	}
	out := append([]string(nil), g.out[l]...)
	for _, t := range language.All() {
		if !t.IsVariant() && t.Code != l && !contains(g.out[l], t.Code) {
			out = append(out, t.Code)
		}
	}
	return out
}

// Reach lists the codes src reaches within MaxLegs, src excluded, sorted.
func (g *Graph) Reach(src string) []string {
	var out []string
	seen := map[string]bool{src: true}
	front := []string{src}
	for d := 0; d < MaxLegs; d++ {
		var next []string
		for _, l := range front {
			for _, t := range g.next(l) {
				if !seen[t] {
					seen[t] = true
					next = append(next, t)
					out = append(out, t)
				}
			}
		}
		front = next
	}
	sort.Strings(out)
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Servable reports whether the engines can translate src→tgt, directly or
// over a chain (see Graph.Plan). Submission checks use it.
func Servable(engines []ports.Engine, src, tgt string) bool {
	_, ok := Routes(nil).Plan(engines, src, tgt)
	return ok
}

// Targets lists the registry languages reachable from at least one
// source, directly or over a chain.
func Targets(engines []ports.Engine) []language.Language {
	g := Routes(nil).Graph(engines)
	reached := map[string]bool{}
	for _, s := range language.All() {
		for _, t := range g.Reach(s.Code) {
			reached[t] = true
		}
	}
	var out []language.Language
	for _, l := range language.All() {
		if reached[l.Code] {
			out = append(out, l)
		}
	}
	return out
}

// engineNames is the engines of a route, each once, in order.
func engineNames(legs []Leg) string {
	var names []string
	for _, l := range legs {
		if !contains(names, l.Engine.Name) {
			names = append(names, l.Engine.Name)
		}
	}
	return strings.Join(names, "+")
}

// route is the legs as a job records them.
func route(legs []Leg) []job.Leg {
	out := make([]job.Leg, len(legs))
	for i, l := range legs {
		out[i] = job.Leg{Source: l.Source, Target: l.Target, Engine: l.Engine.Name}
	}
	return out
}

// chainWarning says which languages a chained translation went through:
// each leg loses some nuance.
func chainWarning(legs []Leg) string {
	var via, steps []string
	for i, l := range legs {
		if i > 0 {
			via = append(via, language.NameOf(l.Source))
		}
		steps = append(steps, fmt.Sprintf("%s→%s with %s", language.NameOf(l.Source), language.NameOf(l.Target), l.Engine.Name))
	}
	return fmt.Sprintf("no enabled engine translates %s to %s directly; the text was translated through %s (%s), which loses some nuance",
		language.NameOf(legs[0].Source), language.NameOf(legs[len(legs)-1].Target), strings.Join(via, " and "), strings.Join(steps, ", then "))
}
