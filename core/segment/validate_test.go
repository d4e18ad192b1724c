package segment

import (
	"errors"
	"strings"
	"testing"
)

func TestValidTargetNamesTheTag(t *testing.T) {
	src := `See <g id="1">the guide</g> on page<x id="2"/> 4 &amp; 5.`
	codes := []Code{{ID: 1, Kind: Paired, Type: "link"}, {ID: 2, Kind: Isolated, Type: "fn"}}
	if err := ValidTarget(src, `Vea <g id="1">la guía</g> en la página<x id="2"/> 4 &amp; 5.`, codes); err != nil {
		t.Fatalf("a valid target: %v", err)
	}
	if err := ValidTarget(src, `<x id="2"/>Vea la página 4 y 5 de <g id="1">la guía</g>.`, codes); err != nil {
		t.Fatalf("codes moved: %v", err)
	}
	for target, want := range map[string]string{
		`Vea la guía en la página<x id="2"/>.`:                          `<g id="1">…</g>: the original has this code (link)`,
		`Vea <g id="1">la guía en la página<x id="2"/>.`:                `<g id="1">: is not closed`,
		`Vea <g id="1">la guía</g></g> en la página<x id="2"/>.`:        `</g>: closes no open code`,
		`Vea <g id="1">la guía</g> en la página<x id="2"/><x id="2"/>.`: `<x id="2"/>: appears 2 times`,
		`Vea <g id="1">la guía</g><x id="3"/> en la página<x id="2"/>.`: `<x id="3"/>: the original has no such code`,
		`Vea <g id="1">la guía</g> en la página<x id="2"/> 4 < 5.`:      `<: not an inline code`,
		`Vea <g id="1">la guía</g> en la página<x id="2"/> 4 & 5.`:      `&: write`,
		`Vea <b>la guía</b> en la página<x id="2"/>.`:                   `<b>: not an inline code`,
	} {
		err := ValidTarget(src, target, codes)
		var te *TagError
		if !errors.As(err, &te) || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%q: %v, want %q…", target, err, want)
		}
	}
}
