package tagged

import (
	"fmt"
	"strings"
	"unicode"
)

// Repair makes an engine's target carry every inline code of its source
// exactly once, with valid nesting, without losing any of the target's
// text. Unknown and duplicated codes are dropped (their text kept); missing
// paired codes, and paired codes left empty around source text that was
// not blank, are put back around the same text if the target contains it
// (the occurrence nearest the proportional position), else at the
// proportional position snapped to word boundaries, always covering some
// text; missing isolated codes at their proportional position. Each repair
// is reported.
func Repair(source, target string) (string, []string) {
	if target == source {
		return target, nil // an untouched segment is valid by construction
	}
	src := Tokenize(source)
	kinds := map[int]TokenKind{}
	type span struct{ start, end int }
	spans := map[int]*span{}
	var order []int
	var stack []int
	srcLen := 0
	for _, t := range src {
		switch t.Kind {
		case Text:
			srcLen += len(t.Text)
		case Open:
			if _, dup := kinds[t.ID]; dup {
				continue
			}
			kinds[t.ID] = Open
			spans[t.ID] = &span{start: srcLen}
			order = append(order, t.ID)
			stack = append(stack, t.ID)
		case Close:
			n := len(stack)
			if n > 0 {
				spans[stack[n-1]].end = srcLen
				stack = stack[:n-1]
			}
		case Place:
			if _, dup := kinds[t.ID]; dup {
				continue
			}
			kinds[t.ID] = Place
			spans[t.ID] = &span{start: srcLen, end: srcLen}
			order = append(order, t.ID)
		}
	}
	var warns []string
	warn := func(f string, a ...any) { warns = append(warns, fmt.Sprintf(f, a...)) }

	// keep the first valid use of every code, drop the rest
	seen := map[int]bool{}
	var toks []Token
	var keep []bool
	for _, t := range Tokenize(target) {
		switch t.Kind {
		case Text:
			toks = append(toks, t)
		case Open:
			ok := kinds[t.ID] == Open && !seen[t.ID]
			if ok {
				seen[t.ID] = true
				toks = append(toks, t)
			} else if kinds[t.ID] == Open {
				warn("code %d duplicated: extra copy dropped", t.ID)
			} else {
				warn("unknown code %d dropped", t.ID)
			}
			keep = append(keep, ok)
		case Close:
			n := len(keep)
			if keep[n-1] {
				toks = append(toks, t)
			}
			keep = keep[:n-1]
		case Place:
			switch {
			case kinds[t.ID] == Place && !seen[t.ID]:
				seen[t.ID] = true
				toks = append(toks, t)
			case kinds[t.ID] == Place:
				warn("code %d duplicated: extra copy dropped", t.ID)
			default:
				warn("unknown code %d dropped", t.ID)
			}
		}
	}

	// a span emptied of the text it formatted is as good as missing
	wasEmptied := map[int]bool{}
	// (engines that cannot carry formatting over punctuation leave those)
	for _, id := range emptied(toks, func(id int) bool {
		return strings.TrimSpace(Plain(sliceText(src, spans[id].start, spans[id].end))) != ""
	}) {
		toks = removeSpan(toks, id)
		seen[id], wasEmptied[id] = false, true
	}

	for _, id := range order {
		if seen[id] {
			continue
		}
		text := plainOf(toks)
		stops := placeOffsets(toks)
		sp := spans[id]
		if kinds[id] == Place {
			p := scale(sp.start, srcLen, len(text))
			if sp.start > 0 && sp.start < srcLen {
				p = snapWord(text, p, sp.start*2 < srcLen, stops)
			}
			i := beforeText(&toks, p)
			toks = insert(toks, i, Token{Kind: Place, ID: id})
			warn("code %d missing: restored by position", id)
			continue
		}
		a, b := -1, -1
		inner := strings.TrimSpace(Plain(sliceText(src, sp.start, sp.end)))
		if distinctive(inner) || symbols(inner) {
			near := scale(sp.start, srcLen, len(text))
			if k := nearest(text, inner, near); k >= 0 {
				a, b = k, k+len(inner)
			} else if lt, li := strings.ToLower(text), strings.ToLower(inner); len(lt) == len(text) && len(li) == len(inner) {
				if k := nearest(lt, li, near); k >= 0 {
					a, b = k, k+len(inner)
				}
			}
		}
		how := "around the same text"
		if a < 0 {
			how = "by position"
			srcText := plainOf(src)
			if ws, wt := wordStarts(srcText), wordStarts(text); len(ws) > 1 && len(wt) > 1 {
				// map word indexes: spaces make better anchors than bytes
				a = wordOffset(text, wt, scale(wordIndex(ws, sp.start), len(ws), len(wt)), true)
				b = wordOffset(text, wt, scale(wordIndex(ws, sp.end), len(ws), len(wt)), false)
			} else {
				a, b = scale(sp.start, srcLen, len(text)), scale(sp.end, srcLen, len(text))
				if sp.start > 0 {
					a = snapWord(text, a, true, stops)
				}
				if sp.end < srcLen {
					b = snapWord(text, b, false, stops)
				}
			}
			if b <= a && inner != "" && strings.TrimSpace(text) != "" {
				a, b = wordAround(text, a)
			}
			if b < a {
				b = a
			}
		}
		ia := beforeText(&toks, a)
		ib := ia
		if b > a {
			ib = afterText(&toks, b)
			if ib < ia {
				ib = ia
			}
		}
		ia, ib = balance(toks, ia, ib)
		toks = insert(toks, ib, Token{Kind: Close, ID: id})
		toks = insert(toks, ia, Token{Kind: Open, ID: id})
		lost := "missing"
		if wasEmptied[id] {
			lost = "emptied of its text"
		}
		warn("code %d %s: restored %s", id, lost, how)
	}
	return Render(toks), warns
}

