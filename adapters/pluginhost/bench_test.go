package pluginhost

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/core/ports"
)

var benchSentences = []string{
	"The committee approved the new budget for the next year.",
	"Please read the instructions carefully before you start the machine.",
	"Our company sells software to small businesses in many countries.",
	"The river flows through the old town and into the sea.",
	"She wrote a long letter to her brother in the city.",
	"The results of the study were published in a scientific journal.",
	"You can download the file from our website at any time.",
	"The weather was cold and the streets were empty.",
	"We need more information about the project and its costs.",
	"This document describes the main features of the system.",
}

// benchBatch is 200 segments (about 2,000 words), every fourth with codes.
func benchBatch() (segs []string, words int) {
	for i := range 200 {
		s := benchSentences[i%len(benchSentences)]
		words += len(strings.Fields(s))
		if i%4 == 0 {
			w := strings.Fields(s)
			w[1] = fmt.Sprintf(`<g id="%d">%s</g>`, i, w[1])
			w[3] += fmt.Sprintf(`<x id="%d"/>`, 1000+i)
			s = strings.Join(w, " ")
		}
		segs = append(segs, s)
	}
	return segs, words
}

// BenchmarkApertium compares a batch through the plugin (gRPC, one
// apertium -f html call, code mapping and repair) with plain
// `apertium -f txt` on the same sentences.
func BenchmarkApertium(b *testing.B) {
	segs, words := benchBatch()
	b.Run("plugin", func(b *testing.B) {
		h, err := New(pluginDir, []string{"apertium"}, nil, WithHealthInterval(0))
		if err != nil {
			b.Fatal(err)
		}
		defer h.Close()
		engines, err := h.Engines(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		p := engines[0].Provider
		req := ports.TranslateRequest{Source: "en", Target: "es", Segments: segs}
		b.ResetTimer()
		for b.Loop() {
			if _, err := p.Translate(context.Background(), req); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(words*b.N)/b.Elapsed().Seconds(), "words/s")
	})
	b.Run("apertium-txt", func(b *testing.B) {
		var plain []string
		for i := range 200 {
			plain = append(plain, benchSentences[i%len(benchSentences)])
		}
		text := strings.Join(plain, "\n\n")
		for b.Loop() {
			cmd := exec.Command("apertium", "-u", "-f", "txt", "eng-spa")
			cmd.Stdin = strings.NewReader(text)
			if out, err := cmd.Output(); err != nil || len(out) == 0 {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(words*b.N)/b.Elapsed().Seconds(), "words/s")
	})
}
