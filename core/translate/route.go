package translate

import (
	"fmt"
	"strings"

	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/plugins/sdk/language"
)

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
		s, okS := language.ByCode(src)
		t, okT := language.ByCode(tgt)
		// A variant (Valencian, Brazilian Portuguese) only where listed.
		if okS && okT && !s.IsVariant() && !t.IsVariant() {
			return true
		}
	}
	for _, p := range c.Pairs {
		if p.Source == src && p.Target == tgt {
			return true
		}
	}
	return false
}

// Routes overrides the priority order for some pairs: pair → engine name.
type Routes map[language.Pair]string

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
		var p language.Pair
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

// route is the engine for one leg src→tgt: the one a route names if it is
// enabled and serves the pair, else the first in priority order that does.
func (r Routes) route(engines []ports.Engine, src, tgt string) (ports.Engine, bool) {
	for _, p := range []language.Pair{{Source: src, Target: tgt}, {Source: "*", Target: tgt}, {Source: src, Target: "*"}} {
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
