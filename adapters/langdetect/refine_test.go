package langdetect

import "testing"

// The rules for the languages lingua lacks keep their neighbours: an
// Albanian text writes zh, a Portuguese one ô and õ, without becoming
// Breton or Silesian; Serbian is Serbian in Cyrillic and Serbo-Croatian
// in Latin; Urdu and Hindi go by their scripts.
func TestRulesKeepTheirNeighbours(t *testing.T) {
	d := New()
	for text, want := range map[string]string{
		"Zhvillimi i qytetit të vjetër zhvendosi shumë familje në fshatrat përreth, dhe zhurma e makinave u zhduk nga rrugët e ngushta të lagjes.": "sq",
		"O meu avô põe o chapéu no sofá, e a avó lê o jornal todas as manhãs antes do almoço com os netos e os vizinhos.":                          "pt",
		"Стари мост преко ријеке био је затворен два тједна због јаке кише, а дјеца су ишла у школу заједно.":                                      "sr",
		"Stari most preko rijeke bio je zatvoren dva tjedna zbog jake kiše, a djeca su išla u školu zajedno.":                                      "sh",
		"دریا پر بنا پرانا پل شدید بارش کی وجہ سے دو ہفتے تک بند رہا اور بچے اکٹھے اسکول جاتے تھے۔":                                                "ur",
		"नदी पर बना पुराना पुल भारी बारिश के कारण दो सप्ताह तक बंद रहा और बच्चे साथ-साथ स्कूल जाते थे।":                                            "hi",
		"El puente viejo sobre el río estuvo cerrado dos semanas por la lluvia, y los niños iban juntos a la escuela cada mañana.":                 "es",
		"El pont vell sobre el riu va estar tancat dues setmanes per la pluja, i els nens anaven junts a l'escola cada matí.":                      "ca",
		"A ponte vella sobre o río estivo pechada dúas semanas pola choiva, e os nenos ían xuntos á escola cada mañá.":                             "gl",
	} {
		if got, _ := d.Detect(text); got != want {
			t.Errorf("Detect(%.40q) = %q, want %q", text, got, want)
		}
	}
}
