package job

// Blob keys of a job's files. Everything a job stores lives under Prefix,
// so deleting the prefix removes it all.

// Prefix is the blob prefix of a job's files.
func Prefix(id string) string { return "jobs/" + id + "/" }

// InputKey is the document as submitted.
func InputKey(id string) string { return Prefix(id) + "input" }

// OutputKey is the translated document offered for download.
func OutputKey(id string) string { return Prefix(id) + "output.docx" }

// PDFKey is the PDF rendition of the output, stored beside it and deleted
// with it at the end of the download window.
func PDFKey(id string) string { return Prefix(id) + "output.pdf" }

// SegmentsKey is the translated segments (JSON of a segment.Document) a
// completed job keeps beside its output for post-editing: the XLIFF export
// reads them and an imported revision replaces them.
func SegmentsKey(id string) string { return Prefix(id) + "translated.json" }

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

// BilingualKey is the bilingual document (source beside translation),
// stored beside the output and deleted with it.
func BilingualKey(id string) string { return Prefix(id) + "bilingual.docx" }
