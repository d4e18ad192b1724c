// Command glossecho is a test provider that applies glossaries itself for
// pairs from English: it echoes each segment with every glossary source
// term replaced by its target, and reports in a warning the glossary it
// was sent and how many isolated codes (<x id="N"/>) the segments held,
// so a test sees whether the host left the terms in the text.
package main

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/dragoman-translate/dragoman/plugins/sdk"
)

type engine struct{}

func (engine) Capabilities(context.Context) (sdk.Capabilities, error) {
	return sdk.Capabilities{Name: "glossecho", AnyToAny: true, NativeGlossary: true,
		GlossaryPairs: []sdk.Pair{{Source: "en", Target: sdk.AnyLanguage}}}, nil
}

func (engine) Translate(_ context.Context, req sdk.TranslateRequest) (sdk.TranslateResult, error) {
	codes := 0
	for _, s := range req.Segments {
		codes += strings.Count(s, "<x ")
	}
	out := req.Segments
	warn := fmt.Sprintf("glossecho: no glossary, %d code(s)", codes)
	if g := req.Glossary; g != nil {
		entries := append([]sdk.GlossaryEntry(nil), g.Entries...)
		sort.Slice(entries, func(i, j int) bool { return len(entries[i].Source) > len(entries[j].Source) })
		var pairs []string
		for _, e := range entries {
			pairs = append(pairs, e.Source, e.Target)
		}
		r := strings.NewReplacer(pairs...)
		out = make([]string, len(req.Segments))
		for i, s := range req.Segments {
			out[i] = r.Replace(s)
		}
		warn = fmt.Sprintf("glossecho: glossary %s of %d entries, %d code(s)", g.Version, len(g.Entries), codes)
	}
	return sdk.TranslateResult{Segments: out, Warnings: []string{warn}}, nil
}

func main() { sdk.ServeProvider(engine{}) }
