import { inflateSync } from "node:zlib";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, PASSWORD, type TestContext } from "../../../test/helpers/build";
import { courseWithLessons, makePremium } from "../../../test/helpers/learning";
import { auditLog, certificates, customerPlans, users } from "../../db/schema";
import { newCertificateCode } from "./service";

// Certificates: issued once when the last lesson of a course is done (also under concurrent
// calls), read by their learner as a page and a PDF, checked by anyone from the code alone
// (name, course, date, status and nothing else), revoked by staff, exported and erased with the
// learner's data.
let t: TestContext;
let admin: string;
let course: Awaited<ReturnType<typeof courseWithLessons>>;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.adminToken();
  course = await courseWithLessons(t, admin);
});
afterAll(() => t.close());

type Learner = { id: string; email: string; token: string };

async function premiumLearner(name = "Camille Martin"): Promise<Learner> {
  const learner = await t.createUser();
  await t.database.db.update(users).set({ fullName: name }).where(eq(users.id, learner.id));
  await makePremium(t, learner.id);
  return learner;
}

const markDone = (learner: Learner, lessonId: string, done = true) =>
  t.request({
    method: "POST",
    url: `/api/v1/courses/${course.course.id}/lessons/done-customer`,
    token: learner.token,
    payload: { lesson_id: lessonId, done },
  });

const rowsOf = (userId: string) =>
  t.database.db
    .select()
    .from(certificates)
    .where(and(eq(certificates.userId, userId), eq(certificates.courseId, course.course.id)));

/** The text a PDF draws: its content streams inflated, pdfkit's hex strings decoded. */
function pdfText(pdf: Buffer): string {
  const raw = pdf.toString("latin1");
  let text = "";
  const streams = /stream\r?\n/g;
  for (let m = streams.exec(raw); m; m = streams.exec(raw)) {
    const start = m.index + m[0].length;
    const end = raw.indexOf("endstream", start);
    try {
      const content = inflateSync(pdf.subarray(start, end)).toString("latin1");
      for (const tj of content.matchAll(/\[(.*?)\]\s*TJ/g)) {
        const parts = [...(tj[1] ?? "").matchAll(/<([0-9a-fA-F]*)>/g)];
        text += `${parts.map((p) => Buffer.from(p[1] ?? "", "hex").toString("latin1")).join("")}\n`;
      }
    } catch {
      // not a deflated stream (an image, the fonts' own data)
    }
  }
  return text;
}

describe("issuing", () => {
  it("issues the certificate when the last lesson is done, once", async () => {
    const learner = await premiumLearner();
    const first = await markDone(learner, course.free.id);
    expect(first.statusCode).toBe(200);
    expect(first.json().data.certificate).toBeNull();
    expect(await rowsOf(learner.id)).toHaveLength(0);

    const last = await markDone(learner, course.paid.id);
    expect(last.statusCode).toBe(200);
    const issued = last.json().data.certificate as { id: string; code: string };
    expect(issued.code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);

    // undone and done again, or done again: the same certificate, never a second one
    await markDone(learner, course.paid.id, false);
    const again = await markDone(learner, course.paid.id);
    expect(again.json().data.certificate).toEqual(issued);
    expect(await rowsOf(learner.id)).toHaveLength(1);

    const mine = await t.request({ method: "GET", url: "/api/v1/certificates/mine", token: learner.token });
    expect(mine.statusCode).toBe(200);
    expect(mine.json().data.certificates).toEqual([
      expect.objectContaining({
        id: issued.id,
        code: issued.code,
        learner_name: "Camille Martin",
        course_id: course.course.id,
        course_title_fr: "Espagnol pour débutants",
        course_title_en: "Spanish for beginners",
        status: "valid",
        revoked_at: null,
      }),
    ]);
  });

  it("gives one certificate to concurrent done calls for the last lessons", async () => {
    const learner = await premiumLearner();
    const answers = await Promise.all([
      markDone(learner, course.free.id),
      markDone(learner, course.paid.id),
      markDone(learner, course.paid.id),
      markDone(learner, course.free.id),
    ]);
    for (const a of answers) expect(a.statusCode, a.body).toBe(200);
    const rows = await rowsOf(learner.id);
    expect(rows).toHaveLength(1);
    // every answer that names a certificate names that one
    const named = answers.map((a) => a.json().data.certificate).filter(Boolean);
    expect(named.length).toBeGreaterThan(0);
    for (const c of named) expect(c).toEqual({ id: rows[0]?.id, code: rows[0]?.code });
    // and the service itself, asked many times at once, still inserts one
    const issued = await Promise.all(
      Array.from({ length: 6 }, () =>
        t.app.deps.services.certificates.issueIfComplete(learner.id, course.course.id),
      ),
    );
    expect(new Set(issued.map((c) => c?.id))).toEqual(new Set([rows[0]?.id]));
  });

  it("issues nothing for a course not finished, nor for a learner who cannot open a lesson", async () => {
    const free = await t.createUser();
    const done = await markDone(free, course.free.id);
    expect(done.json().data.certificate).toBeNull();
    const paid = await markDone(free, course.paid.id);
    expect(paid.statusCode).toBe(403);
    expect(await rowsOf(free.id)).toHaveLength(0);
  });

  it("draws codes from the unambiguous alphabet", () => {
    const codes = new Set(Array.from({ length: 500 }, newCertificateCode));
    expect(codes.size).toBe(500);
    for (const code of codes) expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
  });
});

