/**
 * A new pdfkit document. pdfkit is imported on the first PDF asked for, not at start-up: loading
 * it (fontkit, and the brotli dictionary fontkit decompresses as it loads) cost ~350 ms of CPU
 * per start for routes most processes never call.
 */
export async function newPdf(options: PDFKit.PDFDocumentOptions): Promise<PDFKit.PDFDocument> {
  const { default: PDFDocument } = await import("pdfkit");
  return new PDFDocument(options);
}
