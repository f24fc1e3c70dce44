import { jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./users";

/** Key/value configuration owned by staff (`/v1/configs`). */
export const configs = pgTable("configs", {
  key: text("key").primaryKey(),
  value: jsonb("value").$type<unknown>(),
  description: text("description").notNull().default(""),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  updatedBy: uuid("updated_by").references(() => users.id, { onDelete: "set null" }),
});
