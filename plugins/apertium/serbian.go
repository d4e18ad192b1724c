package main

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
)

// Serbian is written in Cyrillic (the registry's script for it), while
// Apertium's Serbo-Croatian reads and writes Latin: a Serbian source is
// transliterated to Latin before an hbs mode, and a Serbian target (the
// hbs_SR variant) back to Cyrillic. Serbian's two alphabets map letter for
// letter but for the digraphs lj, nj and dž; a word with letters Serbian
// Latin lacks (q, w, x, y) or with the marks of an address (/, @, :, _)
// stays as it is. Only the text between inline codes is touched.

var toLatin = strings.NewReplacer(
	"Љ", "Lj", "Њ", "Nj", "Џ", "Dž", "љ", "lj", "њ", "nj", "џ", "dž",
	"А", "A", "Б", "B", "В", "V", "Г", "G", "Д", "D", "Ђ", "Đ", "Е", "E", "Ж", "Ž", "З", "Z", "И", "I",
	"Ј", "J", "К", "K", "Л", "L", "М", "M", "Н", "N", "О", "O", "П", "P", "Р", "R", "С", "S", "Т", "T",
	"Ћ", "Ć", "У", "U", "Ф", "F", "Х", "H", "Ц", "C", "Ч", "Č", "Ш", "Š",
	"а", "a", "б", "b", "в", "v", "г", "g", "д", "d", "ђ", "đ", "е", "e", "ж", "ž", "з", "z", "и", "i",
	"ј", "j", "к", "k", "л", "l", "м", "m", "н", "n", "о", "o", "п", "p", "р", "r", "с", "s", "т", "t",
	"ћ", "ć", "у", "u", "ф", "f", "х", "h", "ц", "c", "ч", "č", "ш", "š",
)

var toCyrillic = strings.NewReplacer(
	"LJ", "Љ", "NJ", "Њ", "DŽ", "Џ", "Lj", "Љ", "Nj", "Њ", "Dž", "Џ", "lj", "љ", "nj", "њ", "dž", "џ",
	"A", "А", "B", "Б", "V", "В", "G", "Г", "D", "Д", "Đ", "Ђ", "E", "Е", "Ž", "Ж", "Z", "З", "I", "И",
	"J", "Ј", "K", "К", "L", "Л", "M", "М", "N", "Н", "O", "О", "P", "П", "R", "Р", "S", "С", "T", "Т",
	"Ć", "Ћ", "U", "У", "F", "Ф", "H", "Х", "C", "Ц", "Č", "Ч", "Š", "Ш",
	"a", "а", "b", "б", "v", "в", "g", "г", "d", "д", "đ", "ђ", "e", "е", "ž", "ж", "z", "з", "i", "и",
	"j", "ј", "k", "к", "l", "л", "m", "м", "n", "н", "o", "о", "p", "п", "r", "р", "s", "с", "t", "т",
	"ć", "ћ", "u", "у", "f", "ф", "h", "х", "c", "ц", "č", "ч", "š", "ш",
)

// serbianToLatin transliterates the text of a tagged segment.
func serbianToLatin(seg string) string { return mapText(seg, toLatin.Replace) }

// serbianToCyrillic transliterates the words of a tagged segment that are
// Serbian Latin.
func serbianToCyrillic(seg string) string {
	return mapText(seg, func(text string) string {
		var b strings.Builder
		for len(text) > 0 {
			i := strings.IndexFunc(text, unicode.IsSpace)
			if i < 0 {
				i = len(text)
			}
			if i == 0 {
				_, n := utf8.DecodeRuneInString(text)
				b.WriteString(text[:n])
				text = text[n:]
				continue
			}
			word := text[:i]
			if keepLatin(word) {
				b.WriteString(word)
			} else {
				b.WriteString(toCyrillic.Replace(word))
			}
			text = text[i:]
		}
		return b.String()
	})
}

// keepLatin is true for a word that is not Serbian: an address, a name
// with q, w, x or y.
func keepLatin(word string) bool {
	return strings.ContainsAny(word, "qwxyQWXY/@:_\\=#&%")
}

func mapText(seg string, f func(string) string) string {
	toks := tagged.Tokenize(seg)
	for i := range toks {
		if toks[i].Kind == tagged.Text {
			toks[i].Text = f(toks[i].Text)
		}
	}
	return tagged.Render(toks)
}
