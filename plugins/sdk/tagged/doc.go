// Package tagged reads and writes the text a provider plugin translates:
// plain text with inline codes, <g id="N">…</g> around formatted text and
// <x id="N"/> for things that are not text (a tab, an image, a field).
// A provider must give every code of a segment back exactly once, around
// the translation of the text it was around; Repair restores what an
// engine lost or broke.
//
// It is a copy of the host's core/segment grammar, kept here so that a
// plugin compiles against the SDK alone; an agreement test in
// adapters/pluginhost fails if the two ever read or repair text
// differently.
package tagged
