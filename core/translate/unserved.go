package translate

import (
	"fmt"
	"strings"

	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/plugins/sdk/language"
)

// Enabler is an engine plugin beside the offline default, what it needs
// and the settings that enable it (README, "What it translates").
type Enabler struct {
	Engine  string
	Needs   string
	Setting string
	serves  func(code string) bool
}

func anyLanguage(string) bool { return true }

func among(codes string) func(string) bool {
	set := map[string]bool{}
	for _, c := range strings.Fields(codes) {
		set[c] = true
	}
	return func(c string) bool { return set[c] }
}

// Enablers are the engine plugins that serve languages Apertium does not,
// in the order the README offers them: local first, then the vendors.
var Enablers = []Enabler{
	{"openai", "a local OpenAI-compatible server such as llama.cpp, Ollama or vLLM (or OpenAI)",
		"DRAGOMAN_ENGINES=apertium,openai DRAGOMAN_OPENAI_BASE_URL=http://localhost:11434/v1 DRAGOMAN_OPENAI_MODEL=<model>", anyLanguage},
	{"libretranslate", "a LibreTranslate server, for the languages of its installed models",
		"DRAGOMAN_ENGINES=apertium,libretranslate DRAGOMAN_LIBRETRANSLATE_BASE_URL=http://localhost:5000",
		among("ar az bg bn ca cs da de el en eo es et eu fa fi fr ga gl he hi hu id it ja ko lt lv ms nb nl pl pt ro ru sk sl sq sv th tl tr uk ur vi zh-Hans zh-Hant")},
	{"deepl", "a DeepL API key", "DRAGOMAN_ENGINES=apertium,deepl DRAGOMAN_DEEPL_API_KEY=<key>",
		among("ar bg cs da de el en es et fi fr hu id it ja ko lt lv nb nl pl pt ro ru sk sl sv tr uk zh-Hans zh-Hant")},
	{"google", "a Google Cloud Translation project and key",
		"DRAGOMAN_ENGINES=apertium,google DRAGOMAN_GOOGLE_PROJECT=<project> DRAGOMAN_GOOGLE_API_KEY=<key>", anyLanguage},
	{"azure", "an Azure AI Translator key", "DRAGOMAN_ENGINES=apertium,azure DRAGOMAN_AZURE_API_KEY=<key> DRAGOMAN_AZURE_REGION=<region>", anyLanguage},
}

// debianApertium is the pairs Apertium serves with every pair package
// Debian 12 ships (make deps installs them all), as registry codes.
var debianApertium = ports.Engine{Name: "apertium", Caps: ports.Capabilities{Name: "apertium", Pairs: parsePairs(`
	af>nl an>ca an>es be>ru bg>mk br>fr ca>an ca>en ca>eo ca>es ca>fr ca>it ca>oc ca>pt ca>sc da>nb da>nn
	da>sv en>ca en>eo en>es en>gl en>sh eo>en es>an es>ast es>ca es>en es>eo es>fr es>gl es>it es>oc es>pt
	eu>en eu>es fr>ca fr>eo fr>es fr>frp fr>oc frp>fr gl>en gl>es gl>pt hi>ur id>ms is>en is>sv it>ca it>es
	it>sc mk>bg mk>en ms>id nb>da nb>nn nb>sv nl>af nn>da nn>nb nn>sv oc>ca oc>es oc>fr pl>szl pt>ca pt>es
	pt>gl ro>es ru>be ru>uk sh>en sh>mk sh>sl sl>sh sv>da sv>is sv>nb sv>nn szl>pl uk>ru ur>hi`)}}

func parsePairs(list string) []language.Pair {
	var out []language.Pair
	for _, p := range strings.Fields(list) {
		src, tgt, _ := strings.Cut(p, ">")
		out = append(out, language.Pair{Source: src, Target: tgt})
	}
	return out
}

// maxNearest bounds the targets an explanation names.
const maxNearest = 8

