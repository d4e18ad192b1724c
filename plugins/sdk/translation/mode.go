// Package translation names how freely a translation may depart from its
// source: the mode a client asks for (translation_mode in the API), which
// the host sends with every request to a provider plugin. It is the one
// list of modes: the API's enum and description, the dashboard's choices
// and the protocol's values all come from Modes. Like every leaf package
// of the SDK it imports nothing but the standard library.
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

// Modes lists every mode, in the order the API documents them.
var Modes = []Mode{Professional, Full, Literal, Extreme}

// Names are the modes' names, in the order of Modes.
func Names() []string {
	out := make([]string, len(Modes))
	for i, m := range Modes {
		out[i] = string(m)
	}
	return out
}

// ParseMode accepts a mode name; empty means professional.
func ParseMode(s string) (Mode, error) {
	if s == "" {
		return Professional, nil
	}
	for _, m := range Modes {
		if string(m) == s {
			return m, nil
		}
	}
	return "", errors.New("translation_mode is not one of " + strings.Join(Names(), ", "))
}