// distinctive text is worth searching for in a translation: a single
// quote mark or letter would match the wrong place.
func distinctive(s string) bool {
	n := 0
	for _, r := range s {
		if isWordRune(r) {
			n++
		}
	}
	return n >= 2
}

// symbols is text of punctuation and symbols only ("<", "®", "=\""): no
// engine translates it, so the target holds it as it was.
func symbols(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if isWordRune(r) || unicode.IsSpace(r) {
			return false
		}
	}
	return true
}

// nearest is the offset of the occurrence of sub in s nearest to p, or -1.
func nearest(s, sub string, p int) int {
	best := -1
	for i := 0; ; {
		k := strings.Index(s[i:], sub)
		if k < 0 {
			return best
		}
		k += i
		if best < 0 || abs(k-p) < abs(best-p) {
			best = k
		}
		i = k + len(sub)
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// emptied lists the paired codes of toks that wrap no text but blanks
// while hadText says their source text was not blank.
func emptied(toks []Token, hadText func(id int) bool) []int {
	type open struct {
		id   int
		text bool
	}
	var stack []open
	var out []int
	for _, t := range toks {
		switch t.Kind {
		case Text:
			if strings.TrimSpace(t.Text) != "" {
				for i := range stack {
					stack[i].text = true
				}
			}
		case Open:
			stack = append(stack, open{id: t.ID})
		case Close:
			if n := len(stack); n > 0 {
				if o := stack[n-1]; !o.text && hadText(o.id) {
					out = append(out, o.id)
				}
				stack = stack[:n-1]
			}
		}
	}
	return out
}

// removeSpan drops the open and close tokens of paired code id, keeping
// what they wrapped.
func removeSpan(toks []Token, id int) []Token {
	out := toks[:0]
	depth := -1 // nesting depth inside the removed span, -1: not in it
	for _, t := range toks {
		switch {
		case t.Kind == Open && t.ID == id && depth < 0:
			depth = 0
			continue
		case t.Kind == Open && depth >= 0:
			depth++
		case t.Kind == Close && depth == 0:
			depth = -1
			continue
		case t.Kind == Close && depth > 0:
			depth--
		}
		out = append(out, t)
	}
	return out
}