// Unserved explains why no enabled engine translates src→tgt (src "":
// any source, for a submission with source auto) and says exactly what to
// do: the servable targets nearest to tgt (same script and direction
// first), and the engines that would serve the pair with the settings
// that enable each.
func Unserved(engines []ports.Engine, src string, tgt language.Language) string {
	var b strings.Builder
	g := Routes(nil).Graph(engines)
	var reach []language.Language
	if src == "" {
		fmt.Fprintf(&b, "no configured engine translates into %s", tgt.Name)
		reach = Targets(engines)
	} else {
		fmt.Fprintf(&b, "no configured engine translates %s to %s", language.NameOf(src), tgt.Name)
		reach = Reachable(engines, src)
	}
	if len(reach) > 0 {
		near := nearest(reach, tgt)
		names := make([]string, 0, maxNearest)
		for _, l := range near[:min(len(near), maxNearest)] {
			names = append(names, l.Name+fromWhere(g, src, l))
		}
		more := ""
		if len(near) > maxNearest {
			more = fmt.Sprintf(" and %d more", len(near)-maxNearest)
		}
		where, list := "the engines translate into", "GET /v1/languages lists them"
		if src != "" {
			where = "from " + language.NameOf(src) + " they reach"
			list = "GET /v1/languages?source=" + src + " lists them"
		}
		fmt.Fprintf(&b, "; %s %s%s (%s)", where, strings.Join(names, ", "), more, list)
	}
	if _, ok := Routes(nil).Plan([]ports.Engine{debianApertium}, orAny(src, tgt), tgt.Code); ok {
		b.WriteString(". Apertium serves it offline with the pairs Debian ships: make deps installs every one (DRAGOMAN_ENGINES must name apertium), then restart")
	}
	var offers []string
	for _, e := range Enablers {
		if e.serves(tgt.Code) && (src == "" || e.serves(src)) {
			offers = append(offers, fmt.Sprintf("%s with %s: %s", e.Engine, e.Needs, e.Setting))
		}
	}
	if len(offers) > 0 {
		fmt.Fprintf(&b, ". To translate into %s, enable an engine that serves it: %s", tgt.Name, strings.Join(offers, "; or "))
	}
	return b.String()
}

// orAny is src, or for any source some language Apertium's pairs reach tgt from.
func orAny(src string, tgt language.Language) string {
	if src != "" {
		return src
	}
	for _, p := range debianApertium.Caps.Pairs {
		if p.Target == tgt.Code {
			return p.Source
		}
	}
	return ""
}

// nearest orders targets by closeness to tgt: same script and direction,
// then same direction, then same script, then the rest, each in registry order.
func nearest(targets []language.Language, tgt language.Language) []language.Language {
	var out []language.Language
	for rank := 0; rank < 4; rank++ {
		for _, l := range targets {
			if l.Code == tgt.Code {
				continue
			}
			sameDir, sameScript := l.Dir == tgt.Dir, l.Script == tgt.Script
			r := 3
			switch {
			case sameDir && sameScript:
				r = 0
			case sameDir && tgt.IsRTL():
				r = 1
			case sameScript:
				r = 2
			}
			if r == rank {
				out = append(out, l)
			}
		}
	}
	return out
}

// fromWhere names the sources of a right-to-left target few sources
// reach, when any source was asked: "Urdu (from Hindi)".
func fromWhere(g *Graph, src string, l language.Language) string {
	if src != "" || !l.IsRTL() {
		return ""
	}
	var from []string
	for _, s := range language.All() {
		if s.Code == l.Code {
			continue
		}
		if _, ok := g.Plan(s.Code, l.Code); ok {
			from = append(from, s.Name)
			if len(from) > 2 {
				return ""
			}
		}
	}
	if len(from) == 0 {
		return ""
	}
	return " (from " + strings.Join(from, " or ") + ")"
}
