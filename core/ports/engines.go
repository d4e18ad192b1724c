package ports

import (
	"context"
	"io"

	"github.com/dragoman-translate/dragoman/core/glossary"
	"github.com/dragoman-translate/dragoman/plugins/sdk/language"
	"github.com/dragoman-translate/dragoman/plugins/sdk/translation"
)

// Converter turns .doc, .odt and .rtf into .docx.
type Converter interface {
	Formats() []string
	Convert(ctx context.Context, format string, in io.Reader, out io.Writer) error
}

// Capabilities describe an engine after its handshake.
type Capabilities struct {
	Name string
	// Pairs the engine serves; AnyToAny engines serve every registry pair.
	Pairs    []language.Pair
	AnyToAny bool
	// Batch limits; zero means the host default.
	MaxSegments int
	MaxChars    int
	// Modes the engine honours; others are translated as "full" with a warning.
	Modes []translation.Mode
	// Config fingerprints the engine's settings that change its output
	// (model, endpoint, formality, …), set by the host; the translation
	// memory keys on it, so another model never gets the old one's output.
	Config string
	// NativeGlossary engines enforce a job's glossary themselves (a vendor
	// glossary, dictionary markup) for GlossaryPairs, or for every pair
	// when GlossaryPairs is empty; language.Any in a pair matches every
	// language. The core then sends the glossary with each request and
	// puts no placeholders for its terms.
	NativeGlossary bool
	GlossaryPairs  []language.Pair
}

// GlossaryNative says whether the engine enforces glossaries itself for
// the pair src→tgt.
func (c Capabilities) GlossaryNative(src, tgt string) bool {
	if !c.NativeGlossary {
		return false
	}
	if len(c.GlossaryPairs) == 0 {
		return true
	}
	for _, p := range c.GlossaryPairs {
		if p.Matches(src, tgt) {
			return true
		}
	}
	return false
}

// TranslateRequest is one batch of segments for one engine.
type TranslateRequest struct {
	Source   string // ISO code
	Target   string // ISO code
	Mode     translation.Mode
	Segments []string // tagged text (see package segment)
	// Glossary is set only for engines that enforce it natively
	// (Capabilities.GlossaryNative); its terms then have no placeholders.
	Glossary *Glossary
}

// Glossary is a job's glossary as a native engine gets it.
type Glossary struct {
	// Version is glossary.Glossary.Version: equal versions are equal
	// glossaries, so an engine may cache its vendor glossary by it.
	Version string
	Entries []glossary.Entry
}

// TranslateResult answers a TranslateRequest, segment for segment.
type TranslateResult struct {
	Segments []string
	Warnings []string
}

// Provider is a translation engine.
type Provider interface {
	Capabilities(ctx context.Context) (Capabilities, error)
	Translate(ctx context.Context, req TranslateRequest) (TranslateResult, error)
}

// Engine is one enabled translation engine.
type Engine struct {
	Name     string
	Provider Provider
	Caps     Capabilities
}

// EngineRegistry lists the enabled engines in priority order
// (DRAGOMAN_ENGINES). Engines that are down are restarted by the registry.
type EngineRegistry interface {
	Engines(ctx context.Context) ([]Engine, error)
}

// TranslationMemory keeps engine output by account, engine, mode,
// direction and the SHA-256 of the tagged text the engine was sent, so the
// same segment is never paid for twice. Each account has its own; sharing
// them is the operator's choice (translate.Translator.SharedMemory). The
// SQL store implements it.
type TranslationMemory interface {
	// GetTM returns the account's stored targets of the hashes it knows
	// (hash to target).
	GetTM(ctx context.Context, account, engine, mode, src, tgt string, hashes []string) (map[string]string, error)
	// GetSharedTM is GetTM over every account's entries.
	GetSharedTM(ctx context.Context, engine, mode, src, tgt string, hashes []string) (map[string]string, error)
	// PutTM stores the account's targets by hash, replacing older ones.
	PutTM(ctx context.Context, account, engine, mode, src, tgt string, entries map[string]string) error
}
