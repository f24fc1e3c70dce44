import type { ConfigBody, ConfigItem, ConfigListQuery, ConfigUpdateBody } from "@parlons/contract";
import { asc, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { containing, pageOf } from "../../db/paginate";
import { configs } from "../../db/schema/configs";
import { conflict, notFound } from "../../lib/errors";
import type { AuditService } from "../audit/service";
import type { Principal } from "../users/service";

type ConfigRow = typeof configs.$inferSelect;

function present(row: ConfigRow): ConfigItem {
  return {
    key: row.key,
    value: row.value ?? null,
    description: row.description,
    updated_at: row.updatedAt.toISOString(),
    updated_by: row.updatedBy,
  };
}

function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === "23505" || e?.cause?.code === "23505";
}

/** Key/value configuration (`/v1/configs`): staff only, every change in the audit log with before and after. */
export function createConfigService(deps: { db: Db; audit: AuditService }) {
  const { db, audit } = deps;

  async function find(key: string): Promise<ConfigRow | undefined> {
    const [row] = await db.select().from(configs).where(eq(configs.key, key));
    return row;
  }

  return {
    /** A value by key for server code (undefined when absent). */
    async value(key: string): Promise<unknown> {
      return (await find(key))?.value ?? undefined;
    },

    async list(query: ConfigListQuery) {
      const where = containing(query.search, [configs.key, configs.description]);
      const { rows, pagination } = await pageOf(db, query, configs, where, [asc(configs.key)]);
      return { configs: rows.map(present), pagination };
    },

    async get(key: string): Promise<ConfigItem> {
      const row = await find(key);
      if (!row) throw notFound("Config");
      return present(row);
    },

    async create(actor: Principal, body: ConfigBody): Promise<ConfigItem> {
      try {
        return await db.transaction(async (tx) => {
          const [row] = await tx
            .insert(configs)
            .values({ key: body.key, value: body.value, description: body.description, updatedBy: actor.id })
            .returning();
          if (!row) throw new Error("config insert failed");
          await audit.record(
            {
              actor,
              action: "configs.create",
              target: { type: "config", id: row.key },
              after: { value: row.value, description: row.description },
            },
            tx,
          );
          return present(row);
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict(`The key ${body.key} exists already`);
        throw err;
      }
    },

    async update(actor: Principal, key: string, body: ConfigUpdateBody): Promise<ConfigItem> {
      return db.transaction(async (tx) => {
        const [before] = await tx.select().from(configs).where(eq(configs.key, key)).for("update");
        if (!before) throw notFound("Config");
        const [row] = await tx
          .update(configs)
          .set({
            ...(body.value !== undefined ? { value: body.value } : {}),
            ...(body.description !== undefined ? { description: body.description } : {}),
            updatedAt: new Date(),
            updatedBy: actor.id,
          })
          .where(eq(configs.key, key))
          .returning();
        if (!row) throw notFound("Config");
        await audit.record(
          {
            actor,
            action: "configs.update",
            target: { type: "config", id: key },
            before: { value: before.value, description: before.description },
            after: { value: row.value, description: row.description },
          },
          tx,
        );
        return present(row);
      });
    },

    async delete(actor: Principal, key: string): Promise<{ key: string }> {
      return db.transaction(async (tx) => {
        const [row] = await tx.delete(configs).where(eq(configs.key, key)).returning();
        if (!row) throw notFound("Config");
        await audit.record(
          {
            actor,
            action: "configs.delete",
            target: { type: "config", id: key },
            before: { value: row.value, description: row.description },
          },
          tx,
        );
        return { key };
      });
    },
  };
}
