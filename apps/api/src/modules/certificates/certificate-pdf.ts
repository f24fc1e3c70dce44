import type { Certificate } from "@parlons/contract";
import { pickText } from "@parlons/contract";
import { formatDate, type Lang } from "../../lib/format";
import { newPdf } from "../../lib/pdf";
import { certificateTexts } from "./certificate-texts";

/**
 * A certificate as a landscape A4 PDF, drawn like the receipts (pdfkit, standard Helvetica: no
 * font file to ship): the learner's name, the course, the date, the code and where to verify it.
 */
export async function certificatePdf(
  certificate: Certificate,
  lang: Lang,
  verifyUrl: string,
): Promise<Buffer> {
  const words = certificateTexts[lang];
  const course = pickText({ fr: certificate.course_title_fr, en: certificate.course_title_en }, lang);
  const doc = await newPdf({
    size: "A4",
    layout: "landscape",
    margin: 56,
    info: { Title: `${words.title} ${certificate.code}`, Author: "Parlons", Subject: course },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });

  const { width, height } = doc.page;
  const left = doc.page.margins.left;
  const inner = width - left - doc.page.margins.right;
  doc
    .lineWidth(3)
    .rect(28, 28, width - 56, height - 56)
    .stroke("#1f4e79");
  doc
    .lineWidth(1)
    .rect(36, 36, width - 72, height - 72)
    .stroke("#9bb7d4");

  const centered = (text: string, font: string, size: number, color = "#000", gap = 0.6) => {
    doc
      .font(font)
      .fontSize(size)
      .fillColor(color)
      .text(text, left, undefined, { width: inner, align: "center" });
    doc.moveDown(gap);
  };
  doc.y = 90;
  centered("Parlons", "Helvetica-Bold", 16, "#1f4e79", 1);
  centered(words.title, "Helvetica-Bold", 32, "#000", 1.2);
  centered(words.intro, "Helvetica", 14, "#444");
  centered(certificate.learner_name, "Helvetica-Bold", 28, "#000");
  centered(words.completed, "Helvetica", 14, "#444");
  centered(words.quoted(course), "Helvetica-Bold", 20, "#000", 1.2);
  centered(words.issued(formatDate(new Date(certificate.issued_at), lang)), "Helvetica", 12, "#444");
  if (certificate.status === "revoked") centered(words.revoked, "Helvetica-Bold", 14, "#b00020");

  doc
    .font("Helvetica")
    .fontSize(10)
    .fillColor("#444")
    .text(`${words.code}${words.sep}${certificate.code}`, left, height - 110, {
      width: inner,
      align: "center",
    })
    .text(`${words.verify} ${verifyUrl}`, left, undefined, {
      width: inner,
      align: "center",
      link: verifyUrl,
    });
  doc.end();
  return done;
}
