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
	Name    string    // English name used by the API: "Arabic"
	Code    string    // ISO 639-1 where it exists, else 639-3, or BCP 47 for a variant: "ar", "ast", "pt-BR"
	Code3   string    // ISO 639-3 / 639-2: "ara"
	Script  string    // ISO 15924: "Arab"
	Dir     Direction // ltr or rtl
	Endonym string    // the language's own name for itself: "العربية"
	// Of is the code of the language a variant belongs to ("pt" for
	// Portuguese (Brazil)), "" for a language. Only engines that name a
	// variant among their pairs serve it (Apertium's variant modes).
	Of string
}

// Pair is a language direction, as registry codes: what an engine serves,
// what a glossary is for.
type Pair struct{ Source, Target string }

// Any in a Pair stands for every language (an engine that applies
// glossaries itself between English and any language says so with it).
const Any = "*"

// Matches reports whether p is the direction src→tgt, Any matching every
// language.
func (p Pair) Matches(src, tgt string) bool {
	return (p.Source == src || p.Source == Any) && (p.Target == tgt || p.Target == Any)
}

// IsRTL reports whether output in this language gets right-to-left layout.
func (l Language) IsRTL() bool { return l.Dir == RTL }

// IsVariant reports whether l is a variant of another registry language.
func (l Language) IsVariant() bool { return l.Of != "" }

