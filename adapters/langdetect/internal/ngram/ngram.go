// Package ngram is the model langdetect uses beside lingua for the
// languages lingua has no model of (Aragonese, Asturian, Galician,
// Occitan, Franco-Provençal, Sardinian) and their neighbours: a naive
// Bayes classifier over the words and the 1- to 4-letter sequences of a
// text, trained on Apertium's translations of generated English (see
// ../train).
package ngram

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// Features calls f with each feature of text: every lower-cased word as
// "w:word", and its letter sequences of one to four, the word padded with
// spaces.
func Features(text string, f func(string)) {
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && r != '\'' && r != '’'
	}) {
		w = strings.Trim(w, "'’")
		if w == "" {
			continue
		}
		f("w:" + w)
		r := []rune(" " + w + " ")
		for n := 1; n <= 4; n++ {
			for i := 0; i+n <= len(r); i++ {
				if n == 1 && r[i] == ' ' {
					continue
				}
				f(string(r[i : i+n]))
			}
		}
	}
}

// Model holds each language's log-probability of its commonest features,
// and the floor for the rest.
type Model struct {
	Langs []string
	probs map[string][]float64 // feature → log-probability per language
	floor []float64
}

// Train counts the features of each language's text and keeps the top
// keep of each.
func Train(texts map[string]string, keep int) *Model {
	m := &Model{probs: map[string][]float64{}}
	for l := range texts {
		m.Langs = append(m.Langs, l)
	}
	sort.Strings(m.Langs)
	m.floor = make([]float64, len(m.Langs))
	for i, l := range m.Langs {
		counts := map[string]int{}
		total := 0
		Features(texts[l], func(f string) { counts[f]++; total++ })
		type fc struct {
			f string
			n int
		}
		var list []fc
		for f, n := range counts {
			list = append(list, fc{f, n})
		}
		sort.Slice(list, func(a, b int) bool {
			if list[a].n != list[b].n {
				return list[a].n > list[b].n
			}
			return list[a].f < list[b].f
		})
		if len(list) > keep {
			list = list[:keep]
		}
		for _, x := range list {
			p := m.probs[x.f]
			if p == nil {
				p = make([]float64, len(m.Langs))
				m.probs[x.f] = p
			}
			p[i] = math.Log(float64(x.n) / float64(total))
		}
		m.floor[i] = math.Log(0.5 / float64(total))
	}
	for _, p := range m.probs {
		for i := range p {
			if p[i] == 0 {
				p[i] = m.floor[i]
			}
		}
	}
	return m
}

// Scores are the log-likelihoods of text per language (m.Langs order)
// over the features any language kept, and how many features counted.
func (m *Model) Scores(text string) ([]float64, int) {
	s := make([]float64, len(m.Langs))
	n := 0
	Features(text, func(f string) {
		p, ok := m.probs[f]
		if !ok {
			return
		}
		n++
		for i := range s {
			s[i] += p[i]
		}
	})
	return s, n
}

// Write stores the model as text: a header of languages and floors, then
// a feature a line with its log-probabilities (to 0.1; empty where the
// language did not keep the feature, which then counts at its floor).
func (m *Model) Write(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, strings.Join(m.Langs, "\t"))
	var floors []string
	for _, f := range m.floor {
		floors = append(floors, strconv.FormatFloat(f, 'f', 2, 64))
	}
	fmt.Fprintln(bw, strings.Join(floors, "\t"))
	var feats []string
	for f := range m.probs {
		feats = append(feats, f)
	}
	sort.Strings(feats)
	for _, f := range feats {
		var ps []string
		for i, p := range m.probs[f] {
			if p == m.floor[i] {
				ps = append(ps, "") // not among the language's kept features
				continue
			}
			ps = append(ps, strconv.FormatFloat(p, 'f', 1, 64))
		}
		fmt.Fprintf(bw, "%s\t%s\n", f, strings.Join(ps, "\t"))
	}
	return bw.Flush()
}

// Read loads a model Write stored.
func Read(r io.Reader) (*Model, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	m := &Model{probs: map[string][]float64{}}
	line := 0
	for sc.Scan() {
		fields := strings.Split(sc.Text(), "\t")
		line++
		switch line {
		case 1:
			m.Langs = fields
			continue
		case 2:
			for _, f := range fields {
				v, err := strconv.ParseFloat(f, 64)
				if err != nil {
					return nil, fmt.Errorf("ngram model: floors: %w", err)
				}
				m.floor = append(m.floor, v)
			}
			continue
		}
		if len(fields) != len(m.Langs)+1 {
			return nil, fmt.Errorf("ngram model: line %d has %d fields, want %d", line, len(fields), len(m.Langs)+1)
		}
		p := make([]float64, len(m.Langs))
		for i, f := range fields[1:] {
			if f == "" {
				p[i] = m.floor[i]
				continue
			}
			v, err := strconv.ParseFloat(f, 64)
			if err != nil {
				return nil, fmt.Errorf("ngram model: line %d: %w", line, err)
			}
			p[i] = v
		}
		m.probs[fields[0]] = p
	}
	if len(m.Langs) == 0 || len(m.floor) != len(m.Langs) {
		return nil, fmt.Errorf("ngram model: no header")
	}
	return m, sc.Err()
}
