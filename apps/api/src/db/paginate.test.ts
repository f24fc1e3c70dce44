import { asc, count } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { testDatabase, truncateAll } from "../../test/helpers/database";
import type { Database } from "./client";
import { containing, createPageStarts, escapeLike, pageOffset, paginate } from "./paginate";
import { configs } from "./schema";

describe("escapeLike", () => {
  it("takes the meaning from %, _ and \\ and leaves other characters alone", () => {
    expect(escapeLike("50%_off\\now")).toBe("50\\%\\_off\\\\now");
    expect(escapeLike("élève d'été")).toBe("élève d'été");
  });
});

describe("pageOffset", () => {
  it("skips the rows of the pages before", () => {
    expect(pageOffset({ page: 1, pageSize: 20 })).toBe(0);
    expect(pageOffset({ page: 3, pageSize: 7 })).toBe(14);
  });
});

describe("createPageStarts", () => {
  it("keeps where deep pages start, per list and offset, until cleared or too old", () => {
    const starts = createPageStarts<string>({ ttlMs: 5_000, minOffset: 1_000 });
    starts.set("all", 20, "shallow", 0);
    expect(starts.get("all", 20, 0)).toBeUndefined();
    starts.set("all", 9_980, "k1", 0);
    starts.set("martin", 9_980, "k2", 0);
    expect(starts.get("all", 9_980, 4_999)).toBe("k1");
    expect(starts.get("martin", 9_980, 0)).toBe("k2");
    expect(starts.get("all", 10_000, 0)).toBeUndefined();
    expect(starts.get("all", 9_980, 5_000)).toBeUndefined();
    starts.clear();
    expect(starts.get("martin", 9_980, 0)).toBeUndefined();
  });
});

describe("paginate on a real database", () => {
  let database: Database;
  // ordered by value: the keys in this order, whatever the database's collation
  const keys = ["a%b", "a_b", "a\\b", "axb", "AB-upper", "other"];

  beforeAll(async () => {
    database = await testDatabase();
    await truncateAll(database);
    await database.db
      .insert(configs)
      .values(keys.map((key, i) => ({ key, value: i, description: key === "other" ? "mentions a_b" : "" })));
  });

  const page = (query: { page: number; pageSize: number }, search?: string) => {
    const where = containing(search, [configs.key, configs.description]);
    return paginate(
      query,
      database.db.select().from(configs).where(where).orderBy(asc(configs.value)).$dynamic(),
      database.db.select({ n: count() }).from(configs).where(where),
    );
  };

  it("answers one page of the ordered rows and the total of the filter", async () => {
    const first = await page({ page: 1, pageSize: 4 });
    expect(first.rows.map((r) => r.key)).toEqual(["a%b", "a_b", "a\\b", "axb"]);
    expect(first.pagination).toEqual({ page: 1, pageSize: 4, total: 6 });
    const second = await page({ page: 2, pageSize: 4 });
    expect(second.rows.map((r) => r.key)).toEqual(["AB-upper", "other"]);
    expect(second.pagination).toEqual({ page: 2, pageSize: 4, total: 6 });
  });

  it("answers an empty page past the end with the total still counted", async () => {
    const past = await page({ page: 9, pageSize: 4 });
    expect(past).toEqual({ rows: [], pagination: { page: 9, pageSize: 4, total: 6 } });
  });

  it("matches a searched text literally in any column, whatever its case", async () => {
    const underscore = await page({ page: 1, pageSize: 10 }, "a_b");
    expect(underscore.rows.map((r) => r.key)).toEqual(["a_b", "other"]);
    expect(underscore.pagination.total).toBe(2);
    expect((await page({ page: 1, pageSize: 10 }, "%")).rows.map((r) => r.key)).toEqual(["a%b"]);
    expect((await page({ page: 1, pageSize: 10 }, "\\")).rows.map((r) => r.key)).toEqual(["a\\b"]);
    expect((await page({ page: 1, pageSize: 10 }, "ab")).rows.map((r) => r.key)).toEqual(["AB-upper"]);
  });

  it("filters nothing without a text", async () => {
    expect(containing("", [configs.key])).toBeUndefined();
    expect((await page({ page: 1, pageSize: 10 }, undefined)).pagination.total).toBe(6);
  });
});
