import { BENCH_DOMAIN, STAFF_EVERY, uid } from "./ids";

/** What the sales and mail steps need from the earlier ones. */
interface Context {
  /** Runs one statement, logging its rows and time. */
  step: (label: string, sql: string, values?: unknown[]) => Promise<number>;
  /** Users and mail campaigns to write. */
  N: number;
  M: number;
  monthly: string;
  yearly: string;
}

/**
 * The seed's subscriptions (with the demo provider's truth and their payments), sent mail and
 * notifications, written after the users, courses and progress (bench-seed.ts).
 */
export async function seedSalesAndMail({ step, N, M, monthly, yearly }: Context): Promise<void> {
  // ---- subscriptions: premium users hold an ACTIVE one (demo provider, with its truth);
  // 15% of the others have one that ended (cancelled or expired) and 2% one never approved
  await step(
    "customer plans",
    `insert into customer_plans (id, user_id, plan_id, status, provider, provider_subscription_id, started_at,
                                 last_payment_at, next_billing_at, cancelled_at, access_until, created_at, updated_at)
     select ${uid("cplan", "u")}, ${uid("user", "u")}, plan, status, 'demo', 'BENCH-' || u,
            case when status = 'APPROVAL_PENDING' then null else start end,
            case when status = 'APPROVAL_PENDING' then null else last_pay end,
            case when status = 'ACTIVE' then last_pay + case when plan = $2::uuid then interval '1 year'
                                                             else interval '1 month' end end,
            case when status in ('CANCELLED', 'EXPIRED') then last_pay + interval '20 days' end,
            case when status in ('CANCELLED', 'EXPIRED') then last_pay + interval '1 month' end,
            start, coalesce(last_pay, start)
     from generate_series(1, $3::int) u,
          lateral (select case when u % 5 = 1 and u % 20 not in (7, 11, 13) then 'ACTIVE'
                               when u % 20 in (3, 8) then 'CANCELLED'
                               when u % 20 = 9 then 'EXPIRED'
                               when u % 50 = 4 then 'APPROVAL_PENDING' end as status,
                          case when u % 3 = 0 then $2 else $1 end::uuid as plan,
                          now() - interval '3 years' * (1 - u::float / $3) * random() - interval '2 months' as start) s,
          -- an ACTIVE subscription was paid within its period (nothing due for the sync job)
          lateral (select case when s.status = 'ACTIVE'
                               then greatest(s.start, now() - case when s.plan = $2::uuid then interval '1 year'
                                                                   else interval '1 month' end * random() * 0.9)
                               else s.start + (now() - s.start) * (0.3 + random() * 0.7) end as last_pay) p
     where status is not null and u % ${STAFF_EVERY} <> 0`,
    [monthly, yearly, N],
  );
  await step(
    "demo provider subscriptions",
    `insert into demo_subscriptions (id, customer_plan_id, status, amount, currency, interval, start_time,
                                     next_billing_time, last_payment_time, status_update_time)
     select cp.provider_subscription_id, cp.id, cp.status, p.amount, p.currency,
            case when p.interval = 'year' then 'year' else 'month' end,
            cp.started_at, cp.next_billing_at, cp.last_payment_at, cp.updated_at
     from customer_plans cp join plans p on p.id = cp.plan_id
     where cp.status <> 'APPROVAL_PENDING'`,
  );
  await step(
    "payments",
    `insert into payments (customer_plan_id, user_id, amount, currency, provider, provider_payment_id, paid_at,
                           created_at)
     select cp.id, cp.user_id, p.amount, p.currency, 'demo', cp.provider_subscription_id || '-' || n, at, at
     from customer_plans cp join plans p on p.id = cp.plan_id
     cross join lateral generate_series(0, greatest(0, (extract(epoch from cp.last_payment_at - cp.started_at)
                      / extract(epoch from case when p.interval = 'year' then interval '1 year'
                                                else interval '1 month' end))::int)) n
     cross join lateral (select cp.started_at + n * case when p.interval = 'year' then interval '1 year'
                                                       else interval '1 month' end as at) t
     where cp.status <> 'APPROVAL_PENDING'`,
  );

  // ---- sent mail: campaigns over two years (most SENT), each to 5% of the users
  await step(
    "mail campaigns",
    `insert into mail_campaigns (id, subject_fr, subject_en, body_fr, body_en, audience, status, created_by,
                                 created_at, started_at, finished_at)
     select ${uid("campaign", "i")},
            (array['Nouveautés du mois','Votre progression','Nouveau cours disponible','Offre Premium',
                   'Événement en ligne'])[1 + i % 5] || ' n°' || i,
            (array['What is new this month','Your progress','A new course is out','Premium offer',
                   'Online event'])[1 + i % 5] || ' #' || i,
            'Bonjour {{full_name}},', 'Hello {{full_name}},',
            case when i % 3 = 0 then '{"status":"ACTIVE","speak":"EN"}' else '{"status":"ACTIVE"}' end::jsonb,
            case when i % 40 = 0 then 'DRAFT' when i % 50 = 1 then 'FAILED'
                 when i = $1 then 'SENDING' else 'SENT' end,
            ${uid("user", String(STAFF_EVERY))}, d,
            case when i % 40 = 0 then null else d + interval '5 minutes' end,
            case when i % 40 = 0 or i = $1 then null else d + interval '2 hours' end
     from generate_series(1, $1::int) i,
          lateral (select now() - interval '2 years' * (1 - i::float / $1) as d) t`,
    [M],
  );
  await step(
    "mail deliveries",
    `insert into mail_deliveries (campaign_id, user_id, email, lang, variables, status, attempts, sent_at,
                                  created_at, last_error)
     select mc.id, ${uid("user", "u")},
            case when u % ${STAFF_EVERY} = 0 then 'staff' || (u / ${STAFF_EVERY}) else 'learner' || u end
              || '@${BENCH_DOMAIN}',
            case when u % 5 < 3 then 'FR' else 'EN' end,
            jsonb_build_object('full_name', 'Learner ' || u, 'plan_name', ''),
            st, case when st = 'PENDING' then 0 else 1 end,
            case when st = 'SENT' then mc.started_at + interval '1 second' * (u % 3600) end,
            mc.created_at, case when st = 'FAILED' then '550 mailbox unavailable' end
     from generate_series(1, $1::int) i
     join mail_campaigns mc on mc.id = ${uid("campaign", "i")}
     cross join lateral generate_series(1 + i % 20, $2::int, 20) u
     cross join lateral (select case when mc.status = 'SENDING' and u % 2 = 0 then 'PENDING'
                                     when u % 50 = 0 or mc.status = 'FAILED' then 'FAILED'
                                     else 'SENT' end as st) s
     where mc.status <> 'DRAFT'`,
    [M, N],
  );
  await step(
    "campaign totals",
    `update mail_campaigns mc set total = d.total, sent = d.sent, failed = d.failed
     from (select campaign_id, count(*) as total, count(*) filter (where status = 'SENT') as sent,
                  count(*) filter (where status = 'FAILED') as failed
           from mail_deliveries group by campaign_id) d
     where d.campaign_id = mc.id`,
  );

  // ---- notifications: the subscription news of each subscriber
  await step(
    "notifications",
    `insert into notifications (user_id, kind, data, link, read_at, created_at)
     select cp.user_id,
            case cp.status when 'ACTIVE' then 'subscription.active' when 'CANCELLED' then 'subscription.cancelled'
                           else 'subscription.ended' end,
            jsonb_build_object('plan_name', p.name, 'plan_name_fr', p.name_fr, 'access_until', cp.access_until),
            case when cp.status = 'ACTIVE' then '/billing' else '/pricing' end,
            case when random() < 0.7 then cp.updated_at + interval '1 day' end, cp.updated_at
     from customer_plans cp join plans p on p.id = cp.plan_id
     where cp.status <> 'APPROVAL_PENDING'`,
  );
}
