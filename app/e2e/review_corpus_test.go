package e2e

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// internalMessage is what a message for a person must not hold: a
// segment, unit, paragraph or code number, a Go error's shape.
var internalMessage = regexp.MustCompile(`(?i)\b(segment|unit|code|paragraph|para|run) ?#?\d+|<[gx] id=|\bnil\b|%!|\bpanic\b`)

// reviewOnCorpus tallies the review of real documents translated by a
// real engine: how many segments each flag kind marks, and how many are to
// check. There is no answer key for these documents, so this is the
// review's noise on real text, beside the planted-defect measure; it
// checks that every message a person reads is a sentence about the
// document, and that the job's summary counts what the segments say.
func reviewOnCorpus(t *testing.T, s *server, key string, jobs []*corpusJob) {
	t.Helper()
	segments, toCheck, docs := 0, 0, 0
	byKind := map[string]int{}
	for _, j := range jobs {
		id, _ := j.status["job_id"].(string)
		if j.status["status"] != "completed" || id == "" {
			continue
		}
		docs++
		for _, w := range asList(j.status["warnings"]) {
			if m, _ := w.(string); internalMessage.MatchString(m) {
				t.Errorf("%s: an internal message among the warnings: %q", j.label(), m)
			}
		}
		rv, _ := j.status["review"].(map[string]any)
		if rv == nil {
			t.Errorf("%s: no review", j.label())
			continue
		}
		n, check := 0, 0
		kinds := map[string]int{}
		for path := "?limit=500"; ; {
			list, _ := segmentsOf(t, s, key, id, path)
			for _, sg := range list.Segments {
				n++
				if sg.ToCheck {
					check++
				}
				seen := map[string]bool{}
				for _, f := range sg.Flags {
					if internalMessage.MatchString(f.Message) || !strings.HasSuffix(f.Message, ".") {
						t.Errorf("%s: a flag's message is not a sentence for a person: %q", j.label(), f.Message)
					}
					if !seen[f.Kind] {
						seen[f.Kind] = true
						kinds[f.Kind]++
					}
				}
			}
			if list.NextCursor == nil {
				break
			}
			path = "?limit=500&cursor=" + *list.NextCursor
		}
		if rv["segments"] != float64(n) || rv["to_check"] != float64(check) {
			t.Errorf("%s: the summary says %v segments, %v to check; the segments say %d, %d", j.label(), rv["segments"], rv["to_check"], n, check)
		}
		segments, toCheck = segments+n, toCheck+check
		for k, c := range kinds {
			byKind[k] += c
		}
	}
	if segments == 0 {
		t.Fatal("no segment reviewed")
	}
	var ks []string
	for k := range byKind {
		ks = append(ks, k)
	}
	sort.Slice(ks, func(a, b int) bool { return byKind[ks[a]] > byKind[ks[b]] })
	var b strings.Builder
	fmt.Fprintf(&b, "%d documents, %d segments, %d to check (%.1f%%)\n| flag kind | segments flagged | per 100 segments |\n|---|---:|---:|\n",
		docs, segments, toCheck, 100*float64(toCheck)/float64(segments))
	for _, k := range ks {
		fmt.Fprintf(&b, "| %s | %d | %.1f |\n", k, byKind[k], 100*float64(byKind[k])/float64(segments))
	}
	t.Logf("the review on the corpus:\n%s", b.String())
}
