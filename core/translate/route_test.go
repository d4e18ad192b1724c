package translate

import (
	"slices"
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/core/glossary"
	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/plugins/sdk/language"
	"github.com/dragoman-translate/dragoman/plugins/sdk/translation"
)

func pairs(list ...string) []language.Pair { return parsePairs(strings.Join(list, " ")) }

// path renders a plan as "en>es>fr a,a".
func path(legs []Leg) string {
	var langs, engines []string
	for i, l := range legs {
		if i == 0 {
			langs = append(langs, l.Source)
		}
		langs = append(langs, l.Target)
		engines = append(engines, l.Engine.Name)
	}
	return strings.Join(langs, ">") + " " + strings.Join(engines, ",")
}

// TestChainsOfServedPairs (issue 22 §2): a pair is routed over the
// shortest chain of served pairs, up to three legs and across engines,
// preferring a direct pair, then fewer legs, then engine priority.
func TestChainsOfServedPairs(t *testing.T) {
	engines := []ports.Engine{
		engine("a", nil, ports.Capabilities{Pairs: pairs("en>es", "es>fr", "es>pt", "pt>gl", "fr>oc", "en>ca", "ca>it")}),
		engine("b", nil, ports.Capabilities{Pairs: pairs("ca>fr", "en>it", "gl>br", "it>sc")}),
	}
	g := Routes(nil).Graph(engines)
	for pair, want := range map[string]string{
		"en>es": "en>es a",
		"en>it": "en>it b",      // direct, although engine b comes second
		"en>fr": "en>es>fr a,a", // en>ca>fr is as short, but b comes second
		"en>gl": "en>es>pt>gl a,a,a",
		"en>oc": "en>es>fr>oc a,a,a",
		"en>sc": "en>it>sc b,b", // two legs of b before three of a
		"es>gl": "es>pt>gl a,a",
		"ca>oc": "ca>fr>oc b,a",
	} {
		src, tgt, _ := strings.Cut(pair, ">")
		legs, ok := g.Plan(src, tgt)
		if got := path(legs); !ok || got != want {
			t.Errorf("%s: %q (%v), want %q", pair, got, ok, want)
		}
	}
	for _, pair := range []string{"en>br", "fr>en", "es>en"} { // four legs, or no pair at all
		src, tgt, _ := strings.Cut(pair, ">")
		if legs, ok := g.Plan(src, tgt); ok {
			t.Errorf("%s: planned %s, want no route", pair, path(legs))
		}
	}
	if got := g.Reach("en"); !slices.Equal(got, []string{"ca", "es", "fr", "gl", "it", "oc", "pt", "sc"}) {
		t.Errorf("reach from en: %v", got)
	}
	// A route names the engine of a leg; chains still form around it.
	r, err := ParseRoutes("es:fr=b")
	if err != nil {
		t.Fatal(err)
	}
	engines[1].Caps.Pairs = append(engines[1].Caps.Pairs, language.Pair{Source: "es", Target: "fr"})
	if legs, _ := r.Plan(engines, "es", "fr"); path(legs) != "es>fr b" {
		t.Errorf("es>fr with es:fr=b: %s", path(legs))
	}
	if legs, _ := r.Plan(engines, "en", "pt"); path(legs) != "en>es>pt a,a" {
		t.Errorf("en>pt with es:fr=b: %s", path(legs))
	}
	// Ties between chains of one engine go through the language most
	// pairs meet in, so the route does not depend on the order pairs are listed.
	hub := []ports.Engine{engine("a", nil, ports.Capabilities{Pairs: pairs("en>gl", "gl>pt", "en>es", "es>pt", "es>ca", "ca>es", "es>it")})}
	if legs, _ := Routes(nil).Plan(hub, "en", "pt"); path(legs) != "en>es>pt a,a" {
		t.Errorf("en>pt: %s, want through Spanish (the hub)", path(legs))
	}
}

// TestChainKeepsTermsSpansAndMemory: over three legs the glossary's terms,
// the protected spans and the do-not-translate list reach the target
// untouched, the job's route names every leg, and a second run is free.
func TestChainKeepsTermsSpansAndMemory(t *testing.T) {
	a, b := &upper{}, &upper{}
	engines := registry{
		engine("a", a, ports.Capabilities{Pairs: pairs("en>es", "es>pt")}),
		engine("b", b, ports.Capabilities{Pairs: pairs("pt>gl")}),
	}
	tm := newMemoryTM()
	tr := &Translator{Engines: engines, TM: tm}
	g := &glossary.Glossary{Name: "Terms", Entries: []glossary.Entry{{Source: "invoice", Target: "factura"}}}
	opts := Options{DoNotTranslate: []string{"Acme Widget"}, Glossary: g}
	d := docOf(`Send the <g id="1">invoice</g> for the Acme Widget to https://pay.example/x today.`)
	res, err := tr.TranslateWith(ctx, d, "en", "gl", translation.Professional, opts)
	if err != nil {
		t.Fatal(err)
	}
	got := targets(d)[0]
	for _, keep := range []string{`<g id="1">factura</g>`, "Acme Widget", "https://pay.example/x", "SEND THE"} {
		if !strings.Contains(got, keep) {
			t.Errorf("target %q lost %q", got, keep)
		}
	}
	for _, s := range append(a.sent(), b.sent()...) {
		if strings.Contains(s, "invoice") || strings.Contains(s, "Acme") || strings.Contains(s, "https") {
			t.Errorf("an engine saw a term or a span: %q", s)
		}
	}
	if want := []job.Leg{{Source: "en", Target: "es", Engine: "a"}, {Source: "es", Target: "pt", Engine: "a"}, {Source: "pt", Target: "gl", Engine: "b"}}; !slices.Equal(res.Route, want) || res.Engine != "a+b" {
		t.Errorf("route %v engine %q, want %v a+b", res.Route, res.Engine, want)
	}
	if len(res.Warnings) == 0 || !strings.Contains(res.Warnings[0], "through Spanish and Portuguese (English→Spanish with a, then Spanish→Portuguese with a, then Portuguese→Galician with b)") {
		t.Errorf("warnings %q", res.Warnings)
	}
	if res.Metrics.EngineCalls != 3 {
		t.Errorf("metrics %+v", res.Metrics)
	}
	d2 := docOf(`Send the <g id="1">invoice</g> for the Acme Widget to https://pay.example/x today.`)
	res, err = tr.TranslateWith(ctx, d2, "en", "gl", translation.Professional, opts)
	if err != nil || res.Metrics.EngineCalls != 0 || res.Metrics.CacheHits != 3 || targets(d2)[0] != got {
		t.Errorf("second run: %v %+v %q", err, res.Metrics, targets(d2)[0])
	}
}
