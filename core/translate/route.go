package translate

import (
	"fmt"
	"strings"

	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/plugins/sdk/language"
)

// Pivot is the language two engines meet in when none translates a pair
// directly.
const Pivot = "en"

// Route returns the first engine, in priority order, that serves src→tgt.
func Route(engines []ports.Engine, src, tgt string) (ports.Engine, bool) {
	for _, e := range engines {
		if Serves(e.Caps, src, tgt) {
			return e, true
		}
	}
	return ports.Engine{}, false
}

// Serves reports whether an engine translates src→tgt.
func Serves(c ports.Capabilities, src, tgt string) bool {
	if c.AnyToAny {
		_, okS := language.ByCode(src)
		_, okT := language.ByCode(tgt)
		return okS && okT
	}
	for _, p := range c.Pairs {
		if p.Source == src && p.Target == tgt {
			return true
		}
	}
	return false
}

// Servable reports whether the engines can translate src→tgt, directly or
// through English (see Plan). Submission checks use it.
func Servable(engines []ports.Engine, src, tgt string) bool {
	_, ok := Routes(nil).Plan(engines, src, tgt)
	return ok
}

// Targets lists the registry languages reachable from at least one source
// (directly or through English), by name.
func Targets(engines []ports.Engine) []language.Language {
	reached := map[string]bool{}
	for _, p := range ServedPairs(engines) {
		reached[p.Target.Code] = true
	}
	var out []language.Language
	for _, l := range language.All() {
		if reached[l.Code] {
			out = append(out, l)
		}
	}
	return out
}

// Routes overrides the priority order for some pairs: pair → engine name.
type Routes map[ports.Pair]string

// ParseRoutes reads DRAGOMAN_ROUTES, e.g. "en:ar=openai, fr:es=apertium".
// Languages are registry names or codes; "*" as a source or target means
// any ("*:he=deepl").
func ParseRoutes(s string) (Routes, error) {
	r := Routes{}
	for _, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		pair, engine, ok := strings.Cut(item, "=")
		src, tgt, ok2 := strings.Cut(pair, ":")
		engine = strings.ToLower(strings.TrimSpace(engine))
		if !ok || !ok2 || engine == "" {
			return nil, fmt.Errorf("DRAGOMAN_ROUTES: %q is not source:target=engine", item)
		}
		var p ports.Pair
		for i, name := range []string{src, tgt} {
			code := "*"
			if name = strings.TrimSpace(name); name != "*" {
				l, err := language.Lookup(name)
				if err != nil {
					return nil, fmt.Errorf("DRAGOMAN_ROUTES: %q: %w", item, err)
				}
				code = l.Code
			}
			if i == 0 {
				p.Source = code
			} else {
				p.Target = code
			}
		}
		r[p] = engine
	}
	return r, nil
}

// Leg is one engine translating one direction.
type Leg struct {
	Engine ports.Engine
	Source string
	Target string
}

// Plan chooses how src→tgt is translated: by the engine a route names if
// that engine is enabled and serves the pair, else by the first engine in
// priority order that does, else in two legs through English when both
// legs are served. ok is false when none of that works.
func (r Routes) Plan(engines []ports.Engine, src, tgt string) ([]Leg, bool) {
	if e, ok := r.route(engines, src, tgt); ok {
		return []Leg{{e, src, tgt}}, true
	}
	if src == Pivot || tgt == Pivot {
		return nil, false
	}
	first, ok1 := r.route(engines, src, Pivot)
	second, ok2 := r.route(engines, Pivot, tgt)
	if !ok1 || !ok2 {
		return nil, false
	}
	return []Leg{{first, src, Pivot}, {second, Pivot, tgt}}, true
}

func (r Routes) route(engines []ports.Engine, src, tgt string) (ports.Engine, bool) {
	for _, p := range []ports.Pair{{Source: src, Target: tgt}, {Source: "*", Target: tgt}, {Source: src, Target: "*"}} {
		name, ok := r[p]
		if !ok {
			continue
		}
		for _, e := range engines {
			if e.Name == name && Serves(e.Caps, src, tgt) {
				return e, true
			}
		}
	}
	return Route(engines, src, tgt)
}
