package translate

import (
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/plugins/sdk/language"
)

// ServedPair is one language pair the engines translate, with the engine
// of each leg (two legs when the pair goes through English).
type ServedPair struct {
	Source, Target language.Language
	Engines        []string
}

// ServedPairs lists every registry pair the engines serve, directly or
// through English, in registry order (issue 10: the languages a user can
// actually get).
func ServedPairs(engines []ports.Engine) []ServedPair {
	var out []ServedPair
	all := language.All()
	for _, s := range all {
		for _, t := range all {
			if s.Code == t.Code {
				continue
			}
			legs, ok := Routes(nil).Plan(engines, s.Code, t.Code)
			if !ok {
				continue
			}
			p := ServedPair{Source: s, Target: t}
			for _, l := range legs {
				p.Engines = append(p.Engines, l.Engine.Caps.Name)
			}
			out = append(out, p)
		}
	}
	return out
}

// Reachable lists the targets the engines reach from src.
func Reachable(engines []ports.Engine, src string) []language.Language {
	var out []language.Language
	for _, t := range language.All() {
		if t.Code != src && Servable(engines, src, t.Code) {
			out = append(out, t)
		}
	}
	return out
}
