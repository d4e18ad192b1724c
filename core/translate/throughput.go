package translate

import (
	"context"
	"time"
	"unicode/utf8"

	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
)

// measured records one successful call: the characters sent (as engines
// bill them, codes excluded) in the time the engine took. A store that
// cannot record it costs the quote's precision, not the job.
func (t *Translator) measured(ctx context.Context, engine string, segments []string, took time.Duration) {
	if t.Throughput == nil {
		return
	}
	chars := 0
	for _, s := range segments {
		chars += utf8.RuneCountInString(tagged.Plain(s))
	}
	if chars == 0 || took <= 0 {
		return
	}
	_ = t.Throughput.RecordThroughput(context.WithoutCancel(ctx), engine, chars, took)
}
