package httpapi

import (
	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/review"
)

// Flag is one reason to check a sentence.
type Flag struct {
	Kind     string `json:"kind" enum:"untranslated,unknown_words,numbers,addresses,placeholders,links,glossary,do_not_translate,overflow,pages,script,length,formatting,route" doc:"What the flag is about: untranslated (the sentence was left in the original language), unknown_words (words the engine did not know), numbers (numbers or dates differ), addresses (web or e-mail addresses differ), placeholders ({name}, %s… differ), links (a hyperlink the engine dropped, put back), glossary (a glossary term not used, or put back), do_not_translate (a term to keep as written was changed), overflow (no longer fits its text box, exact-height table row or frame in the PDF rendition), pages (the document has more pages than the original), script (words in another script than the target language's), length (far longer or shorter than usual for the pair), formatting (other inline formatting dropped and put back), route (translated through other languages)"`
	Severity string `json:"severity" enum:"low,medium,high" doc:"How likely the flag points at a real error; one medium or high flag makes a sentence to check"`
	Message  string `json:"message" doc:"One sentence a translator understands"`
}

// Review is what the review of a job's translation found.
type Review struct {
	Summary     string         `json:"summary" doc:"What a person reads first, e.g. \"7 of 412 sentences to check\""`
	Segments    int            `json:"segments" doc:"Sentences checked"`
	ToCheck     int            `json:"to_check" doc:"Sentences whose flags make them worth checking (score ≥ 0.4)"`
	ByKind      map[string]int `json:"by_kind" doc:"Sentences with at least one flag of each kind (see Flag.kind); kinds found in none are left out"`
	Document    []Flag         `json:"document" doc:"Flags about the whole document: more pages than the original, structure lost"`
	SourcePages *int           `json:"source_pages,omitempty" doc:"Pages of the original's PDF rendition, when the job made one (pdf=true)"`
	Pages       *int           `json:"pages,omitempty" doc:"Pages of the translation's PDF rendition, when the job made one"`
}

func flagsOut(fs []review.Flag) []Flag {
	out := make([]Flag, 0, len(fs))
	for _, f := range fs {
		out = append(out, Flag{Kind: string(f.Kind), Severity: string(f.Severity), Message: f.Message})
	}
	return out
}

func reviewOut(j *job.Job) *Review {
	s := j.Review
	if s == nil {
		return nil
	}
	r := &Review{Summary: s.Text(), Segments: s.Segments, ToCheck: s.ToCheck, ByKind: map[string]int{}, Document: flagsOut(s.Document)}
	for k, n := range s.ByKind {
		r.ByKind[string(k)] = n
	}
	if s.SourcePages > 0 {
		r.SourcePages = &s.SourcePages
	}
	if s.Pages > 0 {
		r.Pages = &s.Pages
	}
	return r
}
