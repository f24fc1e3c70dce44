// `npm run bench:seed`: fills the PostgreSQL of DATABASE_URL with a site at scale (100,000 users,
// 2,000 courses, 50,000 lessons, ~5 million progress rows, plans, payments, sent mail) for the
// benchmark's staff-list and dashboard figures. Options: --scale=<factor> (1 by default),
// --force (seed a database that holds other data: everything in it is wiped first).
import { pathToFileURL } from "node:url";
import pg from "pg";
import { migrate, openDatabase } from "../src/db/client";
import { seedDemoPlans } from "../src/db/demo/plans";
import { seedBase } from "../src/db/seed";
import { hashPassword } from "../src/lib/passwords";
import { BENCH_DOMAIN, STAFF_EVERY, uid } from "./bench-seed/ids";
import { seedSalesAndMail } from "./bench-seed/sales-and-mail";

/** Every seeded account signs in with this password (hashed once, the hash shared by all rows). */
export const BENCH_PASSWORD = "Bench-parlons-1!";
/** The configs row that marks a database as filled by this script (and with what scale). */
export const BENCH_MARKER = "bench.seed";
const LESSONS_PER_COURSE = 25;

export interface SeedCounts {
  users: number;
  courses: number;
  lessons: number;
  lessonProgress: number;
  customerPlans: number;
  payments: number;
  mailCampaigns: number;
  mailDeliveries: number;
  notifications: number;
}

/** The seeded accounts the benchmark signs in with. */
export const benchAccounts = {
  learner: { email: `learner1@${BENCH_DOMAIN}`, password: BENCH_PASSWORD },
  staff: { email: `staff1@${BENCH_DOMAIN}`, password: BENCH_PASSWORD },
};

