package main

import (
	"sort"
	"strings"

	"github.com/dragoman-translate/dragoman/plugins/sdk"
	"github.com/dragoman-translate/dragoman/plugins/sdk/language"
)

// variants are the variant modes offered, by Apertium's code (the part
// after the language's, as in "eng-cat_valencia"), as registry codes.
// Serbo-Croatian's standards are the registry's Serbian, Croatian and
// Bosnian. The other variants are orthographic norms of one language
// (_iec2017, _uni, _pre2017, _PTpre1990, Nynorsk's nno_e) or American
// spelling (eng_US), which no registry entry names: they are not offered.
var variants = map[string]string{
	"cat_valencia": "ca-valencia",
	"por_BR":       "pt-BR", "pt_BR": "pt-BR",
	"oc_aran": "oc-aranes", "oci_aran": "oc-aranes",
	"oci_gascon": "oc-gascon",
	"hbs_SR":     "sr", "hbs_HR": "hr", "hbs_BS": "bs",
}

// sourcesOf are the registry languages whose text a mode's source code
// reads: Serbo-Croatian modes read Croatian, Bosnian and Serbian too
// (Serbian through transliteration: see serbian.go).
var sourcesOf = map[string][]string{"sh": {"sh", "hr", "bs", "sr"}}

// pairsFromModes maps Apertium mode names ("eng-spa", "en-gl",
// "es-pt_BR") to registry pairs and the mode that serves each. A plain
// mode wins over a variant mode for the same pair; chained or special
// modes ("eco-es-fr", "hbs-mkd-pretransfer") are skipped, and so are codes
// the registry does not know.
func pairsFromModes(modes []string) ([]sdk.Pair, map[sdk.Pair]string) {
	sort.Slice(modes, func(i, j int) bool { // plain modes first, then by name
		vi, vj := strings.Contains(modes[i], "_"), strings.Contains(modes[j], "_")
		if vi != vj {
			return !vi
		}
		return modes[i] < modes[j]
	})
	byPair := map[sdk.Pair]string{}
	var pairs []sdk.Pair
	for _, m := range modes {
		parts := strings.Split(m, "-")
		if len(parts) != 2 {
			continue
		}
		src, ok1 := modeCode(parts[0])
		tgt, ok2 := modeCode(parts[1])
		if !ok1 || !ok2 || src == tgt {
			continue
		}
		srcs := sourcesOf[src]
		if srcs == nil {
			srcs = []string{src}
		}
		for _, s := range srcs {
			p := sdk.Pair{Source: s, Target: tgt}
			if _, dup := byPair[p]; dup || s == tgt {
				continue
			}
			byPair[p] = m
			pairs = append(pairs, p)
		}
	}
	sort.Slice(pairs, func(i, j int) bool {
		if pairs[i].Source != pairs[j].Source {
			return pairs[i].Source < pairs[j].Source
		}
		return pairs[i].Target < pairs[j].Target
	})
	return pairs, byPair
}

// modeCode maps a language code of a mode name to the registry's: an
// ISO 639-3 code like "spa" or 639-1 like "es", or a variant ("cat_valencia").
func modeCode(apertium string) (string, bool) {
	if strings.Contains(apertium, "_") {
		code, ok := variants[apertium]
		return code, ok
	}
	if len(apertium) != 2 && len(apertium) != 3 {
		return "", false
	}
	l, ok := language.ByCode(apertium)
	if !ok || l.IsVariant() {
		return "", false
	}
	return l.Code, true
}