var all = []Language{
	{"Afrikaans", "af", "afr", "Latn", LTR, "Afrikaans", ""},
	{"Albanian", "sq", "sqi", "Latn", LTR, "shqip", ""},
	{"Arabic", "ar", "ara", "Arab", RTL, "العربية", ""},
	{"Aragonese", "an", "arg", "Latn", LTR, "aragonés", ""},
	{"Armenian", "hy", "hye", "Armn", LTR, "հայերեն", ""},
	{"Asturian", "ast", "ast", "Latn", LTR, "asturianu", ""},
	{"Basque", "eu", "eus", "Latn", LTR, "euskara", ""},
	{"Belarusian", "be", "bel", "Cyrl", LTR, "беларуская", ""},
	{"Bengali", "bn", "ben", "Beng", LTR, "বাংলা", ""},
	{"Bosnian", "bs", "bos", "Latn", LTR, "bosanski", ""},
	{"Breton", "br", "bre", "Latn", LTR, "brezhoneg", ""},
	{"Bulgarian", "bg", "bul", "Cyrl", LTR, "български", ""},
	{"Catalan", "ca", "cat", "Latn", LTR, "català", ""},
	{"Catalan (Valencian)", "ca-valencia", "cat", "Latn", LTR, "valencià", "ca"},
	{"Chinese (Simplified)", "zh-Hans", "zho", "Hans", LTR, "简体中文", ""},
	{"Chinese (Traditional)", "zh-Hant", "zho", "Hant", LTR, "繁體中文", ""},
	{"Croatian", "hr", "hrv", "Latn", LTR, "hrvatski", ""},
	{"Czech", "cs", "ces", "Latn", LTR, "čeština", ""},
	{"Danish", "da", "dan", "Latn", LTR, "dansk", ""},
	{"Dutch", "nl", "nld", "Latn", LTR, "Nederlands", ""},
	{"English", "en", "eng", "Latn", LTR, "English", ""},
	{"Esperanto", "eo", "epo", "Latn", LTR, "Esperanto", ""},
	{"Estonian", "et", "est", "Latn", LTR, "eesti", ""},
	{"Finnish", "fi", "fin", "Latn", LTR, "suomi", ""},
	{"Franco-Provençal", "frp", "frp", "Latn", LTR, "arpetan", ""},
	{"French", "fr", "fra", "Latn", LTR, "français", ""},
	{"Galician", "gl", "glg", "Latn", LTR, "galego", ""},
	{"Georgian", "ka", "kat", "Geor", LTR, "ქართული", ""},
	{"German", "de", "deu", "Latn", LTR, "Deutsch", ""},
	{"Greek", "el", "ell", "Grek", LTR, "Ελληνικά", ""},
	{"Gujarati", "gu", "guj", "Gujr", LTR, "ગુજરાતી", ""},
	{"Hebrew", "he", "heb", "Hebr", RTL, "עברית", ""},
	{"Hindi", "hi", "hin", "Deva", LTR, "हिन्दी", ""},
	{"Hungarian", "hu", "hun", "Latn", LTR, "magyar", ""},
	{"Icelandic", "is", "isl", "Latn", LTR, "íslenska", ""},
	{"Indonesian", "id", "ind", "Latn", LTR, "Bahasa Indonesia", ""},
	{"Irish", "ga", "gle", "Latn", LTR, "Gaeilge", ""},
	{"Italian", "it", "ita", "Latn", LTR, "italiano", ""},
	{"Japanese", "ja", "jpn", "Jpan", LTR, "日本語", ""},
	{"Kazakh", "kk", "kaz", "Cyrl", LTR, "қазақ тілі", ""},
	{"Korean", "ko", "kor", "Kore", LTR, "한국어", ""},
	{"Latvian", "lv", "lav", "Latn", LTR, "latviešu", ""},
	{"Lithuanian", "lt", "lit", "Latn", LTR, "lietuvių", ""},
	{"Macedonian", "mk", "mkd", "Cyrl", LTR, "македонски", ""},
	{"Malay", "ms", "msa", "Latn", LTR, "Bahasa Melayu", ""},
	{"Marathi", "mr", "mar", "Deva", LTR, "मराठी", ""},
	{"Norwegian Bokmål", "nb", "nob", "Latn", LTR, "norsk bokmål", ""},
	{"Norwegian Nynorsk", "nn", "nno", "Latn", LTR, "norsk nynorsk", ""},
	{"Occitan", "oc", "oci", "Latn", LTR, "occitan", ""},
	{"Occitan (Aranese)", "oc-aranes", "oci", "Latn", LTR, "aranés", "oc"},
	{"Occitan (Gascon)", "oc-gascon", "oci", "Latn", LTR, "gascon", "oc"},
	{"Persian", "fa", "fas", "Arab", RTL, "فارسی", ""},
	{"Polish", "pl", "pol", "Latn", LTR, "polski", ""},
	{"Portuguese", "pt", "por", "Latn", LTR, "português", ""},
	{"Portuguese (Brazil)", "pt-BR", "por", "Latn", LTR, "português do Brasil", "pt"},
	{"Punjabi", "pa", "pan", "Guru", LTR, "ਪੰਜਾਬੀ", ""},
	{"Romanian", "ro", "ron", "Latn", LTR, "română", ""},
	{"Russian", "ru", "rus", "Cyrl", LTR, "русский", ""},
	{"Sardinian", "sc", "srd", "Latn", LTR, "sardu", ""},
	{"Serbian", "sr", "srp", "Cyrl", LTR, "српски", ""},
	{"Serbo-Croatian", "sh", "hbs", "Latn", LTR, "srpskohrvatski", ""},
	{"Silesian", "szl", "szl", "Latn", LTR, "ślōnskŏ gŏdka", ""},
	{"Slovak", "sk", "slk", "Latn", LTR, "slovenčina", ""},
	{"Slovenian", "sl", "slv", "Latn", LTR, "slovenščina", ""},
	{"Spanish", "es", "spa", "Latn", LTR, "español", ""},
	{"Swahili", "sw", "swa", "Latn", LTR, "Kiswahili", ""},
	{"Swedish", "sv", "swe", "Latn", LTR, "svenska", ""},
	{"Tagalog", "tl", "tgl", "Latn", LTR, "Tagalog", ""},
	{"Tamil", "ta", "tam", "Taml", LTR, "தமிழ்", ""},
	{"Telugu", "te", "tel", "Telu", LTR, "తెలుగు", ""},
	{"Thai", "th", "tha", "Thai", LTR, "ไทย", ""},
	{"Turkish", "tr", "tur", "Latn", LTR, "Türkçe", ""},
	{"Ukrainian", "uk", "ukr", "Cyrl", LTR, "українська", ""},
	{"Urdu", "ur", "urd", "Arab", RTL, "اردو", ""},
	{"Vietnamese", "vi", "vie", "Latn", LTR, "Tiếng Việt", ""},
	{"Welsh", "cy", "cym", "Latn", LTR, "Cymraeg", ""},
}

var index = func() map[string]Language {
	m := make(map[string]Language, len(all)*4)
	for _, l := range all {
		m[strings.ToLower(l.Name)] = l
		m[strings.ToLower(l.Code)] = l
	}
	// Common aliases, and the other names of the variants.
	alias := map[string]string{
		"chinese": "zh-Hans", "zh": "zh-Hans", "zh-cn": "zh-Hans", "zh-tw": "zh-Hant",
		"farsi": "fa", "norwegian": "nb", "no": "nb", "filipino": "tl", "iw": "he",
		"pt-pt": "pt", "en-us": "en", "en-gb": "en",
		"zlm": "ms", "arpitan": "frp", "franco-provencal": "frp",
		"valencian": "ca-valencia", "brazilian portuguese": "pt-BR", "aranese": "oc-aranes", "gascon": "oc-gascon",
	}
	for a, code := range alias {
		m[a] = m[strings.ToLower(code)]
	}
	// ISO 639-3 codes and endonyms, where unambiguous (a variant shares
	// its language's 639-3 code: the language comes first).
	for _, l := range all {
		for _, k := range []string{l.Code3, strings.ToLower(l.Endonym)} {
			if _, taken := m[k]; !taken {
				m[k] = l
			}
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
