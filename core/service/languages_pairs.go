package service

import (
	"context"

	"github.com/dragoman-translate/dragoman/core/translate"
)

// LanguagePair is one served pair, the languages it goes through over a
// chain and the engine of each leg.
type LanguagePair struct {
	Source, Target string   // names
	Via            []string // names, empty for a direct pair
	Engines        []string
}

// LanguagePairs lists every pair the configured engines serve.
func (s *Languages) LanguagePairs(ctx context.Context) ([]LanguagePair, error) {
	engines, err := s.engines(ctx)
	if err != nil {
		return nil, err
	}
	out := []LanguagePair{}
	for _, p := range translate.ServedPairs(engines) {
		lp := LanguagePair{Source: p.Source.Name, Target: p.Target.Name, Engines: p.Engines}
		for _, v := range p.Via {
			lp.Via = append(lp.Via, v.Name)
		}
		out = append(out, lp)
	}
	return out, nil
}
