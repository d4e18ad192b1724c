package main

import (
	"regexp"
	"strings"

	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
)

// repair makes the translated tokens carry exactly the source's codes,
// each around some of the text it formatted: span boundaries Apertium
// pushed to the edge of a word go back inside it (fitSubwordSpans), and
// tagged.Repair drops duplicated and unknown codes and restores the spans
// Apertium dropped or emptied (it drops those over punctuation alone, such
// as "<" or "®") around the same text, so the format adapter never loses
// markup or formatting.
func repair(source string, toks []tagged.Token) (string, []tagged.Fix) {
	out, fixes := tagged.RepairFixes(source, tagged.Render(fitSubwordSpans(source, splitSiblings(source, toks))))
	return tidySpace(source, out), fixes
}

var spaceRun = regexp.MustCompile(`  +`)

// tidySpace gives the translation the source's leading and trailing
// whitespace and removes the double spaces Apertium writes after some
// punctuation, unless the source had double spaces itself.
func tidySpace(source, target string) string {
	if strings.TrimSpace(source) == "" && strings.TrimSpace(target) == "" {
		return source
	}
	if !strings.Contains(source, "  ") {
		target = spaceRun.ReplaceAllString(target, " ")
	}
	lead := source[:len(source)-len(strings.TrimLeft(source, " \t\n"))]
	trail := source[len(strings.TrimRight(source, " \t\n")):]
	return lead + strings.Trim(target, " \t\n") + trail
}
