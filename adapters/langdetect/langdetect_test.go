package langdetect

import (
	"strings"
	"testing"
)

func TestDetectsRegistryLanguages(t *testing.T) {
	d := New()
	for text, want := range map[string]string{
		"The quarterly report shows that revenue grew faster than expected in every region.":                 "en",
		"El informe trimestral muestra que los ingresos crecieron más de lo esperado en todas las regiones.": "es",
		"يُظهر التقرير الفصلي أن الإيرادات نمت بشكل أسرع من المتوقع في جميع المناطق.":                        "ar",
		"הדוח הרבעוני מראה שההכנסות גדלו מהר מהצפוי בכל האזורים.":                                            "he",
		"گزارش فصلی نشان می‌دهد که درآمد در همه مناطق سریع‌تر از حد انتظار رشد کرده است.":                    "fa",
		"Квартальный отчёт показывает, что выручка росла быстрее ожидаемого во всех регионах.":               "ru",
	} {
		code, conf := d.Detect(text)
		if code != want {
			t.Errorf("Detect(%.30q) = %q (%.2f), want %q", text, code, conf, want)
		}
		if conf <= 0 || conf > 1 {
			t.Errorf("confidence %.2f out of range", conf)
		}
	}
	if code, _ := d.Detect("12345 -- 678"); code != "" {
		t.Errorf("digits only: got %q, want no language", code)
	}
}

func BenchmarkDetect(b *testing.B) {
	d := New()
	d.Detect("warm up")
	for i := 0; i < b.N; i++ {
		d.Detect("The quarterly report shows that revenue grew faster than expected in every region.")
	}
}

// TestScriptWeighsTheWholeText (issue 10 §2): a document opening with
// pages of French but mostly Arabic is Arabic; the sample is spread over
// the whole text, and Mix reports both languages with their shares.
func TestScriptWeighsTheWholeText(t *testing.T) {
	d := New()
	fr := strings.Repeat("Le rapport trimestriel montre que les revenus ont augmenté plus vite que prévu dans toutes les régions. ", 300)
	ar := strings.Repeat("يُظهر التقرير الفصلي أن الإيرادات نمت بشكل أسرع من المتوقع في جميع المناطق والأسواق الرئيسية للمجموعة. ", 500)
	if code, _ := d.Detect(fr + ar); code != "ar" {
		t.Errorf("French opening, Arabic majority: detected %q, want ar", code)
	}
	codes, shares := d.Mix(fr + ar)
	if len(codes) != 2 || codes[0] != "ar" || codes[1] != "fr" || shares[0] < 0.5 || shares[1] < 0.2 || shares[0]+shares[1] < 0.999 {
		t.Errorf("Mix = %v %v, want ar then fr", codes, shares)
	}
	// Latin majority with Arabic paragraphs: French, Arabic reported second.
	codes, shares = d.Mix(strings.Repeat(fr, 3) + ar[:len(ar)/4])
	if len(codes) != 2 || codes[0] != "fr" || codes[1] != "ar" || shares[1] < 0.05 {
		t.Errorf("Mix = %v %v, want fr then ar", codes, shares)
	}
	if codes, _ := d.Mix("Only English words in this text, nothing else at all."); len(codes) != 1 || codes[0] != "en" {
		t.Errorf("single language: %v", codes)
	}
}
