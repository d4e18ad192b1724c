package langdetect

import "testing"

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
