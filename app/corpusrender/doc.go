// Package corpusrender holds the corpus render check (issue 10, "Done
// when"): every .docx of testdata/corpus/docx translated to Arabic and
// Hebrew and every document of testdata/corpus/rtl to English, by the real
// binary through the REST API (`dragoman serve` with the pseudo engine,
// `dragoman translate --server`), rendered by
// LibreOffice and checked twice: by the project's render check
// (rtltest.CheckRender, against the section's margins) and by the brief's
// checker (testdata/rtl/checker/check_rtl.py, XML assertions and its
// render check on the same PDF). It is a package of its own so that
// `go test ./...` runs it beside the end-to-end tests of app/e2e.
// TestBuiltRender runs the same checks on the documents built for items 1,
// 4 and 5 (built_test.go). TestIndicRender (issue 22 §4) runs them on
// Hindi→Urdu and Urdu→Hindi with the real Apertium engine
// (apertium-urd-hin), on reports written for it (indicdocs_test.go) and
// the corpus's Hindi document, and checks more on the reports. Every
// finding of the brief's checker fails an output: its refreshed copy
// judges against the sections' page geometry.
//
// It needs bin/dragoman and bin/plugins (DRAGOMAN_BIN; `make test` builds
// them), soffice, pdftotext, pdffonts, a python3 with lxml and, for
// TestIndicRender, Apertium's hin-urd and urd-hin (make deps).
// DRAGOMAN_CORPUS_RENDER_KEEP=dir keeps the outputs and PDFs there, in a
// folder named after the test.
package corpusrender