async function certified(name?: string) {
  const learner = await premiumLearner(name);
  await markDone(learner, course.free.id);
  const res = await markDone(learner, course.paid.id);
  return { learner, certificate: res.json().data.certificate as { id: string; code: string } };
}

describe("the learner's certificate", () => {
  it("is a page for its learner and staff, and nobody else", async () => {
    const { learner, certificate } = await certified();
    const url = `/api/v1/certificates/${certificate.id}`;
    const own = await t.request({ method: "GET", url, token: learner.token });
    expect(own.statusCode).toBe(200);
    expect(own.json().data.certificate).toMatchObject({ code: certificate.code, status: "valid" });
    const stranger = await t.createUser();
    for (const path of [url, `${url}/pdf`]) {
      expect((await t.request({ method: "GET", url: path, token: stranger.token })).statusCode).toBe(404);
      expect((await t.request({ method: "GET", url: path })).statusCode).toBe(401);
    }
    expect((await t.request({ method: "GET", url, token: admin })).statusCode).toBe(200);
    const missing = await t.request({
      method: "GET",
      url: "/api/v1/certificates/0190a0a0-0000-7000-8000-00000000dead",
      token: admin,
    });
    expect(missing.statusCode).toBe(404);
    const malformed = await t.request({
      method: "GET",
      url: "/api/v1/certificates/nope",
      token: learner.token,
    });
    expect(malformed.statusCode).toBe(400);
  });

  it("downloads as a real PDF carrying the name, the course and the code, in each language", async () => {
    const { learner, certificate } = await certified("Zoé Lefèvre");
    const get = (lang?: string) =>
      t.request({
        method: "GET",
        url: `/api/v1/certificates/${certificate.id}/pdf${lang ? `?lang=${lang}` : ""}`,
        token: learner.token,
      });
    const fr = await get();
    expect(fr.statusCode).toBe(200);
    expect(fr.headers["content-type"]).toBe("application/pdf");
    expect(fr.headers["content-disposition"]).toBe(
      `attachment; filename="certificate-${certificate.code}.pdf"`,
    );
    expect(fr.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
    expect(fr.rawPayload.subarray(-6).toString()).toContain("%%EOF");
    const french = pdfText(fr.rawPayload);
    expect(french).toContain("Certificat de réussite");
    expect(french).toContain("Zoé Lefèvre");
    expect(french).toContain("Espagnol pour débutants");
    expect(french).toContain(certificate.code);
    expect(french).toContain(`/c/${certificate.code}`);

    const english = pdfText((await get("en")).rawPayload);
    expect(english).toContain("Certificate of completion");
    expect(english).toContain("Spanish for beginners");
    expect(english).toContain(certificate.code);
    expect(english).toContain(`/en/c/${certificate.code}`);

    // Spanish words and link; the course has no Spanish title, so its English one (fallback rule)
    const es = await get("es");
    expect(es.statusCode).toBe(200);
    const spanish = pdfText(es.rawPayload);
    expect(spanish).toContain("Certificado de aprovechamiento");
    expect(spanish).toContain("«Spanish for beginners»");
    expect(spanish).toContain(`/es/c/${certificate.code}`);
    expect((await get("de")).statusCode).toBe(422);
  });
});

describe("public verification", () => {
  it("confirms a code to anyone with the name, course, date and status only", async () => {
    const { learner, certificate } = await certified("Jules Bernard");
    const res = await t.request({ method: "GET", url: `/api/v1/certificates/verify/${certificate.code}` });
    expect(res.statusCode).toBe(200);
    const shown = res.json().data.certificate;
    expect(Object.keys(shown).sort()).toEqual(
      [
        "code",
        "course_title_en",
        "course_title_fr",
        "issued_at",
        "learner_name",
        "revoked_at",
        "status",
      ].sort(),
    );
    expect(shown).toMatchObject({ code: certificate.code, learner_name: "Jules Bernard", status: "valid" });
    expect(res.body).not.toContain(learner.id);
    expect(res.body).not.toContain(learner.email);
    expect(res.body).not.toContain(certificate.id);
    // typed in lower case, without its dash, or with an O for a 0: the same certificate
    const typed = certificate.code.toLowerCase().replace("-", "");
    const loose = await t.request({ method: "GET", url: `/api/v1/certificates/verify/${typed}` });
    expect(loose.json().data.certificate.code).toBe(certificate.code);
  });

  it("answers 404 for a code nobody holds or that cannot be one, 400 for one far too long", async () => {
    for (const code of ["ZZZZ-ZZZZ", "not-a-code", "ABC"]) {
      const res = await t.request({ method: "GET", url: `/api/v1/certificates/verify/${code}` });
      expect(res.statusCode, code).toBe(404);
      expect(res.json()).toMatchObject({
        statusCode: 404,
        code: "NOT_FOUND",
        message: "Certificate not found",
      });
    }
    const long = await t.request({ method: "GET", url: `/api/v1/certificates/verify/${"A".repeat(40)}` });
    expect(long.statusCode).toBe(400);
  });
});

describe("staff", () => {
  it("list and revoke with certificates.manage; the verification then says revoked", async () => {
    const { learner, certificate } = await certified("Inès Roux");
    const revoke = (token: string, reason = "Copied answers") =>
      t.request({
        method: "POST",
        url: `/api/v1/certificates/${certificate.id}/revoke`,
        token,
        payload: { reason },
      });
    expect((await revoke(learner.token)).statusCode).toBe(403);
    expect(
      (await t.request({ method: "GET", url: "/api/v1/certificates", token: learner.token })).statusCode,
    ).toBe(403);

    const list = await t.request({
      method: "GET",
      url: `/api/v1/certificates?q=${encodeURIComponent("Inès")}`,
      token: admin,
    });
    expect(list.statusCode).toBe(200);
    expect(list.json().data.certificates).toEqual([
      expect.objectContaining({ id: certificate.id, user_id: learner.id, status: "valid" }),
    ]);
    expect(list.json().data.pagination).toEqual({ page: 1, pageSize: 20, total: 1 });

    const revoked = await revoke(admin);
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().data.certificate).toMatchObject({
      status: "revoked",
      revoke_reason: "Copied answers",
    });
    const at = revoked.json().data.certificate.revoked_at;
    // revoking again changes nothing
    const twice = await revoke(admin, "Other");
    expect(twice.json().data.certificate).toMatchObject({ revoked_at: at, revoke_reason: "Copied answers" });

    const check = await t.request({ method: "GET", url: `/api/v1/certificates/verify/${certificate.code}` });
    expect(check.json().data.certificate).toMatchObject({ status: "revoked", revoked_at: at });
    expect(check.body).not.toContain("Copied answers");
    const mine = await t.request({ method: "GET", url: "/api/v1/certificates/mine", token: learner.token });
    expect(mine.json().data.certificates[0].status).toBe("revoked");

    const byStatus = await t.request({
      method: "GET",
      url: "/api/v1/certificates?status=revoked",
      token: admin,
    });
    expect(byStatus.json().data.certificates.map((c: { id: string }) => c.id)).toContain(certificate.id);
    const valid = await t.request({ method: "GET", url: "/api/v1/certificates?status=valid", token: admin });
    expect(valid.json().data.certificates.map((c: { id: string }) => c.id)).not.toContain(certificate.id);

    const entries = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "certificates.revoke"), eq(auditLog.targetId, certificate.id)));
    expect(entries).toHaveLength(1);

    const missing = await t.request({
      method: "POST",
      url: "/api/v1/certificates/0190a0a0-0000-7000-8000-00000000dead/revoke",
      token: admin,
      payload: {},
    });
    expect(missing.statusCode).toBe(404);
    const tooLong = await revoke(admin, "x".repeat(501));
    expect(tooLong.statusCode).toBe(422);
  });
});

describe("the learner's data", () => {
  it("exports the certificates; erasing the account removes the name and revokes them", async () => {
    const { learner, certificate } = await certified("Léa Petit");
    const exported = await t.request({
      method: "POST",
      url: "/api/v1/user/me/data-export",
      token: learner.token,
    });
    expect(exported.statusCode).toBe(200);
    expect(exported.json().certificates).toEqual([
      expect.objectContaining({ code: certificate.code, learner_name: "Léa Petit" }),
    ]);

    // the test's premium plan has no provider to cancel at: ended beforehand
    await t.database.db
      .update(customerPlans)
      .set({ status: "CANCELLED" })
      .where(eq(customerPlans.userId, learner.id));
    const erased = await t.request({
      method: "POST",
      url: "/api/v1/user/me/delete",
      token: learner.token,
      payload: { password: PASSWORD },
    });
    expect(erased.statusCode, erased.body).toBe(200);
    const check = await t.request({ method: "GET", url: `/api/v1/certificates/verify/${certificate.code}` });
    expect(check.statusCode).toBe(200);
    expect(check.json().data.certificate).toMatchObject({ learner_name: "", status: "revoked" });
    expect(check.body).not.toContain("Léa");
  });
});
