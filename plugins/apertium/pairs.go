package main

import (
	"sort"
	"strings"

	"github.com/dragoman-translate/dragoman/plugins/sdk"
	"github.com/dragoman-translate/dragoman/plugins/sdk/language"
)

// pairsFromModes maps Apertium mode names ("eng-spa", "en-gl") to ISO
// pairs and the mode that serves each. Variant modes ("eng-cat_valencia",
// "spa-eng_US") and chained or special ones ("eco-es-fr") are skipped, and
// so are codes the language registry does not know.
func pairsFromModes(modes []string) ([]sdk.Pair, map[sdk.Pair]string) {
	sort.Strings(modes)
	byPair := map[sdk.Pair]string{}
	var pairs []sdk.Pair
	for _, m := range modes {
		if strings.Contains(m, "_") {
			continue
		}
		parts := strings.Split(m, "-")
		if len(parts) != 2 {
			continue
		}
		src, ok1 := isoCode(parts[0])
		tgt, ok2 := isoCode(parts[1])
		if !ok1 || !ok2 || src == tgt {
			continue
		}
		p := sdk.Pair{Source: src, Target: tgt}
		if _, dup := byPair[p]; dup {
			continue
		}
		byPair[p] = m
		pairs = append(pairs, p)
	}
	return pairs, byPair
}

// isoCode maps an Apertium language code (ISO 639-3 like "spa", or 639-1
// like "es") to the registry's code.
func isoCode(apertium string) (string, bool) {
	if len(apertium) != 2 && len(apertium) != 3 {
		return "", false
	}
	l, ok := language.ByCode(apertium)
	if !ok {
		return "", false
	}
	return l.Code, true
}
