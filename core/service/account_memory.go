package service

import "github.com/dragoman-translate/dragoman/core/ports"

// AccountMemory implements the use cases on an account's own translation
// memory: the segments its people post-edited (XLIFF revisions) and the
// TMX files it imported, which its later jobs take before any engine. It
// is not the engines' translation memory (ports.TranslationMemory), which
// the translator keeps by engine configuration so nothing is paid twice.
type AccountMemory struct {
	Store ports.AccountMemory
	TMX   ports.TMX
}

// TMXImport is what importing a TMX file did.
type TMXImport struct {
	Imported int      // entries stored (one per source and target language)
	Skipped  []string // translation units left out, and why
}

func (s *AccountMemory) memoryReady() error {
	if s.Store == nil || s.TMX == nil {
		return fail(KindUnavailable, "the translation memory is not configured")
	}
	return nil
}
