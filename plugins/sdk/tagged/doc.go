// Package tagged reads and writes the text a provider plugin translates:
// plain text with inline codes, <g id="N">…</g> around formatted text and
// <x id="N"/> for things that are not text (a tab, an image, a field).
// A provider must give every code of a segment back exactly once, around
// the translation of the text it was around; Repair restores what an
// engine lost or broke.
//
// It is the one owner of the grammar: the host's core (core/segment, the
// translator, protection and glossaries) imports it as plugins do, so host
// and plugins cannot read or repair tagged text differently. Like every
// leaf package of the SDK it imports nothing but the standard library.
package tagged
