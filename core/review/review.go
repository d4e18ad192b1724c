// Package review finds the sentences of a translation a person should
// check, and says why in one sentence each: words the engine did not know,
// a sentence left untranslated, numbers, addresses or placeholders that
// differ from the original, glossary and do-not-translate terms, inline
// formatting the engine dropped and the host put back, a length far from
// the pair's usual, text in the wrong script, text that no longer fits its
// fixed-size box, a route through other languages.
//
// Every check is a pure function of the segment's source and target
// (tagged text, package segment) and of what the job knows (Job); the
// job's one pass (core/pipeline) runs them as each batch comes back from
// the engines, and a revision (core/service) runs them again on the
// edited segments. A segment's flags give it a score and decide whether it
// is "to check"; a Tally adds them up into the job's Summary.
package review

import "slices"

// Kind is what a flag is about. Its values are part of the API.
type Kind string

const (
	UnknownWords   Kind = "unknown_words"    // the engine marked words it did not know
	Untranslated   Kind = "untranslated"     // the target is the source
	Numbers        Kind = "numbers"          // numbers or dates differ
	Addresses      Kind = "addresses"        // web or e-mail addresses differ
	Placeholders   Kind = "placeholders"     // {name}, %s, ${var}… differ
	Glossary       Kind = "glossary"         // a glossary term not applied, or put back by the host
	DoNotTranslate Kind = "do_not_translate" // a term to keep as it is was changed
	Links          Kind = "links"            // a hyperlink the engine dropped, put back by the host
	Formatting     Kind = "formatting"       // other inline codes dropped, repeated or put back
	Length         Kind = "length"           // far longer or shorter than usual for the pair
	Script         Kind = "script"           // letters of another script than the target's
	Overflow       Kind = "overflow"         // no longer fits its text box, exact-height row or frame
	Pages          Kind = "pages"            // the document has more pages than the original
	Route          Kind = "route"            // translated through other languages
)

// Kinds lists every kind, in the order a person reads them.
var Kinds = []Kind{Untranslated, UnknownWords, Numbers, Addresses, Placeholders, Links, Glossary,
	DoNotTranslate, Overflow, Pages, Script, Length, Formatting, Route}

// Valid reports whether k is one of Kinds.
func (k Kind) Valid() bool { return slices.Contains(Kinds, k) }

// Severity is how likely a flag points at a real error.
type Severity string

const (
	Low    Severity = "low"    // worth a glance: most are fine
	Medium Severity = "medium" // often wrong
	High   Severity = "high"   // almost always wrong
)

// Flag is one reason to check a segment.
type Flag struct {
	Kind     Kind     `json:"kind"`
	Severity Severity `json:"severity"`
	Message  string   `json:"message"` // one sentence a translator understands
}

var weight = map[Severity]float64{Low: 0.1, Medium: 0.4, High: 0.7}

// Score combines flags into the chance, in [0, 1), that a segment needs a
// correction, taking each flag as independent evidence: 1 − Π(1 − w).
func Score(flags []Flag) float64 {
	miss := 1.0
	for _, f := range flags {
		miss *= 1 - weight[f.Severity]
	}
	return 1 - miss
}

// CheckScore is the score from which a segment is "to check": one medium
// flag reaches it, low ones alone do not.
const CheckScore = 0.4

// ToCheck reports whether a segment with flags should be checked.
func ToCheck(flags []Flag) bool { return Score(flags) >= CheckScore-1e-9 }

// Has reports whether flags has one of kind k.
func Has(flags []Flag, k Kind) bool {
	return slices.ContainsFunc(flags, func(f Flag) bool { return f.Kind == k })
}

// Without is flags without those of the kinds given.
func Without(flags []Flag, kinds ...Kind) []Flag {
	var out []Flag
	for _, f := range flags {
		if !slices.Contains(kinds, f.Kind) {
			out = append(out, f)
		}
	}
	return out
}
