package dashboard

import (
	"strings"

	"github.com/dragoman-translate/dragoman/core/service"
	"github.com/dragoman-translate/dragoman/plugins/sdk/docformat"
	"github.com/dragoman-translate/dragoman/plugins/sdk/translation"
)

// The translate form's choices come from the lists that own them: the
// modes from plugins/sdk/translation, the formats from plugins/sdk/docformat.

type modeInfo struct {
	Value, Name, Help string
}

// modes are the translation modes as plugins/sdk/translation describes them.
var modes = func() []modeInfo {
	var out []modeInfo
	for _, m := range translation.Modes {
		a := m.About()
		out = append(out, modeInfo{string(m), a.Label, a.Help})
	}
	return out
}()

// formatsText names the advertised formats by family: "Word (.docx, .doc),
// OpenDocument (.odt) or RTF"; a family named as its only extension (RTF)
// needs no parentheses.
func formatsText() string {
	var names []string
	exts := map[string][]string{}
	for _, a := range docformat.Advertised {
		if len(exts[a.Family]) == 0 {
			names = append(names, a.Family)
		}
		exts[a.Family] = append(exts[a.Family], a.Ext)
	}
	for i, n := range names {
		if e := exts[n]; len(e) > 1 || !strings.EqualFold(e[0], "."+n) {
			names[i] = n + " (" + strings.Join(e, ", ") + ")"
		}
	}
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// jobOptions are the translate form's choices, for an upload or a URL.
func jobOptions(f map[string]string) service.JobOptions {
	o := service.JobOptions{TargetLang: f["target_lang"], SourceLang: f["source_lang"], Mode: f["mode"],
		PDF: wantsPDF(f["pdf"]), GlossaryID: f["glossary_id"], Hold: wantsPDF(f["hold"]), Bilingual: wantsPDF(f["bilingual"])}
	for _, t := range strings.Split(f["target_langs"], ",") {
		if t = strings.TrimSpace(t); t != "" {
			o.TargetLangs = append(o.TargetLangs, t)
		}
	}
	return o
}

// wantsPDF reads the form's "PDF too" checkbox: checked sends "true"
// (the script) or "on" (a plain form).
func wantsPDF(v string) bool { return v == "true" || v == "on" }
