package translate

import (
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/plugins/sdk/language"
)

// ServedPair is one language pair the engines translate, with the
// languages and engine of each leg (more than one leg over a chain).
type ServedPair struct {
	Source, Target language.Language
	Via            []language.Language // the languages between, in order
	Engines        []string            // one per leg
}

// ServedPairs lists every registry pair the engines serve, directly or
// over a chain, in registry order (issue 10: the languages a user can
// actually get).
func ServedPairs(engines []ports.Engine) []ServedPair {
	g := Routes(nil).Graph(engines)
	var out []ServedPair
	for _, s := range language.All() {
		reach := map[string]bool{}
		for _, t := range g.Reach(s.Code) {
			reach[t] = true
		}
		for _, t := range language.All() {
			if !reach[t.Code] {
				continue
			}
			legs, ok := g.Plan(s.Code, t.Code)
			if !ok {
				continue
			}
			p := ServedPair{Source: s, Target: t}
			for i, l := range legs {
				if i > 0 {
					v, _ := language.ByCode(l.Source)
					p.Via = append(p.Via, v)
				}
				p.Engines = append(p.Engines, l.Engine.Caps.Name)
			}
			out = append(out, p)
		}
	}
	return out
}

// Reachable lists the registry languages the engines reach from src, in
// registry order.
func Reachable(engines []ports.Engine, src string) []language.Language {
	reach := map[string]bool{}
	for _, t := range Routes(nil).Graph(engines).Reach(src) {
		reach[t] = true
	}
	var out []language.Language
	for _, t := range language.All() {
		if reach[t.Code] {
			out = append(out, t)
		}
	}
	return out
}
