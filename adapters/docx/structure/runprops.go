package structure

import (
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/dragoman-translate/dragoman/adapters/ooxml"
)

// csTwins maps each complex-script twin to its Latin property.
var csTwins = map[string]string{"bCs": "b", "iCs": "i", "szCs": "sz"}

// runProps collects the visible formatting of one run's w:rPr.
//
// Direction (rtl, cs), fonts and language are not visible formatting: the
// RTL layout rewrites them on purpose. Neither is which twin carries bold,
// italic or size: translating from right to left, the layout copies bCs,
// iCs and szCs into a missing b, i and sz so that the English text keeps
// the look of the Arabic (and the reverse way it sets the twins from the
// Latin values). The signature therefore names a twin pair once, with the
// Latin value where the run has one and, for a complex-script run, the cs
// value otherwise: the same rule the layout applies, on both documents.
type runProps struct {
	on      []string          // visible properties that are on
	present map[string]bool   // Latin twins present, on or off
	cs      map[string]string // cs twins that are on, by Latin name
	complex bool              // w:rtl or w:cs is on
}

func (p *runProps) reset() {
	p.on = p.on[:0]
	clear(p.present)
	clear(p.cs)
	p.complex = false
}

// add records one child element of the run's w:rPr.
func (p *runProps) add(k *ooxml.Node) {
	if p.present == nil {
		p.present, p.cs = map[string]bool{}, map[string]string{}
	}
	local, on := k.Local, isOn(k)
	switch {
	case local == "rtl" || local == "cs":
		p.complex = p.complex || on
	case csTwins[local] != "":
		if on {
			p.cs[csTwins[local]] = csTwins[local] + attrs(k)
		}
	case visible[local]:
		if local == "b" || local == "i" || local == "sz" {
			p.present[local] = true
		}
		if on {
			p.on = append(p.on, local+attrs(k))
		}
	}
}

// sig is the formatting signature of a run with this text: its visible
// properties, sorted. A run with none is plain text (the empty signature).
func (p *runProps) sig(text string) string {
	s := append([]string(nil), p.on...)
	if p.complex || complexScript(text) {
		for lat, v := range p.cs {
			if !p.present[lat] {
				s = append(s, v)
			}
		}
	}
	sort.Strings(s)
	// A property written twice (LibreOffice exports <w:b/><w:b/>) is
	// one property; the RTL layout writes it once.
	return strings.Join(slices.Compact(s), "")
}

// complexScript reports whether text has a letter of a right-to-left script,
// which Word shows with the cs twins.
func complexScript(text string) bool {
	for _, r := range text {
		if r < 0x0590 { // below Hebrew: no such script
			continue
		}
		if unicode.In(r, unicode.Hebrew, unicode.Arabic, unicode.Syriac, unicode.Thaana, unicode.Nko) {
			return true
		}
	}
	return false
}

// isOn: a toggle property is on (absent val means on).
func isOn(k *ooxml.Node) bool {
	v, ok := k.Attr("val")
	return !ok || (v != "0" && v != "false" && v != "off" && v != "none")
}

// attrs writes an element's attributes as a signature.
func attrs(k *ooxml.Node) string {
	var b strings.Builder
	for _, a := range k.Attrs {
		b.WriteString(" " + a.Name.Local + "=" + a.Value)
	}
	return "<" + b.String() + ">"
}
