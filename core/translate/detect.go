package translate

import (
	"errors"
	"fmt"
	"strings"

	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/plugins/sdk/language"
)

// DetectSource is the source language of a document's plain text when
// none is given, decided once for all who need it: a job's pass, and a
// batch at submission (its jobs then take the language from it, so the
// targets of one upload never disagree on their source). The warning,
// "" when none, says the detection was unsure or the text mixes
// languages. Text with nothing in it is English: nothing will be
// translated, so any source does.
func DetectSource(d ports.LanguageDetector, text string) (language.Language, string, error) {
	if d == nil {
		return language.Language{}, "", errors.New("source_lang is auto but no language detector is configured: give source_lang")
	}
	sample := text
	mixer, weighs := d.(LanguageMix)
	if len(sample) > 20_000 && !weighs {
		sample = sample[:20_000]
	}
	code, conf := d.Detect(sample)
	if code == "" {
		if strings.TrimSpace(text) == "" {
			l, _ := language.ByCode("en")
			return l, "", nil
		}
		return language.Language{}, "", errors.New("the source language could not be detected: give source_lang")
	}
	l, ok := language.ByCode(code)
	if !ok {
		return l, "", fmt.Errorf("the detected source language %q is not supported", code)
	}
	var warn []string
	if conf < 0.5 {
		warn = append(warn, fmt.Sprintf("the source language was detected as %s with low confidence (%.0f%%); give source_lang if this is wrong", l.Name, conf*100))
	}
	if weighs {
		if w := mixWarning(mixer, text, l); w != "" {
			warn = append(warn, w)
		}
	}
	return l, strings.Join(warn, "; "), nil
}

// LanguageMix is implemented by detectors that weigh languages by script
// over the whole text (adapters/langdetect): the languages of text by their
// share of its letters, largest first.
type LanguageMix interface {
	Mix(text string) (codes []string, shares []float64)
}

// mixWarning names the other languages that hold at least a tenth of the
// text's letters: they were translated as if they were the source.
func mixWarning(m LanguageMix, text string, source language.Language) string {
	codes, shares := m.Mix(text)
	var parts []string
	for i, c := range codes {
		l, ok := language.ByCode(c)
		if !ok || shares[i] < 0.1 {
			continue
		}
		parts = append(parts, fmt.Sprintf("%s %.0f%%", l.Name, shares[i]*100))
	}
	if len(parts) < 2 {
		return ""
	}
	return fmt.Sprintf("the document mixes languages (%s by letters); it was translated as %s: give source_lang or split the document if this is wrong", strings.Join(parts, ", "), source.Name)
}
