package output

import (
	"github.com/dragoman-translate/dragoman/core/glossary"
	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/review"
	"github.com/dragoman-translate/dragoman/core/segment"
	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
	"github.com/dragoman-translate/dragoman/plugins/sdk/translation"
)

// Check repairs the codes of every target of u (what its engine dropped,
// repeated or added: tagged.RepairFixes, as the render would) and sets
// each segment's flags from c: so the stored targets are the ones
// rendered, and a repair is a flag on its segment rather than a warning
// naming it. Overflow flags, which need a rendition, are kept.
func Check(c *review.Checker, u *segment.Unit) {
	types := u.CodeTypes()
	for k := range u.Segments {
		sg := &u.Segments[k]
		if sg.Target == "" {
			sg.Target = sg.Source
		}
		fixed, fixes := tagged.RepairFixes(sg.Source, sg.Target)
		sg.Target = fixed
		overflow := overflowFlags(sg.Flags)
		sg.Flags = c.Check(review.Segment{Source: sg.Source, Target: sg.Target, Codes: types,
			Unknown: sg.Notes.Unknown, Fixes: append(sg.Notes.Fixes, fixes...), LostTerms: sg.Notes.LostTerms})
		sg.Flags = append(sg.Flags, overflow...)
	}
}

func overflowFlags(flags []review.Flag) []review.Flag {
	var out []review.Flag
	for _, f := range flags {
		if f.Kind == review.Overflow {
			out = append(out, f)
		}
	}
	return out
}

// Fit is what unit u must fit in the renditions, false when its container
// grows with its text.
func Fit(u *segment.Unit) (review.Fit, bool) {
	if u.Fixed == "" {
		return review.Fit{}, false
	}
	f := review.Fit{Container: u.Fixed}
	for _, sg := range u.Segments {
		t := sg.Target
		if t == "" {
			t = sg.Source
		}
		f.Source = append(f.Source, tagged.Plain(sg.Source))
		f.Target = append(f.Target, tagged.Plain(t))
	}
	return f, true
}

// MarkOverflow flags the segments of units whose text the rendition of
// the translation (out) cuts off, dropping the overflow flags the units
// had; src is the original's rendition, nil when there is none. It
// reports the units it flagged.
func MarkOverflow(units []*segment.Unit, out, src *review.Rendition) int {
	var fits []review.Fit
	var fitted []*segment.Unit
	for _, u := range units {
		for k := range u.Segments {
			u.Segments[k].Flags = review.Without(u.Segments[k].Flags, review.Overflow)
		}
		if f, ok := Fit(u); ok {
			fits = append(fits, f)
			fitted = append(fitted, u)
		}
	}
	n := 0
	for i, from := range review.Overflowing(out, src, fits) {
		if from < 0 {
			continue
		}
		n++
		u := fitted[i]
		for k := from; k < len(u.Segments); k++ {
			u.Segments[k].Flags = append(u.Segments[k].Flags, review.OverflowFlag(u.Fixed))
		}
	}
	return n
}

// Summarize is the review of doc's segments, with the flags about the
// whole document; pages are the renditions' (0: none).
func Summarize(doc *segment.Document, document []review.Flag, sourcePages, pages int) *review.Summary {
	var t review.Tally
	doc.EachSegment(func(_ *segment.Unit, s *segment.Segment) { t.Add(s.Flags) })
	for _, f := range document {
		t.Document(f)
	}
	s := t.Summary()
	s.SourcePages, s.Pages = sourcePages, pages
	return s
}

// ReviewJob is what the review of j's segments knows of the job: its
// languages, its glossary, the account's do-not-translate terms (kept only
// in the professional mode) and the languages a chained route went
// through. A revision (core/service) checks edits with the same.
func ReviewJob(j *job.Job, g *glossary.Glossary, dnt []string) review.Job {
	rj := review.Job{SourceLang: j.DetectedLang, TargetLang: j.TargetLang}
	if g != nil {
		rj.Glossary = g.Entries
	}
	if j.Mode == translation.Professional {
		rj.DoNotTranslate = dnt
	}
	for i, l := range j.Route {
		if i > 0 {
			rj.Via = append(rj.Via, l.Source)
		}
	}
	return rj
}
