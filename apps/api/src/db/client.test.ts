import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { makePgliteTemplate } from "../make-template";
import { type Database, isMigrated, migrate, migrationsFolder, openDatabase } from "./client";
import { users } from "./schema";

// Real PGlite data folders on disk: each initdb costs seconds, so the tests share two of them.
const work = mkdtempSync(path.join(tmpdir(), "parlons-db-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const journal = JSON.parse(readFileSync(path.join(migrationsFolder, "meta", "_journal.json"), "utf8")) as {
  entries: unknown[];
};

/** A copy of the migrations folder whose journal stops two migrations short: an older release. */
function olderMigrations(): string {
  const folder = path.join(work, "older-migrations");
  if (!existsSync(folder)) {
    cpSync(migrationsFolder, folder, { recursive: true });
    const older = { ...journal, entries: journal.entries.slice(0, -2) };
    writeFileSync(path.join(folder, "meta", "_journal.json"), JSON.stringify(older));
  }
  return folder;
}

async function appliedCount(database: Database): Promise<number> {
  const result = (await database.db.execute(
    sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
  )) as {
    rows: { n: number }[];
  };
  return result.rows[0]?.n ?? 0;
}

// PGlite data folders whatever DATABASE_URL says: the same test in both runs of CI, so run once,
// in the embedded run (the migration lock on PostgreSQL is covered by test/restarts.test.ts).
const embeddedRun = !process.env.DATABASE_URL;

describe.runIf(embeddedRun)("migrations at start-up", () => {
  it("upgrades a data folder left at an older migration, then skips when it has them all", {
    timeout: 180_000,
  }, async () => {
    const dir = path.join(work, "old-db");
    const old = await openDatabase({ dir });
    try {
      expect(await isMigrated(old)).toBe(false); // no migrations table yet
      expect(await migrate(old, olderMigrations())).toBe("applied");
      expect(await appliedCount(old)).toBe(journal.entries.length - 2);
      expect(await isMigrated(old, olderMigrations())).toBe(true);
      expect(await isMigrated(old)).toBe(false);
    } finally {
      await old.close();
    }

    // the next release starts on that folder
    const upgraded = await openDatabase({ dir });
    try {
      expect(await migrate(upgraded)).toBe("applied");
      expect(await appliedCount(upgraded)).toBe(journal.entries.length);
      expect(await isMigrated(upgraded)).toBe(true);
      expect(await migrate(upgraded)).toBe("skipped");
      expect(await appliedCount(upgraded)).toBe(journal.entries.length);
    } finally {
      await upgraded.close();
    }
  });
});

describe.runIf(embeddedRun)("PGlite template data folder", () => {
  it("starts a new data folder as a copy of the template and never overwrites an existing one", {
    timeout: 180_000,
  }, async () => {
    const template = path.join(work, "template");
    // a template built by an older release: what it lacks is migrated on open
    await makePgliteTemplate(template, olderMigrations());
    expect(existsSync(path.join(template, "PG_VERSION"))).toBe(true);

    const dir = path.join(work, "from-template");
    const first = await openDatabase({ dir, template });
    try {
      expect(first.fromTemplate).toBe(true);
      expect(await appliedCount(first)).toBe(journal.entries.length - 2);
      expect(await migrate(first)).toBe("applied");
      expect(await migrate(first)).toBe("skipped");
      await first.db.insert(users).values({ email: "kept@parlons.test", fullName: "Kept" });
    } finally {
      await first.close();
    }

    const again = await openDatabase({ dir, template });
    try {
      expect(again.fromTemplate).toBe(false);
      expect(await migrate(again)).toBe("skipped");
      const rows = await again.db.select({ email: users.email }).from(users);
      expect(rows).toEqual([{ email: "kept@parlons.test" }]);
    } finally {
      await again.close();
    }
    // the template itself stays as it was built
    const pristine = await openDatabase({ dir: template });
    try {
      expect(await appliedCount(pristine)).toBe(journal.entries.length - 2);
    } finally {
      await pristine.close();
    }
  });
});
