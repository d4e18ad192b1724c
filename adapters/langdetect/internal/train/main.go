// Command train builds langdetect's n-gram model (../../romance.model.tsv)
// for the languages lingua has no model of and their neighbours. It
// generates English sentences from the templates in english.go (no
// sentence of the accuracy test's), has Apertium translate them into each
// language over the chains below, and keeps each language's commonest
// features. Needs Apertium with every pair Debian ships (make deps).
//
//	go run ./adapters/langdetect/internal/train
package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/dragoman-translate/dragoman/adapters/langdetect/internal/ngram"
)

// chains are the Apertium modes that make each language from English.
var chains = map[string][]string{
	"en":  {},        // the templates themselves, and Esperanto: the texts most
	"eo":  {"en-eo"}, // often near a Romance language without being one
	"es":  {"eng-spa"},
	"ca":  {"eng-cat"},
	"gl":  {"en-gl"},
	"pt":  {"eng-spa", "es-pt"},
	"fr":  {"eng-spa", "es-fr"},
	"it":  {"eng-spa", "spa-ita"},
	"oc":  {"eng-spa", "es-oc"},
	"an":  {"eng-spa", "spa-arg"},
	"ast": {"eng-spa", "spa-ast"},
	"sc":  {"eng-cat", "cat-srd"},
	"frp": {"eng-spa", "es-fr", "fra-frp"},
}

// keep is the features kept per language.
const keep = 6000

func main() {
	english := strings.Join(sentences(4000), "\n") + "\n"
	texts := map[string]string{}
	for lang, modes := range chains {
		text := english
		for _, m := range modes {
			cmd := exec.Command("apertium", "-u", m)
			cmd.Stdin = strings.NewReader(text)
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, os.Stderr
			if err := cmd.Run(); err != nil {
				fmt.Fprintf(os.Stderr, "apertium %s: %v\n", m, err)
				os.Exit(1)
			}
			text = out.String()
		}
		texts[lang] = strings.ReplaceAll(text, "#", "")
		fmt.Fprintf(os.Stderr, "%s: %d words\n", lang, len(strings.Fields(texts[lang])))
	}
	m := ngram.Train(texts, keep)
	var b bytes.Buffer
	if err := m.Write(&b); err != nil {
		panic(err)
	}
	dir := "adapters/langdetect"
	if _, err := os.Stat(dir); err != nil {
		dir = "../.."
	}
	path := filepath.Join(dir, "romance.model.tsv")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		panic(err)
	}
	fmt.Fprintf(os.Stderr, "%s: %d bytes\n", path, b.Len())
}
