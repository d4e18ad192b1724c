// Package langdetect detects the source language of a document with
// lingua-go in low-accuracy mode, restricted to the registry's languages
// (measured: about 35 MiB, well under a millisecond per call). Chinese is
// reported as Chinese (Simplified): lingua does not tell the two scripts
// apart. The models load lazily, on the first detection.
package langdetect

import (
	"strings"
	"sync"

	"github.com/pemistahl/lingua-go"

	"github.com/dragoman-translate/dragoman/core/language"
)

// Detector implements ports.LanguageDetector.
type Detector struct {
	once  sync.Once
	det   lingua.LanguageDetector
	codes map[lingua.IsoCode639_1]string // lingua code → registry code
}

// New returns a detector; nothing is loaded until the first call.
func New() *Detector { return &Detector{} }

func (d *Detector) init() {
	d.codes = map[lingua.IsoCode639_1]string{}
	var isos []lingua.IsoCode639_1
	for _, l := range language.All() {
		base, _, _ := strings.Cut(l.Code, "-")
		iso := lingua.GetIsoCode639_1FromValue(base)
		if iso == lingua.UnknownIsoCode639_1 {
			continue
		}
		if _, dup := d.codes[iso]; dup {
			continue // zh-Hans and zh-Hant share "zh": the first (Simplified) wins
		}
		d.codes[iso] = l.Code
		isos = append(isos, iso)
	}
	d.det = lingua.NewLanguageDetectorBuilder().FromIsoCodes639_1(isos...).WithLowAccuracyMode().Build()
}

// Detect returns the registry code of text's language and lingua's
// confidence in it; "" when the text has no letters to go by.
func (d *Detector) Detect(text string) (string, float64) {
	d.once.Do(d.init)
	vals := d.det.ComputeLanguageConfidenceValues(text)
	if len(vals) == 0 || vals[0].Value() == 0 {
		return "", 0
	}
	return d.codes[vals[0].Language().IsoCode639_1()], vals[0].Value()
}
