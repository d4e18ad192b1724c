package main

import (
	"strings"

	"github.com/dragoman-translate/dragoman/plugins/sdk/language"
)

// alphabet is 26 letters of a script, one per Latin letter a–z, plus the
// upper case where the script has one.
type alphabet struct {
	lower []rune
	upper []rune // nil: caseless
}

func abc(lower, upper string) alphabet {
	a := alphabet{lower: []rune(lower)}
	if upper != "" {
		a.upper = []rune(upper)
	}
	if len(a.lower) != 26 || (a.upper != nil && len(a.upper) != 26) {
		panic("alphabet needs 26 letters: " + lower)
	}
	return a
}

var latin = abc("ȧƀƈḓḗƒɠħīĵķŀḿƞǿƥɋřşŧŭṽẇẋẏẑ", "ȦƁƇḒḖƑƓĦĪĴĶĿḾȠǾƤɊŘŞŦŬṼẆẊẎẐ")

// scripts by ISO 15924 code, as the language registry names them.
var scripts = map[string]alphabet{
	"Latn": latin,
	"Hebr": abc("אבגדהוזחטיכלמנסעפצקרשתךםןף", ""),
	"Arab": abc("ابتثجحخدذرزسشصضطظعغفقكلمنه", ""),
	"Cyrl": abc("абвгдежзийклмнопрстуфхцчшщ", "АБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩ"),
	"Grek": abc("αβγδεζηθικλμνξοπρστυφχψωάέ", "ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩΆΈ"),
	"Hans": abc("的一是不了人我在有他这中大来上个国到说们为子和你地出", ""),
	"Hant": abc("的一是不了人我在有他這中大來上個國到說們為子和你地出", ""),
	"Jpan": abc("あいうえおかきくけこさしすせそたちつてとなにぬねのは", ""),
	"Kore": abc("가나다라마바사아자차카타파하거너더러머버서어저처커터", ""),
	"Deva": abc("कखगघचछजझटठडढणतथदधनपफबभमयरल", ""),
	"Thai": abc("กขคงจฉชซญดตถทนบปผพฟภมยรลวส", ""),
	"Armn": abc("աբգդեզէըթժիլխծկհձղճմյնշոչպ", "ԱԲԳԴԵԶԷԸԹԺԻԼԽԾԿՀՁՂՃՄՅՆՇՈՉՊ"),
	"Geor": abc("აბგდევზთიკლმნოპჟრსტუფქღყშჩ", ""),
	"Beng": abc("কখগঘঙচছজঝঞটঠডঢণতথদধনপফবভময", ""),
	"Gujr": abc("કખગઘઙચછજઝઞટઠડઢણતથદધનપફબભમય", ""),
	"Guru": abc("ਕਖਗਘਙਚਛਜਝਞਟਠਡਢਣਤਥਦਧਨਪਫਬਭਮਯ", ""),
	"Taml": abc("கஙசஞடணதநனபமயரறலளழவஷஸஹஜஅஆஇஈ", ""),
	"Telu": abc("కఖగఘఙచఛజఝఞటఠడఢణతథదధనపఫబభమయ", ""),
}

// scriptFor picks the alphabet of a target language code; unknown codes
// get accented Latin.
func scriptFor(target string) alphabet {
	if l, ok := language.ByCode(target); ok {
		if a, ok := scripts[l.Script]; ok {
			return a
		}
	}
	switch strings.ToLower(target) { // codes outside the registry
	case "zh":
		return scripts["Hans"]
	}
	return latin
}
