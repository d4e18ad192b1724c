package e2e

import (
	"os"
	"path/filepath"
	"testing"
)

// installedModes is where Debian's Apertium packages put their modes.
const installedModes = "/usr/share/apertium/modes"

// apertiumWith makes a directory of Apertium modes holding only the named
// ones (copied from the installed modes), so a test states the pairs its
// server runs with whatever else the machine has: pass
// "DRAGOMAN_APERTIUM_DIR="+dir to startServer. A mode that is not
// installed fails the test: make deps installs every pair Debian ships.
func apertiumWith(t testing.TB, modes ...string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "modes"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, m := range modes {
		b, err := os.ReadFile(filepath.Join(installedModes, m+".mode"))
		if err != nil {
			t.Fatalf("Apertium mode %s is not installed (make deps installs every pair): %v", m, err)
		}
		if err := os.WriteFile(filepath.Join(dir, "modes", m+".mode"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// oldFour are the modes of the four pairs make deps installed before
// issue 22 (English–Spanish, English–Catalan, English–Galician,
// French–Spanish).
var oldFour = []string{"eng-spa", "spa-eng", "eng-cat", "cat-eng", "en-gl", "gl-en", "fr-es", "es-fr"}

// everyDebianMode are the modes of every pair package Debian 12 ships, the
// variants included (apertium -l with make deps' packages installed).
var everyDebianMode = []string{
	"afr-nld", "arg-cat", "arg-spa", "bel-rus", "br-fr", "bul-mkd", "ca-eo", "ca-oc", "ca-oc_aran", "cat-arg",
	"cat-eng", "cat-fra", "cat-ita", "cat-por", "cat-por_BR", "cat-spa", "cat-srd", "dan-nno", "dan-nob", "dan-swe",
	"en-eo", "en-gl", "eng-cat", "eng-cat_valencia", "eng-hbs", "eng-hbs_BS", "eng-hbs_HR", "eng-hbs_SR", "eng-spa",
	"eo-en", "es-eo", "es-fr", "es-gl", "es-oc", "es-oc_aran", "es-pt", "es-pt_BR", "eu-en", "eu-es", "fr-eo", "fr-es",
	"fra-cat", "fra-frp", "fra-oci", "fra-oci_gascon", "frp-fra", "gl-en", "gl-es", "gl-pt", "hbs-eng", "hbs-mkd",
	"hbs-slv", "hin-urd", "ind-zlm", "isl-eng", "isl-swe", "ita-cat", "ita-spa", "ita-srd", "mkd-bul", "mkd-eng",
	"mkd-hbs_BS", "mkd-hbs_HR", "mkd-hbs_SR", "nld-afr", "nno-dan", "nno-nob", "nno-swe", "nob-dan", "nob-nno",
	"nob-swe", "oc-ca", "oc-es", "oc_aran-ca", "oc_aran-es", "oci-fra", "oci_gascon-fra", "pol-szl", "por-cat",
	"pt-es", "pt-gl", "ro-es", "rus-bel", "rus-ukr", "slv-hbs", "slv-hbs_BS", "slv-hbs_HR", "slv-hbs_SR", "spa-arg",
	"spa-ast", "spa-cat", "spa-cat_valencia", "spa-eng", "spa-ita", "swe-dan", "swe-isl", "swe-nno", "swe-nob",
	"szl-pol", "ukr-rus", "urd-hin", "zlm-ind",
}
