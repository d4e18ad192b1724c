package pipeline

import (
	"context"
	"fmt"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/segment"
	"github.com/dragoman-translate/dragoman/core/translate"
)

// translateRemembering fills from the account's own memory (its XLIFF
// post-edits and TMX imports) every segment it holds, exactly as stored,
// and sends only the rest to the engines. A human translation is preferred
// over any engine's, whatever engine or mode the job uses; the memory is a
// help, so an error reading it only means no hits.
func (p *Pipeline) translateRemembering(ctx context.Context, j *job.Job, doc *segment.Document, src, tgt string, o translate.Options) (translate.Result, error) {
	o.Account = j.AccountID // whose engine memory the job reads and fills
	var hits map[string]string
	if p.Memory != nil {
		var sources []string
		doc.EachSegment(func(_ *segment.Unit, s *segment.Segment) { sources = append(sources, s.Source) })
		hits, _ = p.Memory.RecallMemory(ctx, j.AccountID, src, tgt, sources)
	}
	if len(hits) == 0 {
		return p.Translator.TranslateWith(ctx, doc, src, tgt, j.Mode, o)
	}
	// The rest goes to the engines as a document of its own: the units
	// keep their codes and only the segments not remembered.
	rest := &segment.Document{Format: doc.Format}
	type place struct{ unit, seg int }
	var where []place
	found, total := 0, 0
	for i := range doc.Units {
		u := &doc.Units[i]
		var left []segment.Segment
		for k := range u.Segments {
			s := &u.Segments[k]
			total++
			if t, ok := hits[s.Source]; ok {
				s.Target = t
				found++
				continue
			}
			left = append(left, *s)
			where = append(where, place{i, k})
		}
		if len(left) > 0 {
			rest.Units = append(rest.Units, segment.Unit{ID: u.ID, Part: u.Part, Codes: u.Codes, Segments: left})
		}
	}
	var res translate.Result
	if len(where) > 0 {
		var err error
		res, err = p.Translator.TranslateWith(ctx, rest, src, tgt, j.Mode, o)
		if err != nil {
			return res, err
		}
		n := 0
		rest.EachSegment(func(_ *segment.Unit, s *segment.Segment) {
			w := where[n]
			doc.Units[w.unit].Segments[w.seg].Target = s.Target
			n++
		})
	} else {
		res.Engine = "memory"
	}
	res.Metrics.CacheHits += found
	res.Metrics.Segments += found
	res.Warnings = append(res.Warnings, fmt.Sprintf("%d of %d segments were taken from the account's translation memory (human translations), not from an engine", found, total))
	return res, nil
}
