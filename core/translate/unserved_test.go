package translate

import (
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/plugins/sdk/language"
)

// The four pairs make deps installed before issue 22, as an engine list.
var oldFour = []ports.Engine{engine("apertium", nil, ports.Capabilities{Pairs: pairs("en>es", "es>en", "en>ca", "ca>en", "en>gl", "gl>en", "fr>es", "es>fr")})}

func lang(t *testing.T, name string) language.Language {
	t.Helper()
	l, err := language.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestUnservedSaysWhatToDo (issue 22 §2, §6): a refused pair names the
// targets the engines do reach, nearest to the one asked for first, and
// every engine that would serve it with the settings that enable it.
func TestUnservedSaysWhatToDo(t *testing.T) {
	all := []ports.Engine{debianApertium}
	// The contract's default target on the offline default: any source.
	msg := Unserved(all, "", lang(t, "Arabic"))
	for _, want := range []string{
		"no configured engine translates into Arabic",
		"Urdu (from Hindi)", // the right-to-left target Apertium serves comes first
		"GET /v1/languages lists them",
		"DRAGOMAN_ENGINES=apertium,openai DRAGOMAN_OPENAI_BASE_URL=",
		"llama.cpp, Ollama or vLLM",
		"DRAGOMAN_LIBRETRANSLATE_BASE_URL=", "DRAGOMAN_DEEPL_API_KEY=", "DRAGOMAN_GOOGLE_PROJECT=", "DRAGOMAN_AZURE_API_KEY=",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("Arabic, any source: %q lacks %q", msg, want)
		}
	}
	if strings.Index(msg, "Urdu") > strings.Index(msg, "Spanish") && strings.Contains(msg, "Spanish") {
		t.Errorf("Urdu is nearer Arabic than Spanish: %q", msg)
	}
	if strings.Contains(msg, "Apertium serves it") {
		t.Errorf("Apertium has no Arabic: %q", msg)
	}
	// Hebrew from English: DeepL has no Hebrew; no RTL target from English.
	msg = Unserved(all, "en", lang(t, "Hebrew"))
	if !strings.Contains(msg, "no configured engine translates English to Hebrew; from English they reach") ||
		!strings.Contains(msg, "source=en") || strings.Contains(msg, "deepl") || !strings.Contains(msg, "openai") {
		t.Errorf("Hebrew from English: %q", msg)
	}
	// A pair Apertium serves once Debian's pairs are in: with the old
	// four, English→French says to install them.
	msg = Unserved(oldFour, "en", lang(t, "French"))
	if !strings.Contains(msg, "make deps installs every one") || !strings.Contains(msg, "Catalan") {
		t.Errorf("French from English with four pairs: %q", msg)
	}
}
