package service

import (
	"context"
	"errors"

	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/quota"
	"github.com/dragoman-translate/dragoman/core/segment"
	"github.com/dragoman-translate/dragoman/core/translate"
	"github.com/dragoman-translate/dragoman/plugins/sdk/language"
	"github.com/dragoman-translate/dragoman/plugins/sdk/translation"
)

// Estimator plans a translation without calling an engine
// (translate.Translator).
type Estimator interface {
	Estimate(ctx context.Context, doc *segment.Document, src, tgt string, mode translation.Mode, o translate.Options) (translate.Estimate, error)
}

// DefaultCharsPerSecond is the rate a quote assumes for an engine this
// server has not measured yet (no call since it was installed).
const DefaultCharsPerSecond = 1000

// Quote is what a submission would cost, found without calling an engine.
type Quote struct {
	Documents int
	Words     int // of the document(s), as the job counts them; charged per target
	Segments  int
	Source    *language.Language // given or detected; nil when undetected
	Targets   []TargetQuote
	// The quota: the words the submission would charge (Words per target),
	// the account's limit (nil: unlimited), what the month used so far and
	// what would be left after (nil: unlimited; negative: it does not fit).
	ChargedWords int64
	LimitWords   *int64
	UsedWords    int64
	LeftAfter    *int64
	Seconds      float64 // estimated, the targets one after another
}

// Fits says whether the submission fits in the quota.
func (q *Quote) Fits() bool { return q.LeftAfter == nil || *q.LeftAfter >= 0 }

// TargetQuote is one target's share of a quote.
type TargetQuote struct {
	Target   language.Language
	InMemory int // segments taken from the account's memory or the engines' translation memory
	Legs     []QuoteLeg
	Chars    int     // engine characters of all legs
	Seconds  float64 // estimated from the engines' measured throughput
	Measured bool    // every leg's engine has been measured on this server
}

// QuoteLeg is one leg of a target's route.
type QuoteLeg struct {
	translate.LegEstimate
	CharsPerSecond float64
	Measured       bool
}

// QuoteUpload quotes an uploaded document (or .zip of documents) as
// QueueUpload would submit it, and deletes it: the same checks answer
// the same errors (target languages, pairs, glossary, formats), but the
// quota is reported, not enforced.
func (s *Jobs) QuoteUpload(ctx context.Context, c *Caller, up *Upload, r SubmitRequest) (*Quote, error) {
	zb := s.openBundle(ctx, up)
	defer zb.Close()
	docs := []named{{up: up, name: r.name()}}
	defer func() { s.discardAll(context.WithoutCancel(ctx), docs) }()
	targets, err := s.batchOptions(ctx, c, r)
	if err != nil {
		return nil, err
	}
	if docs, _, err = s.submissionDocs(ctx, up, zb, r.name(), len(targets)); err != nil {
		return nil, err
	}
	return s.quoteDocs(ctx, c, docs, targets)
}

// quoteDocs quotes stored documents to targets.
func (s *Jobs) quoteDocs(ctx context.Context, c *Caller, docs []named, targets []Options) (*Quote, error) {
	q := &Quote{Documents: len(docs)}
	for _, o := range targets {
		q.Targets = append(q.Targets, TargetQuote{Target: o.Target, Measured: true})
	}
	rates, _ := s.rates(ctx)
	for _, d := range docs {
		rd, err := s.read(ctx, d.up, d.name, targets[0])
		if err != nil {
			return nil, err
		}
		if err := s.checkWords(c, rd); err != nil { // the job would fail at it
			return nil, err
		}
		if err := s.checkReadPairs(ctx, rd, targets); err != nil {
			return nil, err
		}
		q.Words += rd.words
		q.Segments += segments(rd.doc)
		q.Source = rd.source
		for i, o := range targets {
			if err := s.quoteTarget(ctx, c, rd, o, rates, &q.Targets[i]); err != nil {
				return nil, err
			}
		}
	}
	for _, t := range q.Targets {
		q.Seconds += t.Seconds
	}
	q.ChargedWords = int64(q.Words) * int64(len(targets))
	return q, s.quoteQuota(ctx, c, q)
}

