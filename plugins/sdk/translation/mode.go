// Package translation names how freely a translation may depart from its
// source: the mode a client asks for (translation_mode in the API), which
// the host sends with every request to a provider plugin. It is the one
// list of modes: the API's enum and description, the dashboard's choices,
// the command line's help and the protocol's values all come from here.
// Like every leaf package of the SDK it imports nothing but the standard
// library.
package translation

import (
	"errors"
	"strings"
)

// Mode is how freely a provider may translate.
type Mode string

const (
	Professional Mode = "professional" // fluent, technical terms kept as they are
	Full         Mode = "full"         // everything translated fluently
	Literal      Mode = "literal"      // word for word where the engine can
	Extreme      Mode = "extreme"      // full localisation (idioms, units, formats)
)

// Default is the mode of a request that names none.
const Default = Professional

// About says what a mode means to those who choose it.
type About struct {
	Label string // its name on a form: "Localised"
	Help  string // one sentence for people choosing it
	API   string // what the API's description says it does, after its name
}

// modes are the modes in the order the API documents them, with what each
// means. A new mode is a constant above and a line here; an engine honours
// it by listing it in its capabilities (others translate in full mode and
// warn).
var modes = []struct {
	Mode
	About
}{
	{Professional, About{"Professional", "Everything is translated except technical terms, product names and code, which stay as written.",
		"keeps technical terms (URLs, e-mail addresses, paths, code identifiers, versions, numbers with units, the account's do-not-translate list set with PUT /account/do-not-translate)"}},
	{Full, About{"Full", "Every word is translated, terms and names included.",
		"translates everything"}},
	{Literal, About{"Literal", "Close to word for word, keeping the original sentence structure where the engine can.",
		"asks the engine for word-for-word output where it can"}},
	{Extreme, About{"Localised", "Adapted for the reader: idioms, units, dates and number formats follow the target language.",
		"is full localisation (idioms, units, date and number formats) on engines that support it (LLM engines)"}},
}

// Modes lists every mode, in the order the API documents them.
var Modes = func() []Mode {
	out := make([]Mode, len(modes))
	for i, m := range modes {
		out[i] = m.Mode
	}
	return out
}()

// About is what m means; the zero About for a mode that is not one.
func (m Mode) About() About {
	for _, d := range modes {
		if d.Mode == m {
			return d.About
		}
	}
	return About{}
}

// Names are the modes' names, in the order of Modes.
func Names() []string {
	out := make([]string, len(Modes))
	for i, m := range Modes {
		out[i] = string(m)
	}
	return out
}

// ParseMode accepts a mode name; empty means Default.
func ParseMode(s string) (Mode, error) {
	if s == "" {
		return Default, nil
	}
	for _, m := range Modes {
		if string(m) == s {
			return m, nil
		}
	}
	return "", errors.New("translation_mode is not one of " + strings.Join(Names(), ", "))
}
