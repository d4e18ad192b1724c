package sdk

import (
	"context"
	"io"

	"github.com/dragoman-translate/dragoman/plugins/sdk/language"
	"github.com/dragoman-translate/dragoman/plugins/sdk/terms"
	"github.com/dragoman-translate/dragoman/plugins/sdk/translation"
)

// Mode is how freely a provider may translate; the host sends one of
// Modes with every request (see plugins/sdk/translation, which owns them).
type Mode = translation.Mode

const (
	Professional = translation.Professional // fluent, technical terms kept as they are
	Full         = translation.Full         // everything translated fluently
	Literal      = translation.Literal      // word for word where the engine can
	Extreme      = translation.Extreme      // full localisation (idioms, units, formats)
)

// Modes lists every mode the host may send.
var Modes = translation.Modes

// Pair is a language direction a provider serves, as the host's language
// codes (ISO 639-1, or BCP 47 where 639-1 is ambiguous: "en", "zh-Hans");
// see plugins/sdk/language.
type Pair = language.Pair

// Capabilities say what a provider serves. The host asks once per start of
// the plugin process.
type Capabilities struct {
	Name string // the engine's name; empty means the binary's suffix
	// Pairs served; an AnyToAny provider serves every pair the host knows.
	Pairs    []Pair
	AnyToAny bool
	// Largest batch, in segments and in characters; zero means the host's
	// default.
	MaxSegments int
	MaxChars    int
	// Modes honoured; the host sends others as Full, with a warning to the
	// user.
	Modes []Mode
	// NativeGlossary says the provider enforces glossaries itself (a vendor
	// glossary, dictionary markup) for GlossaryPairs, or for every pair it
	// serves when GlossaryPairs is empty; AnyLanguage ("*") in a pair stands
	// for every language. For those pairs the host sends the job's glossary
	// in TranslateRequest.Glossary and puts no placeholders for its terms;
	// for the others it enforces the glossary itself and sends none.
	NativeGlossary bool
	GlossaryPairs  []Pair
}

// AnyLanguage in a Capabilities.GlossaryPairs pair matches every language.
const AnyLanguage = language.Any

// GlossaryEntry is one term of a glossary and its translation.
type GlossaryEntry = terms.Entry

// Glossary is the job's terminology for the request's pair, sent only to
// providers with Capabilities.NativeGlossary.
type Glossary struct {
	// Version is a hash of the pair and the entries: equal versions are
	// equal glossaries, so a provider may cache a vendor glossary by it.
	Version string
	Entries []GlossaryEntry
}

// TranslateRequest is one batch of segments.
type TranslateRequest struct {
	Source   string // language code, as in Pair
	Target   string
	Mode     Mode
	Segments []string // tagged text: see package plugins/sdk/tagged
	// Glossary, when not nil, must be applied: the source terms have no
	// placeholders in Segments (see Capabilities.NativeGlossary). A batch
	// translated without it (the vendor refused it) must say so in
	// TranslateResult.Warnings: the host then keeps it out of its
	// translation memory.
	Glossary *Glossary
}

// TranslateResult answers a TranslateRequest segment for segment: exactly
// one translation per segment, in order.
type TranslateResult struct {
	Segments []string
	Warnings []string // shown to the user with the job
}

// Provider is a translation engine, served with ServeProvider.
type Provider interface {
	Capabilities(ctx context.Context) (Capabilities, error)
	Translate(ctx context.Context, req TranslateRequest) (TranslateResult, error)
}

// Converter turns another word-processing format into .docx, served with
// ServeConverter. Formats are lower-case extensions without the dot
// ("doc", "odt", "rtf"). Convert reads the document from in and writes the
// .docx to out; see Error for how to fail.
type Converter interface {
	Formats() []string
	Convert(ctx context.Context, format string, in io.Reader, out io.Writer) error
}

// PDFRenderer is optionally implemented by a Converter that also renders
// documents to PDF (the LibreOffice converter does, from its warm pool).
// RenderPDF reads a document of the given format ("docx" or one of
// Formats) from in and writes its PDF rendition to out.
type PDFRenderer interface {
	RenderPDF(ctx context.Context, format string, in io.Reader, out io.Writer) error
}

// ConcurrencyReporter is optionally implemented by a Converter that says
// how many documents it converts at once (the LibreOffice converter: its
// pool's size); the host shows it among its metrics.
type ConcurrencyReporter interface {
	MaxConcurrent() int
}

// TargetPDF is the output format a PDF rendition is asked with.
const TargetPDF = "pdf"

// HealthChecker is optionally implemented by a Provider or Converter whose
// health is more than "the process answers" (a model loaded, a tool found).
type HealthChecker interface {
	Health(ctx context.Context) error
}