export async function seedScale(opts: {
  url: string;
  scale?: number;
  force?: boolean;
  log?: (line: string) => void;
}): Promise<SeedCounts> {
  const scale = opts.scale ?? 1;
  const log = opts.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  // the progress line is redrawn in place on a terminal, written every quarter otherwise
  const progressLine = (line: string, pct: number) => {
    if (!opts.log && process.stdout.isTTY) process.stdout.write(`\r${line}${pct === 100 ? "\n" : ""}`);
    else if (pct % 25 === 0) log(line);
  };
  const N = Math.max(STAFF_EVERY, Math.round(100_000 * scale));
  const C = Math.max(2, Math.round(2_000 * scale));
  const M = Math.max(2, Math.round(200 * scale));
  const started = Date.now();
  const since = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;

  // the app's own migrations and base rows (roles, permissions, menu, the free plan, the admin)
  const database = await openDatabase({ url: opts.url, poolSize: 1 });
  try {
    await migrate(database);
  } finally {
    await database.close();
  }

  const client = new pg.Client({ connectionString: opts.url });
  await client.connect();
  const q = async (text: string, values: unknown[] = []) => client.query(text, values);
  const one = async (text: string, values: unknown[] = []) => Number((await q(text, values)).rows[0]?.n ?? 0);
  try {
    const marked = await one(`select count(*) as n from configs where key = $1`, [BENCH_MARKER]);
    const users = await one(`select count(*) as n from users`);
    const courses = await one(`select count(*) as n from courses`);
    if (!marked && (users > 5 || courses > 3) && !opts.force) {
      throw new Error(
        `This database holds ${users} users and ${courses} courses that this script did not write: ` +
          "run it on an empty database, or add --force to wipe everything in it first.",
      );
    }
    if (marked || users > 0 || courses > 0) {
      log(`wiping the previous data… (${since()})`);
      const tables = (
        await q(`select quote_ident(tablename) as t from pg_tables where schemaname = 'public'`)
      ).rows.map((r) => r.t as string);
      await q(`truncate ${tables.join(", ")} restart identity cascade`);
    }

    const db2 = await openDatabase({ url: opts.url, poolSize: 1 });
    let admin: Awaited<ReturnType<typeof seedBase>>;
    try {
      admin = await seedBase(db2.db, { email: process.env.ADMIN_EMAIL ?? "admin@parlons.local" });
      await seedDemoPlans(db2.db);
    } finally {
      await db2.close();
    }
    if (admin.generatedPassword) log(`admin ${admin.adminEmail}, password ${admin.generatedPassword}`);

    // foreign keys are checked by the app's own writes; here their triggers only slow the load
    // (needs a superuser; without one the load is slower, not wrong)
    await q(`set session_replication_role = replica`).catch(() => log("(foreign-key triggers stay on)"));
    await q(`set synchronous_commit = off`);
    await q(`set jit = off`);
    await q(`set work_mem = '64MB'`);

    const hash = await hashPassword(BENCH_PASSWORD);
    const ids = (await q(`select id, amount, interval from plans order by is_default desc, position, amount`))
      .rows as { id: string; amount: number; interval: string }[];
    const free = ids[0]?.id;
    const monthly = ids.find((p) => p.amount > 0 && p.interval === "month")?.id ?? ids[1]?.id;
    const yearly = ids.find((p) => p.amount > 0 && p.interval === "year")?.id ?? monthly;
    const roles = (await q(`select id, title from roles`)).rows as { id: string; title: string }[];
    const adminRole = roles.find((r) => r.title === "ADMIN")?.id;
    const customerRole = roles.find((r) => r.title === "CUSTOMER")?.id;
    if (!free || !monthly || !yearly || !adminRole || !customerRole) throw new Error("base seed incomplete");

    const step = async (label: string, sql: string, values: unknown[] = []) => {
      const t = Date.now();
      const res = await q(sql, values);
      log(`  ${label}: ${res.rowCount ?? 0} rows in ${((Date.now() - t) / 1000).toFixed(1)} s (${since()})`);
      return res.rowCount ?? 0;
    };
    log(`seeding at scale ${scale}: ${N} users, ${C} courses, ${C * LESSONS_PER_COURSE} lessons`);

    // ---- users: 0.5% staff, 85% active / 10% pending / 5% disabled, 60% French, 20% premium
    // user u: status DISABLED when u%20=7, PENDING when u%20 in (11,13); premium when u%5=1
    await step(
      "users",
      `insert into users (id, email, password_hash, full_name, gender, speak, status, plan_id,
                          created_at, updated_at, activated_at, last_login_at)
       select ${uid("user", "u")},
              case when u % ${STAFF_EVERY} = 0 then 'staff' || (u / ${STAFF_EVERY}) else 'learner' || u end
                || '@${BENCH_DOMAIN}',
              $1,
              (array['Camille','Léa','Hugo','Louis','Chloé','Emma','Lucas','Nathan','Inès','Jules','Manon',
                     'Sarah','Olivia','James','Amelia','Noah','Sofia','Mateo','Yuki','Aisha','Omar','Elena',
                     'Marco','Anna','Liam','Zoé','Paul','Clara','Tom','Alice'])[1 + (u * 7) % 30]
                || ' ' ||
              (array['Martin','Bernard','Dubois','Thomas','Robert','Richard','Petit','Durand','Leroy','Moreau',
                     'Simon','Laurent','Lefebvre','Michel','Garcia','Smith','Jones','Brown','Taylor','Wilson',
                     'Rossi','Müller','Schmidt','Nguyen','Kowalski','Silva','Tanaka','Haddad','Novak','Fischer'])
                [1 + (u * 13) % 30],
              (array['m','f','other', null])[1 + u % 4],
              case when u % 5 < 3 then 'FR' else 'EN' end,
              case when u % 20 = 7 then 'DISABLED' when u % 20 in (11, 13) then 'PENDING' else 'ACTIVE' end,
              case when u % 5 = 1 and u % 20 not in (7, 11, 13) then case when u % 3 = 0 then $3 else $2 end
                   else $4 end::uuid,
              c, c, case when u % 20 in (11, 13) then null else c + interval '10 minutes' end,
              case when u % 20 in (11, 13) then null else c + (now() - c) * (0.5 + random() / 2) end
       from generate_series(1, $5::int) u,
            lateral (select now() - interval '3 years' * (1 - u::float / $5) - interval '1 day' * random() as c) t`,
      [hash, monthly, yearly, free, N],
    );
    await step(
      "user roles",
      `insert into user_roles (user_id, role_id, position, user_created_at)
       select r.user_id, r.role_id, 0, users.created_at
       from (select ${uid("user", "u")} as user_id,
                    case when u % ${STAFF_EVERY} = 0 then $1 else $2 end::uuid as role_id
             from generate_series(1, $3::int) u) r
            join users on users.id = r.user_id`,
      [adminRole, customerRole, N],
    );

    // ---- courses (90% active, 2.5% popular) and 25 lessons each (3 free, 95% active)
    await step(
      "courses",
      `insert into courses (id, slug, title_fr, title_en, description_fr, description_en, target_language,
                            level, active, popular, position, created_at, updated_at)
       select ${uid("course", "c")}, 'bench-' || lang.code || '-' || topic.en || '-' || c,
              lang.fr || ' : ' || topic.fr || ' ' || c, lang.en || ': ' || topic.en || ' ' || c,
              'Un cours audio de ' || lower(lang.fr) || ' pour ' || topic.fr || '.',
              'An audio course in ' || lang.en || ' about ' || topic.en || '.',
              lang.code, (array['A1','A2','B1','B2','C1','C2'])[1 + (c / 8) % 6],
              c % 10 <> 0, c % 40 = 1, c, d, d
       from generate_series(1, $1::int) c,
            lateral (select (array['en','es','de','it','pt','fr','ja','zh'])[1 + c % 8] as code,
                            (array['English','Spanish','German','Italian','Portuguese','French','Japanese',
                                   'Chinese'])[1 + c % 8] as en,
                            (array['Anglais','Espagnol','Allemand','Italien','Portugais','Français','Japonais',
                                   'Chinois'])[1 + c % 8] as fr) lang,
            lateral (select (array['travel','business','daily-life','food','culture','news','music','health',
                                   'family','sports'])[1 + (c / 48) % 10] as en,
                            (array['voyage','affaires','vie quotidienne','cuisine','culture','actualité',
                                   'musique','santé','famille','sport'])[1 + (c / 48) % 10] as fr) topic,
            lateral (select now() - interval '4 years' * (1 - c::float / $1) as d) t`,
      [C],
    );
    await step(
      "lessons",
      `insert into lessons (id, course_id, position, title_fr, title_en, text_fr, text_en, audio_duration,
                            transcript, free, active, created_at, updated_at)
       select ${uid("lesson", "l")}, ${uid("course", "((l - 1) / 25 + 1)")}, (l - 1) % 25,
              'Leçon ' || ((l - 1) % 25 + 1) || ' : dialogue ' || l, 'Lesson ' || ((l - 1) % 25 + 1) || ': dialogue ' || l,
              'Écoutez le dialogue, puis répétez chaque phrase à voix haute.',
              'Listen to the dialogue, then repeat each sentence aloud.',
              120 + (l * 37) % 600,
              '[00:00] Bonjour, comment allez-vous ?' || chr(10) || '[00:04] Très bien, merci.',
              (l - 1) % 25 < 3, l % 20 <> 19,
              now() - interval '4 years' * (1 - l::float / $1), now() - interval '4 years' * (1 - l::float / $1)
       from generate_series(1, $1::int) l`,
      [C * LESSONS_PER_COURSE],
    );

    // ---- lesson progress: each learner who signed in follows 1 to 6 courses (popular ones more
    // often) and is m lessons into each: the first m-1 done, the m-th started
    const chunks = 20;
    let progress = 0;
    const t0 = Date.now();
    for (let i = 0; i < chunks; i += 1) {
      const lo = Math.floor((N * i) / chunks) + 1;
      const hi = Math.floor((N * (i + 1)) / chunks);
      if (hi < lo) continue;
      const res = await q(
        `insert into lesson_progress (user_id, lesson_id, done, done_at, last_position, play_count,
                                      created_at, updated_at)
         select ${uid("user", "u")}, ${uid("lesson", "((course - 1) * 25 + p)")},
                done, case when done then at end,
                case when done then 0 else floor(random() * 100) end, 1 + (p + u) % 3, at, at
         from generate_series($1::int, $2::int) u
         cross join lateral (select least($3::int, 1 + floor(random() * 6)::int) as k,
                                    floor(power(random(), 3) * $3)::int as base,
                                    now() - interval '3 years' * (1 - u::float / $4) as joined) usr
         cross join lateral generate_series(0, usr.k - 1) j
         cross join lateral (select (usr.base + j * 7) % $3 + 1 as course,
                                    1 + floor(power(random(), 0.6) * 25)::int as m,
                                    usr.joined + (now() - usr.joined) * random() as start) crs
         cross join lateral generate_series(1, crs.m) p
         cross join lateral (select p < crs.m or random() < 0.3 as done,
                                    least(now(), crs.start + interval '1 day' * p * (0.5 + random())) as at) v
         where u % 20 not in (11, 13)`,
        [lo, hi, C, N],
      );
      progress += res.rowCount ?? 0;
      const pct = Math.round(((i + 1) / chunks) * 100);
      progressLine(
        `  lesson progress: ${pct}% (${progress} rows, ${((Date.now() - t0) / 1000).toFixed(1)} s)`,
        pct,
      );
    }

    await seedSalesAndMail({ step, N, M, monthly, yearly });

    await q(`set session_replication_role = origin`).catch(() => undefined);
    await q(`insert into configs (key, value, description) values ($1, $2, $3)`, [
      BENCH_MARKER,
      JSON.stringify({ scale, users: N, at: new Date().toISOString() }),
      "Written by npm run bench:seed: this database holds generated benchmark data.",
    ]);
    log(`vacuum analyze… (${since()})`);
    await q(`vacuum analyze`);

    const counts: SeedCounts = {
      users: await one(`select count(*) as n from users`),
      courses: await one(`select count(*) as n from courses`),
      lessons: await one(`select count(*) as n from lessons`),
      lessonProgress: await one(`select count(*) as n from lesson_progress`),
      customerPlans: await one(`select count(*) as n from customer_plans`),
      payments: await one(`select count(*) as n from payments`),
      mailCampaigns: await one(`select count(*) as n from mail_campaigns`),
      mailDeliveries: await one(`select count(*) as n from mail_deliveries`),
      notifications: await one(`select count(*) as n from notifications`),
    };
    log(`done in ${since()}: ${JSON.stringify(counts)}`);
    log(
      `sign in as ${benchAccounts.learner.email} (learner) or ${benchAccounts.staff.email} (staff), ` +
        `password ${BENCH_PASSWORD}`,
    );
    return counts;
  } finally {
    await client.end();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.error(
      "bench:seed fills a PostgreSQL database: set DATABASE_URL (PGlite is not seeded at scale).",
    );
    process.exit(2);
  }
  const scaleArg = process.argv.find((a) => a.startsWith("--scale="));
  const scale = scaleArg ? Number(scaleArg.slice("--scale=".length)) : 1;
  if (!(scale > 0)) {
    console.error("--scale must be a positive number");
    process.exit(2);
  }
  seedScale({ url, scale, force: process.argv.includes("--force") }).catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
