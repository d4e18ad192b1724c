package service

import "context"

// TargetsBySource maps each source language (by name, "auto" for
// detection) to the target names the enabled engines can reach from it, so
// a form offers only pairs that will be accepted. It is LanguagePairs
// grouped by source.
func (s *Languages) TargetsBySource(ctx context.Context) (map[string][]string, error) {
	pairs, err := s.LanguagePairs(ctx)
	if err != nil {
		return nil, err
	}
	out := map[string][]string{}
	auto := map[string]bool{}
	for _, p := range pairs {
		out[p.Source] = append(out[p.Source], p.Target)
		if !auto[p.Target] {
			auto[p.Target] = true
			out["auto"] = append(out["auto"], p.Target)
		}
	}
	return out, nil
}
