package docx

// SmartArt keeps its text twice: the diagram data (diagrams/data*.xml),
// which is extracted and translated, and the cached drawing
// (diagrams/drawing*.xml), which Word and LibreOffice display. The
// drawing's paragraphs make no units of their own: each takes the
// translation of the data paragraph with the same tagged source, so both
// say the same thing from one engine call. A drawing paragraph without a
// twin in the data keeps its text, and so does one whose data part comes
// after the drawing in the package (Word and LibreOffice write the data
// first).
