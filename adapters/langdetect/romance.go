package langdetect

import (
	"bytes"
	_ "embed"
	"strings"
	"sync"

	"github.com/dragoman-translate/dragoman/adapters/langdetect/internal/ngram"
)

// Lingua has no model of Aragonese, Asturian, Galician, Occitan,
// Franco-Provençal or Sardinian: their text reads to it as Spanish,
// Portuguese, Catalan, French or Italian (most paragraphs) or, for the
// last three, as anything from Tagalog to Welsh. A naive Bayes model of
// words and letter sequences (internal/ngram), trained on Apertium's
// translations of generated English into these eleven languages and
// English and Esperanto (internal/train, 586 KB of text), decides between them:
// always when lingua says one of the five it knows, and otherwise only
// when the model finds one of the six with the fit of a Romance text.

//go:embed romance.model.tsv
var romanceModelText []byte

var (
	romanceOnce sync.Once
	romance     *ngram.Model
)

func romanceModel() *ngram.Model {
	romanceOnce.Do(func() {
		m, err := ngram.Read(bytes.NewReader(romanceModelText))
		if err != nil {
			panic("langdetect: romance model: " + err.Error())
		}
		romance = m
	})
	return romance
}

var (
	// linguaRomance are the Romance languages lingua knows, which the
	// six it does not are most often taken for.
	linguaRomance = set("es pt ca fr it")
	// unmodelled are the languages only the n-gram model knows.
	unmodelled = set("an ast gl oc frp sc")
)

// minRomanceFit is the least average log-probability per feature of a
// text the model gives one of the six when lingua named another family:
// the paragraphs of the six measured -7.21 at worst, English, Danish,
// Esperanto and Polish ones -7.08 at best.
const minRomanceFit = -7.1

func set(codes string) map[string]bool {
	m := map[string]bool{}
	for _, c := range strings.Fields(codes) {
		m[c] = true
	}
	return m
}

// refineRomance returns the language of Latin-script text lingua took for
// code, telling the six it has no model of from their neighbours.
func refineRomance(text, code string) string {
	m := romanceModel()
	scores, n := m.Scores(text)
	if n == 0 {
		return code
	}
	best := 0
	for i := range scores {
		if scores[i] > scores[best] {
			best = i
		}
	}
	guess := m.Langs[best]
	if !unmodelled[guess] {
		return code
	}
	if linguaRomance[code] || scores[best]/float64(n) >= minRomanceFit {
		return guess
	}
	return code
}
