#!/bin/sh
# Builds the machine-made sentence files of the detection test from the
# hand-written ones with Apertium's own translations, so every language the
# engines serve has text of its own. Hand-written: en, sv, id, pl, sh (the sources
# of chains) and nl, af, sl, mk, bg, ro, eu, br, ar, he, fa, hi, ur, ru, uk, be
# (Apertium does not translate into Romanian, Basque or Breton; Debian's
# rus-ukr and rus-bel abort on most sentences, an apertium-tagger assertion;
# hbs-mkd garbles; hin-urd leaves many Hindi words in Devanagari; the
# outputs of nld-afr, hbs-slv and mkd-bul keep so many source words that
# they read as the source language). Needs Apertium with
# every pair Debian ships (make deps). The hand-written sentences are
# ours (the project's licence); Apertium's output of them is too.
#
#   adapters/langdetect/testdata/generate.sh
set -eu
cd "$(dirname "$0")/sentences"
# chain OUT IN MODE...: translate IN.txt through the modes into OUT.txt.
chain() {
	out=$1 in=$2
	shift 2
	cp "$in.txt" "$out.tmp"
	for mode in "$@"; do
		apertium -u "$mode" < "$out.tmp" > "$out.tmp2"
		mv "$out.tmp2" "$out.tmp"
	done
	# Apertium leaves a space before a full stop at times, and marks a
	# word it could not generate with #.
	sed 's/ \([.,;:]\)/\1/g; s/#//g; s/[[:space:]]*$//' "$out.tmp" > "$out.txt"
	rm -f "$out.tmp"
}
chain es en eng-spa
chain ca en eng-cat
chain gl en en-gl
chain eo en en-eo
chain pt es es-pt
chain fr es es-fr
chain it es spa-ita
chain oc es es-oc
chain an es spa-arg
chain ast es spa-ast
chain sc ca cat-srd
chain frp fr fra-frp
chain da sv swe-dan
chain nb sv swe-nob
chain nn sv swe-nno
chain is sv swe-isl
chain ms id ind-zlm
chain szl pl pol-szl
# Serbian in Cyrillic: the Serbo-Croatian sentences transliterated
# (digraphs first), so the detector must tell the scripts apart.
sed 's/Lj/Љ/g; s/LJ/Љ/g; s/lj/љ/g; s/Nj/Њ/g; s/NJ/Њ/g; s/nj/њ/g; s/Dž/Џ/g; s/DŽ/Џ/g; s/dž/џ/g' sh.txt |
	sed 'y/abcčćdđefghijklmnoprsštuvzžABCČĆDĐEFGHIJKLMNOPRSŠTUVZŽ/абцчћдђефгхијклмнопрсштувзжАБЦЧЋДЂЕФГХИЈКЛМНОПРСШТУВЗЖ/' > sr.txt
