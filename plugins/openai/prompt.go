package main

import (
	"fmt"

	"github.com/dragoman-translate/dragoman/plugins/sdk"
	"github.com/dragoman-translate/dragoman/plugins/sdk/language"
)

// policies are the per-mode instructions.
var policies = map[sdk.Mode]string{
	sdk.Full: "Translate everything into fluent, natural %[2]s, as a professional translator would.",
	sdk.Professional: "Translate into fluent, natural %[2]s. Keep technical terms, product names and code as they are; " +
		"the <x/> tags stand for protected terms and must stay where they belong in the sentence.",
	sdk.Literal: "Translate word for word: keep the %[1]s word order and sentence structure as closely as %[2]s grammar allows; " +
		"do not paraphrase, do not merge or split sentences, do not add or drop anything.",
	sdk.Extreme: "Localise fully for a native %[2]s reader: replace idioms and cultural references with %[2]s equivalents, " +
		"convert units to the ones used there, and write dates, times, numbers and currency in %[2]s conventions.",
}

// honoured are the modes this engine has a policy for, in the host's order.
func honoured() []sdk.Mode {
	var out []sdk.Mode
	for _, m := range sdk.Modes {
		if _, ok := policies[m]; ok {
			out = append(out, m)
		}
	}
	return out
}

const contract = `The user message is JSON: {"source_language", "target_language", "segments": [{"id", "text"}]}.
Segment text is XML-escaped and carries inline tags: <g id="N">…</g> wraps formatted words, <x id="N"/> stands alone.
Keep every tag exactly once with its id, around the words it wraps in the translation; add no tags; keep &lt; &gt; &amp; escaped.
Answer with JSON only, no commentary: {"translations": [{"id": <the segment's id>, "text": "<its translation>"}]}, one entry per segment.`

func systemPrompt(mode sdk.Mode, src, tgt string) string {
	p, ok := policies[mode]
	if !ok {
		p = policies[sdk.Full]
	}
	return fmt.Sprintf(p, name(src), name(tgt)) + "\n\n" + contract
}

func name(code string) string {
	if l, ok := language.ByCode(code); ok {
		return l.Name
	}
	return code
}
