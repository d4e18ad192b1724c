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
