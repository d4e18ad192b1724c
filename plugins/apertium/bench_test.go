package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/plugins/sdk"
)

// benchSentences are n random English sentences of about ten words; every
// tenth has one word in bold (a paired code), as a typical document has.
func benchSentences(n int) (plain, tagged []string) {
	r := rand.New(rand.NewPCG(1, 2))
	adj := strings.Fields("big small red old new happy long short green quiet important simple")
	noun := strings.Fields("dog house car city river letter company system project report street child teacher market")
	verb := strings.Fields("sees builds sells finds reads writes opens closes visits describes needs wants")
	adv := strings.Fields("today quickly often carefully again slowly yesterday")
	pick := func(w []string) string { return w[r.IntN(len(w))] }
	for i := range n {
		w := []string{"The", pick(adj), pick(noun), pick(verb), "the", pick(adj), pick(noun), "in", "the", pick(noun), pick(adv)}
		plain = append(plain, strings.Join(w, " ")+".")
		if i%10 == 0 {
			k := 1 + r.IntN(len(w)-1)
			w[k] = `<g id="1">` + w[k] + `</g>`
		}
		tagged = append(tagged, strings.Join(w, " ")+".")
	}
	return plain, tagged
}

// BenchmarkApertium100kWords compares the plugin's whole path (encode,
// one apertium -f none call, decode, repair) with plain-text Apertium
// (apertium -u -f txt) on the same 100,000 words (11 per sentence). The
// issue's goal is the plugin within 1.15 times plain text.
func BenchmarkApertium100kWords(b *testing.B) {
	plain, tagged := benchSentences(100_000 / 11)
	b.Run("apertium-f-txt", func(b *testing.B) {
		for b.Loop() {
			cmd := exec.Command("apertium", "-u", "-f", "txt", "eng-spa")
			cmd.Stdin = strings.NewReader(strings.Join(plain, "\n") + "\n")
			if out, err := cmd.Output(); err != nil || len(out) == 0 {
				b.Fatal(err)
			}
		}
	})
	b.Run("plugin", func(b *testing.B) {
		e := newEngine("", "")
		for b.Loop() {
			res, err := e.Translate(context.Background(), sdk.TranslateRequest{Source: "en", Target: "es", Segments: tagged})
			if err != nil || len(res.Segments) != len(tagged) {
				b.Fatal(err, fmt.Sprint(len(res.Segments)))
			}
		}
	})
}
