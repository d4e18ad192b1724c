package docx

import (
	"strings"

	"github.com/dragoman-translate/dragoman/core/segment"
	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
)

// build turns atoms into tagged text with codes.
func (pa *para) build(atoms []atom) {
	// isolated items at the edges, outside any wrapper, stay fixed
	i, j := 0, len(atoms)
	for i < j && atoms[i].iso && len(atoms[i].wraps) == 0 {
		i++
	}
	for j > i && atoms[j-1].iso && len(atoms[j-1].wraps) == 0 {
		j--
	}
	pa.prefix, pa.suffix = atoms[:i], atoms[j:]
	mid := atoms[i:j]

	// the dominant formatting of each container needs no code
	weight := map[*node]map[string]int{}
	rprOf := map[string]*node{}
	for _, a := range mid {
		if a.iso {
			continue
		}
		if strings.TrimSpace(a.text) != "" {
			pa.hasText = true
		}
		c := container(a.wraps)
		if weight[c] == nil {
			weight[c] = map[string]int{}
		}
		weight[c][a.key] += len(a.text)
		if _, ok := rprOf[a.key]; !ok {
			rprOf[a.key] = a.rpr
		}
	}
	pa.base = map[*node]*node{}
	baseKey := map[*node]string{}
	for c, m := range weight {
		best, bw := "", -1
		for k, w := range m {
			if w > bw || (w == bw && k < best) {
				best, bw = k, w
			}
		}
		baseKey[c] = best
		pa.base[c] = rprOf[best]
	}

	type open struct {
		id   int
		wrap *node // nil for a formatting span
		key  string
	}
	var b tagged.Builder
	var stack []open
	lastIso := -1 // id of an isolated code that may absorb the next item
	closeTo := func(n int) {
		for len(stack) > n {
			stack = stack[:len(stack)-1]
			b.Close()
			lastIso = -1
		}
	}
	// align closes what does not match wraps and opens what is missing.
	align := func(wraps []*node, keepFmt bool) {
		n := 0
		for n < len(stack) && n < len(wraps) && stack[n].wrap == wraps[n] {
			n++
		}
		if keepFmt && n == len(wraps) && n == len(stack)-1 && stack[n].wrap == nil {
			return
		}
		closeTo(n)
		for _, w := range wraps[n:] {
			pa.codes = append(pa.codes, code{kind: segment.Paired, typ: pa.typeOf(w), wrap: w})
			id := len(pa.codes)
			stack = append(stack, open{id: id, wrap: w})
			b.Open(id)
			lastIso = -1
		}
	}
	stackMatches := func(n int, wraps []*node) bool {
		for i := 0; i < n; i++ {
			if stack[i].wrap != wraps[i] {
				return false
			}
		}
		return true
	}
	for _, a := range mid {
		if a.iso {
			align(a.wraps, true)
			if lastIso > 0 {
				c := &pa.codes[lastIso-1]
				c.items = append(c.items, a)
				continue
			}
			pa.codes = append(pa.codes, code{kind: segment.Isolated, typ: codeType(a.item.Local), items: []atom{a}})
			lastIso = len(pa.codes)
			b.Place(lastIso)
			continue
		}
		needFmt := a.key != baseKey[container(a.wraps)]
		top := len(stack) - 1
		if needFmt && top >= 0 && stack[top].wrap == nil && stack[top].key == a.key && top == len(a.wraps) && stackMatches(top, a.wraps) {
			b.Text(a.text)
			lastIso = -1
			continue
		}
		align(a.wraps, false)
		if needFmt {
			pa.codes = append(pa.codes, code{kind: segment.Paired, typ: "fmt", fmt: true, rpr: a.rpr})
			id := len(pa.codes)
			stack = append(stack, open{id: id, key: a.key})
			b.Open(id)
		}
		b.Text(a.text)
		lastIso = -1
	}
	closeTo(0)
	pa.tagged = b.String()
}

func (pa *para) typeOf(w *node) string {
	if pa.d.is(w, "r") {
		return "ruby"
	}
	return pa.d.wrapper(w)
}
