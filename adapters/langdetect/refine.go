package langdetect

import "strings"

// refine picks the language of one script's text from lingua's candidates
// (likeliest first), correcting lingua where it has no model of a
// language the engines serve or is measured to confuse two (issue 22 §3):
//
//   - Serbo-Croatian: lingua's Croatian, Bosnian and Serbian are one
//     language in Latin script (Apertium's hbs reads them all) and Serbian
//     in Cyrillic;
//   - letters a language cannot do without (Kazakh's ә ғ қ ң ө ұ ү һ): a
//     candidate whose text has none of them gives way to the next;
//   - Silesian and Breton, which lingua has no model of, by their
//     spelling and commonest words (markers.go);
//   - Indonesian and Malay, Hindi and Marathi, by the words that differ;
//   - the six Romance languages lingua lacks, by an n-gram model (romance.go).
func refine(script, text string, cands []string) string {
	words := strings.Fields(text)
	var code string
	for _, c := range cands {
		if hasRequired(c, text) {
			code = c
			break
		}
	}
	switch script {
	case "Latin":
		switch {
		case silesian.matches(words):
			return "szl"
		case breton.matches(words):
			return "br"
		}
		if r := refineRomance(text, code); r != code {
			return r
		}
		switch {
		case serboCroatian[code]:
			return "sh"
		case code == "id" || code == "ms":
			return indonesianMalay.decide(words, code)
		}
	case "Cyrillic":
		if code == "" {
			code = cyrillicByLetters(text)
		}
		if serboCroatian[code] {
			return "sr"
		}
	case "Devanagari":
		if code == "" || code == "hi" || code == "mr" {
			return hindiMarathi.decide(words, code)
		}
	}
	return code
}

// serboCroatian are lingua's three standards of Serbo-Croatian.
var serboCroatian = set("hr bs sr")

// required are letters a language's text of some length always has.
var required = map[string]string{"kk": "әғқңөұүһӘҒҚҢӨҰҮҺ"}

func hasRequired(code, text string) bool {
	letters, ok := required[code]
	return !ok || strings.ContainsAny(text, letters)
}

// pair tells two languages apart by words only one of them uses.
type pair struct {
	a, b         string
	aSet, bWords map[string]bool
}

func newPair(a, aWords, b, bWords string) pair {
	return pair{a: a, b: b, aSet: set(aWords), bWords: set(bWords)}
}

// decide returns the language whose own words the text has more of;
// code (lingua's answer, or a if lingua had none) on a tie.
func (p pair) decide(words []string, code string) string {
	na, nb := 0, 0
	for _, w := range words {
		w = strings.ToLower(w)
		if p.aSet[w] {
			na++
		}
		if p.bWords[w] {
			nb++
		}
	}
	switch {
	case na > nb:
		return p.a
	case nb > na:
		return p.b
	case code == "":
		return p.a
	}
	return code
}

var (
	// Spellings and words Indonesian and Malay do not share.
	indonesianMalay = newPair(
		"id", "karena uang kantor sepeda pemerintah perusahaan berbicara dokter polisi universitas kamar mobil setelah sesudah yaitu membutuhkan bus film musik kota ilmuwan tetangga menemukan pertandingan penggemar anak-anak tim delapan memperbaiki",
		"ms", "kerana wang hospital pejabat basikal berbasikal kerajaan syarikat bercakap doktor polis universiti bilik selepas semasa iaitu tandas bandar jabatan baharu sahaja percuma hadapan memerlukan jiran saintis sains mendapati perlawanan peminat kanak-kanak pasukan bas filem muzik lapan membaiki",
	)
	// The commonest words of Hindi and Marathi that the other lacks.
	hindiMarathi = newPair(
		"hi", "है हैं और के की का में से को ने था थी थे भी यह वह पर लिए तक कि",
		"mr", "आहे आहेत आणि च्या ची चा ला मध्ये होते होता नाही हे ते या व पण केले",
	)
)

// cyrillicLetters are letters one Cyrillic registry language writes and
// the others do not (or rarely), for text lingua had no answer for.
var cyrillicLetters = []struct{ code, letters string }{
	{"uk", "єїґЄЇҐ"}, {"be", "ўЎ"}, {"sr", "ђћЂЋ"}, {"mk", "ѓќѕЃЌЅ"}, {"kk", "әғқңөұүһӘҒҚҢӨҰҮҺ"},
	{"bg", "ъЪ"}, {"ru", "ыэЫЭ"},
}

func cyrillicByLetters(text string) string {
	for _, c := range cyrillicLetters {
		if strings.ContainsAny(text, c.letters) {
			return c.code
		}
	}
	return ""
}