// quoteTarget adds a document's estimate to one target's quote: the
// account's memory first (its human translations are used as they are),
// then the route's engines and their translation memory.
func (s *Jobs) quoteTarget(ctx context.Context, c *Caller, rd *reading, o Options, rates map[string]ports.Throughput, tq *TargetQuote) error {
	if rd.source == nil || rd.words == 0 || rd.source.Code == o.Target.Code || s.Estimator == nil {
		return nil // nothing to send; or the language is only known once the job detects it
	}
	doc, remembered := s.unremembered(ctx, c, rd, o)
	tq.InMemory += remembered
	topts := translate.Options{DoNotTranslate: c.Account.DoNotTranslate, Account: c.Account.ID}
	if o.GlossaryID != "" && s.Glossaries != nil {
		g, err := s.Glossaries.GetGlossary(ctx, c.Account.ID, o.GlossaryID)
		if err != nil {
			return err
		}
		topts.Glossary = g
	}
	est, err := s.Estimator.Estimate(ctx, doc, rd.source.Code, o.Target.Code, o.Mode, topts)
	if errors.Is(err, translate.ErrNoRoute) {
		return fail(KindUnprocessable, "no configured engine translates %s to %s", rd.source.Name, o.Target.Name)
	}
	if err != nil {
		return err
	}
	tq.InMemory += est.InMemory
	for i, l := range est.Legs {
		leg := QuoteLeg{LegEstimate: l, CharsPerSecond: DefaultCharsPerSecond}
		if r, ok := rates[l.Engine]; ok && r.CharsPerSecond > 0 {
			leg.CharsPerSecond, leg.Measured = r.CharsPerSecond, true
		}
		tq.Measured = tq.Measured && leg.Measured
		tq.Chars += l.Chars
		tq.Seconds += float64(l.Chars) / leg.CharsPerSecond
		if i < len(tq.Legs) { // a further document of a .zip: the same route
			tq.Legs[i].Chars += l.Chars
			tq.Legs[i].Exact = tq.Legs[i].Exact && l.Exact
			continue
		}
		tq.Legs = append(tq.Legs, leg)
	}
	return nil
}

// unremembered is the document without the segments the account's own
// memory holds, and how many those are.
func (s *Jobs) unremembered(ctx context.Context, c *Caller, rd *reading, o Options) (*segment.Document, int) {
	if s.AccountMemory == nil {
		return rd.doc, 0
	}
	var sources []string
	rd.doc.EachSegment(func(_ *segment.Unit, sg *segment.Segment) { sources = append(sources, sg.Source) })
	hits, err := s.AccountMemory.RecallMemory(ctx, c.Account.ID, rd.source.Code, o.Target.Code, sources)
	if err != nil || len(hits) == 0 {
		return rd.doc, 0
	}
	rest := &segment.Document{Format: rd.doc.Format}
	found := 0
	for _, u := range rd.doc.Units {
		var left []segment.Segment
		for _, sg := range u.Segments {
			if _, ok := hits[sg.Source]; ok {
				found++
				continue
			}
			left = append(left, sg)
		}
		if len(left) > 0 {
			rest.Units = append(rest.Units, segment.Unit{ID: u.ID, Part: u.Part, Codes: u.Codes, Segments: left})
		}
	}
	return rest, found
}

func (s *Jobs) rates(ctx context.Context) (map[string]ports.Throughput, error) {
	if s.Throughput == nil {
		return nil, nil
	}
	return s.Throughput.Throughputs(ctx)
}

// quoteQuota fills the quota figures: what is used this month and what
// would be left after the submission.
func (s *Jobs) quoteQuota(ctx context.Context, c *Caller, q *Quote) error {
	used, err := s.Quota.Used(ctx, c.Account.ID, quota.Period(s.Clock.Now()))
	if err != nil {
		return err
	}
	q.UsedWords = used
	if limit := c.Account.Limits().LimitWords; limit != nil {
		left := *limit - used - q.ChargedWords
		q.LimitWords, q.LeftAfter = limit, &left
	}
	return nil
}

func segments(doc *segment.Document) int {
	n := 0
	doc.EachSegment(func(*segment.Unit, *segment.Segment) { n++ })
	return n
}
