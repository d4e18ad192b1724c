package job

import "fmt"

// Blob keys of a job's files. Everything a job stores lives under Prefix,
// so deleting the prefix removes it all.
//
// The files made from the translation (output, PDF, segments, bilingual
// document, preview pages) belong to a revision and live in the job's
// Files folder. A revision writes its files to a new folder and switches
// the job to it in the one write that checks the revision, then deletes
// the folder it replaced: two edits saved at once (in two API processes)
// cannot mix their files, and the loser's files are deleted unseen.

// Prefix is the blob prefix of a job's files.
func Prefix(id string) string { return "jobs/" + id + "/" }

// InputKey is the document as submitted.
func InputKey(id string) string { return Prefix(id) + "input" }

// RevisionFiles names the folder of revision n's files; nonce (random)
// keeps two attempts at the same revision apart.
func RevisionFiles(n int, nonce string) string { return fmt.Sprintf("r%d-%s/", n, nonce) }

// files is the folder of j's current revision.
func files(j *Job) string { return Prefix(j.ID) + j.Files }

// OutputKey is the translated document offered for download.
func OutputKey(j *Job) string { return files(j) + "output.docx" }

// PDFKey is the PDF rendition of the output, stored beside it and deleted
// with it at the end of the download window.
func PDFKey(j *Job) string { return files(j) + "output.pdf" }

// SegmentsKey is the translated segments (JSON of a segment.Document) a
// completed job keeps beside its output for post-editing: the XLIFF export
// reads them and a revision writes the next.
func SegmentsKey(j *Job) string { return files(j) + "translated.json" }

// BilingualKey is the bilingual document (source beside translation),
// stored beside the output and deleted with it.
func BilingualKey(j *Job) string { return files(j) + "bilingual.docx" }

// PreviewKey is a preview's page image or page count (name) of one side
// ("original" or "translation"); the translation's belong to the revision.
func PreviewKey(j *Job, side, name string) string {
	if side == "original" {
		return Prefix(j.ID) + "preview/original/" + name
	}
	return files(j) + "preview/" + side + "/" + name
}

// RevisionKeys are the keys of the files of j's current revision and the
// prefix of its preview pages: what a later revision deletes. (The
// machine translation's files share the job's folder with the input, so
// they are named one by one.)
func RevisionKeys(j *Job) (keys []string, previews string) {
	return []string{OutputKey(j), PDFKey(j), SegmentsKey(j), BilingualKey(j)}, files(j) + "preview/translation/"
}

// SourceDocxKey is the .docx a .doc, .odt or .rtf input was converted to;
// a completed job keeps it to rebuild revisions from.
func SourceDocxKey(id string) string { return Prefix(id) + "source.docx" }

// SourceKey is the .docx a job's output is assembled from.
func SourceKey(id, format string) string {
	if format == "docx" {
		return InputKey(id)
	}
	return SourceDocxKey(id)
}

// OriginalTextKey is the text of the original's PDF rendition, made beside
// the translation's for a job that asked for a PDF: a revision measures
// its own rendition against it (core/review).
func OriginalTextKey(id string) string { return Prefix(id) + "original-pdf.txt" }
