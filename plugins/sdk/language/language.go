// Package language is the registry of languages the API accepts, by the
// English names clients use, with ISO 639-1 codes, script and direction.
//
// It is the one registry: the host's core imports it as plugins import it,
// so a plugin names and maps languages exactly as the host does. Like every
// leaf package of the SDK it imports nothing but the standard library.
package language

import (
	"sort"
	"strings"
)

// Direction is the writing direction of a script.
type Direction string

const (
	LTR Direction = "ltr"
	RTL Direction = "rtl"
)

// Language is one registry entry.
type Language struct {
	Name   string    // English name used by the API: "Arabic"
	Code   string    // ISO 639-1 (or BCP 47 where 639-1 is ambiguous): "ar", "zh-Hans"
	Code3  string    // ISO 639-3 / 639-2: "ara"
	Script string    // ISO 15924: "Arab"
	Dir    Direction // ltr or rtl
}

// IsRTL reports whether output in this language gets right-to-left layout.
func (l Language) IsRTL() bool { return l.Dir == RTL }

var all = []Language{
	{"Afrikaans", "af", "afr", "Latn", LTR},
	{"Albanian", "sq", "sqi", "Latn", LTR},
	{"Arabic", "ar", "ara", "Arab", RTL},
	{"Armenian", "hy", "hye", "Armn", LTR},
	{"Basque", "eu", "eus", "Latn", LTR},
	{"Bengali", "bn", "ben", "Beng", LTR},
	{"Bulgarian", "bg", "bul", "Cyrl", LTR},
	{"Catalan", "ca", "cat", "Latn", LTR},
	{"Chinese (Simplified)", "zh-Hans", "zho", "Hans", LTR},
	{"Chinese (Traditional)", "zh-Hant", "zho", "Hant", LTR},
	{"Croatian", "hr", "hrv", "Latn", LTR},
	{"Czech", "cs", "ces", "Latn", LTR},
	{"Danish", "da", "dan", "Latn", LTR},
	{"Dutch", "nl", "nld", "Latn", LTR},
	{"English", "en", "eng", "Latn", LTR},
	{"Esperanto", "eo", "epo", "Latn", LTR},
	{"Estonian", "et", "est", "Latn", LTR},
	{"Finnish", "fi", "fin", "Latn", LTR},
	{"French", "fr", "fra", "Latn", LTR},
	{"Galician", "gl", "glg", "Latn", LTR},
	{"Georgian", "ka", "kat", "Geor", LTR},
	{"German", "de", "deu", "Latn", LTR},
	{"Greek", "el", "ell", "Grek", LTR},
	{"Gujarati", "gu", "guj", "Gujr", LTR},
	{"Hebrew", "he", "heb", "Hebr", RTL},
	{"Hindi", "hi", "hin", "Deva", LTR},
	{"Hungarian", "hu", "hun", "Latn", LTR},
	{"Icelandic", "is", "isl", "Latn", LTR},
	{"Indonesian", "id", "ind", "Latn", LTR},
	{"Irish", "ga", "gle", "Latn", LTR},
	{"Italian", "it", "ita", "Latn", LTR},
	{"Japanese", "ja", "jpn", "Jpan", LTR},
	{"Kazakh", "kk", "kaz", "Cyrl", LTR},
	{"Korean", "ko", "kor", "Kore", LTR},
	{"Latvian", "lv", "lav", "Latn", LTR},
	{"Lithuanian", "lt", "lit", "Latn", LTR},
	{"Macedonian", "mk", "mkd", "Cyrl", LTR},
	{"Malay", "ms", "msa", "Latn", LTR},
	{"Marathi", "mr", "mar", "Deva", LTR},
	{"Norwegian Bokmål", "nb", "nob", "Latn", LTR},
	{"Norwegian Nynorsk", "nn", "nno", "Latn", LTR},
	{"Occitan", "oc", "oci", "Latn", LTR},
	{"Persian", "fa", "fas", "Arab", RTL},
	{"Polish", "pl", "pol", "Latn", LTR},
	{"Portuguese", "pt", "por", "Latn", LTR},
	{"Punjabi", "pa", "pan", "Guru", LTR},
	{"Romanian", "ro", "ron", "Latn", LTR},
	{"Russian", "ru", "rus", "Cyrl", LTR},
	{"Serbian", "sr", "srp", "Cyrl", LTR},
	{"Slovak", "sk", "slk", "Latn", LTR},
	{"Slovenian", "sl", "slv", "Latn", LTR},
	{"Spanish", "es", "spa", "Latn", LTR},
	{"Swahili", "sw", "swa", "Latn", LTR},
	{"Swedish", "sv", "swe", "Latn", LTR},
	{"Tagalog", "tl", "tgl", "Latn", LTR},
	{"Tamil", "ta", "tam", "Taml", LTR},
	{"Telugu", "te", "tel", "Telu", LTR},
	{"Thai", "th", "tha", "Thai", LTR},
	{"Turkish", "tr", "tur", "Latn", LTR},
	{"Ukrainian", "uk", "ukr", "Cyrl", LTR},
	{"Urdu", "ur", "urd", "Arab", RTL},
	{"Vietnamese", "vi", "vie", "Latn", LTR},
	{"Welsh", "cy", "cym", "Latn", LTR},
}

var index = func() map[string]Language {
	m := make(map[string]Language, len(all)*3)
	for _, l := range all {
		m[strings.ToLower(l.Name)] = l
		m[strings.ToLower(l.Code)] = l
	}
	// Common aliases.
	alias := map[string]string{
		"chinese": "zh-Hans", "zh": "zh-Hans", "zh-cn": "zh-Hans", "zh-tw": "zh-Hant",
		"farsi": "fa", "norwegian": "nb", "no": "nb", "filipino": "tl", "iw": "he",
		"pt-br": "pt", "pt-pt": "pt", "en-us": "en", "en-gb": "en",
	}
	for a, code := range alias {
		m[a] = m[strings.ToLower(code)]
	}
	// ISO 639-3 codes, where unambiguous.
	for _, l := range all {
		if _, taken := m[l.Code3]; !taken {
			m[l.Code3] = l
		}
	}
	return m
}()

// All returns every registry language, sorted by name.
func All() []Language {
	out := append([]Language(nil), all...)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// ErrUnknown names a language the registry does not know.
type ErrUnknown struct{ Name string }

func (e ErrUnknown) Error() string {
	// The name itself is not repeated: error bodies never echo request values.
	return "unknown language: use a name from GET /v1/languages (case-insensitive) or its ISO 639-1 code"
}

// Lookup finds a language by name or code, case-insensitively.
func Lookup(s string) (Language, error) {
	l, ok := index[strings.ToLower(strings.TrimSpace(s))]
	if !ok {
		return Language{}, ErrUnknown{Name: s}
	}
	return l, nil
}

// ByCode finds a language by its registry code.
func ByCode(code string) (Language, bool) {
	l, ok := index[strings.ToLower(code)]
	return l, ok
}

// NameOf is the API name of the language with the registry code code (jobs
// store codes; the API and webhooks show names). A code the registry does
// not know, such as "auto" or "", is returned as it is.
func NameOf(code string) string {
	if l, ok := ByCode(code); ok && strings.EqualFold(l.Code, code) {
		return l.Name
	}
	return code
}
