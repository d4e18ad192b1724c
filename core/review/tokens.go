package review

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Addresses and placeholders are found in plain text; numbers are found in
// what is left once they are taken out, so the digits of a URL or of %1$s
// are not numbers of the sentence.
var (
	urlRe   = regexp.MustCompile(`(?i)\b(?:(?:https?|ftp)://|www\.)[^\s<>"'«»“”‘’]+`)
	emailRe = regexp.MustCompile(`[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+`)
	placeRe = regexp.MustCompile(`\{\{\s*[\w.]+\s*\}\}|\{[\w.]*\}|\$\{[\w.]+\}|%\d+\$[sdf]|%[sdf@]|%[A-Za-z_]\w*%|\[\[[\w.]+\]\]`)
)

// span is a piece of plain text found by one of the patterns.
type span struct{ from, to int }

// addresses are the web and e-mail addresses of plain text, with the
// punctuation that ends a sentence around them left out.
func addresses(s string) ([]string, []span) {
	var out []string
	var at []span
	for _, re := range []*regexp.Regexp{urlRe, emailRe} {
		for _, m := range re.FindAllStringIndex(s, -1) {
			a := strings.TrimRight(s[m[0]:m[1]], ".,;:!?)]}»”’'")
			if re == emailRe && overlaps(at, m[0]) {
				continue // the user@ of ftp://user@host
			}
			out = append(out, a)
			at = append(at, span{m[0], m[0] + len(a)})
		}
	}
	return out, at
}

func placeholders(s string) ([]string, []span) {
	var out []string
	var at []span
	for _, m := range placeRe.FindAllStringIndex(s, -1) {
		out = append(out, s[m[0]:m[1]])
		at = append(at, span{m[0], m[1]})
	}
	return out, at
}

func overlaps(spans []span, i int) bool {
	return slices.ContainsFunc(spans, func(s span) bool { return i >= s.from && i < s.to })
}

// blank replaces the spans of s by spaces of the same length.
func blank(s string, spans ...[]span) string {
	b := []byte(s)
	for _, l := range spans {
		for _, sp := range l {
			for i := sp.from; i < sp.to && i < len(b); i++ {
				b[i] = ' '
			}
		}
	}
	return string(b)
}

// groupSep are the characters that separate digit groups inside one
// number: decimal marks and the thousands separators of the languages
// (a plain space is not one: "3 4" is two numbers).
func groupSep(r rune) bool {
	switch r {
	case '.', ',', '\'', '\u00a0', '\u202f', '\u2009', '\u066b', '\u066c', '\u2019':
		return true
	}
	return false
}

// numbers are the numbers of plain text, each as its digits in ASCII
// without separators or leading zeros: "1,234.50", "1.234,50" and
// "١٢٣٤٫٥٠" are all "123450", so a number written the target's way is the
// same number.
func numbers(s string) []string {
	var out []string
	var cur []byte
	flush := func() {
		if len(cur) > 0 {
			n := strings.TrimLeft(string(cur), "0")
			if n == "" {
				n = "0"
			}
			out = append(out, n)
			cur = cur[:0]
		}
	}
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case unicode.IsDigit(r):
			cur = append(cur, byte('0'+digitValue(r)))
		case groupSep(r) && len(cur) > 0 && i+n < len(s):
			if next, _ := utf8.DecodeRuneInString(s[i+n:]); !unicode.IsDigit(next) {
				flush()
			}
		default:
			flush()
		}
		i += n
	}
	flush()
	return out
}

// digitValue is the value of a decimal digit of any script.
func digitValue(r rune) int {
	for _, z := range zeros {
		if r >= z && r <= z+9 {
			return int(r - z)
		}
	}
	return 0
}

// zeros are the zero digits of Unicode's decimal digit ranges (Nd).
var zeros = func() []rune {
	var out []rune
	for _, rg := range unicode.Nd.R16 {
		for r := rune(rg.Lo); r <= rune(rg.Hi); r += rune(rg.Stride) {
			if r == rune(rg.Lo) || (r-rune(rg.Lo))%10 == 0 {
				out = append(out, r)
			}
		}
	}
	for _, rg := range unicode.Nd.R32 {
		for r := rune(rg.Lo); r <= rune(rg.Hi); r += 10 {
			out = append(out, r)
		}
	}
	return out
}()

// differ compares two lists as multisets: what src has that tgt lacks,
// and what tgt has that src lacks, each in order of appearance.
func differ(src, tgt []string, same func(a, b string) bool) (missing, added []string) {
	left := slices.Clone(tgt)
	for _, s := range src {
		if i := slices.IndexFunc(left, func(t string) bool { return same(s, t) }); i >= 0 {
			left = slices.Delete(left, i, i+1)
			continue
		}
		missing = append(missing, s)
	}
	return missing, left
}

func exact(a, b string) bool { return a == b }

// quoted lists items as “a”, “b” and “c”, at most five.
func quoted(items []string) string {
	var q []string
	for i, s := range items {
		if i == 5 {
			q = append(q, fmt.Sprintf("%d more", len(items)-5))
			break
		}
		q = append(q, "“"+s+"”")
	}
	switch len(q) {
	case 0:
		return ""
	case 1:
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}

// differences words what differs: "“42” is missing and “43” was added".
func differences(missing, added []string) string {
	var parts []string
	if len(missing) > 0 {
		verb := "is"
		if len(missing) > 1 {
			verb = "are"
		}
		parts = append(parts, fmt.Sprintf("%s %s missing", quoted(missing), verb))
	}
	if len(added) > 0 {
		verb := "was"
		if len(added) > 1 {
			verb = "were"
		}
		parts = append(parts, fmt.Sprintf("%s %s added", quoted(added), verb))
	}
	return strings.Join(parts, " and ")
}
