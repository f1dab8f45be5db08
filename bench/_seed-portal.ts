// The portal's data at scale, seeded with generate_series (bench/scale.ts, bench/portal-pages.ts):
// per customer 20 weekly visits (this week's still to do, the others completed), 40 media rows,
// 5 bookings and 2 quote requests; 9 customers in 10 on a weekly plan (1 in 20 paused), 1 in 20
// cancelled, 1 in 20 without one; and the admin admin@bench.example.org with two-step sign-in.
import { sql, type Kysely } from "kysely";
import type { Database } from "../db/schema";

// Per customer, as in the issue: 20 visits, 40 media rows (a before and an after), 5 bookings;
// and 2 quote requests, many of them sharing a timestamp (keyset paging must not care).
const VISITS_PER_CUSTOMER = 20;
const MEDIA_PER_VISIT = 2;
const BOOKINGS_PER_CUSTOMER = 5;
const QUOTES_PER_CUSTOMER = 2;
export async function seedPortal(db: Kysely<Database>, customers: number) {
  const started = Date.now();
  const visits = customers * VISITS_PER_CUSTOMER;
  // Customers c1..cN; visit g belongs to customer 1 + g % N, media m to visit 1 + m / 2.
  await sql`insert into users (email, created_at)
    select 'customer' || g || '@bench.example', now() - (g || ' minutes')::interval from generate_series(1, ${customers}) g`.execute(
    db,
  );
  await sql`insert into profiles (user_id, full_name)
    select id, (array['Avery','Blake','Casey','Drew','Emery','Finley','Gray','Harper'])[1 + n % 8] || ' ' ||
      (array['Stone','Rivera','Nguyen','Okafor','Larsen','Patel','Kim','Moreau','Silva','Walsh'])[1 + (n / 8) % 10] || ' ' || n
    from (select id, split_part(split_part(email, '@', 1), 'customer', 2)::int as n from users where email like '%@bench.example') c`.execute(
    db,
  );
  await sql`create temporary table bench_customers as
    select id, row_number() over (order by created_at desc, id) as n from users where email like '%@bench.example'`.execute(
    db,
  );
  await sql`create index on bench_customers (n)`.execute(db);
  // Customer plans (issue 25): 9 customers in 10 on a weekly plan (1 in 20 of them paused), 1 in
  // 20 with a cancelled plan and 1 in 20 who never had one; a customer's visits were made from
  // the plan, one slot each (its day). The triggers of migration 0010 flag the customers with a
  // plan in one statement.
  await sql`insert into customer_plans (customer_id, catalogue_plan_id, catalogue_plan_name, visits_per_week, weekdays,
      dog_count, yard_size, start_date, status, paused_from, paused_until, cancelled_at, last_visit_date)
    select c.id, 'weekly', 'Weekly Swift Service', 1, array[1 + c.n % 5]::smallint[], 1 + c.n % 3, 'medium',
      current_date - 400, s.status,
      case when s.status = 'paused' then current_date end, case when s.status = 'paused' then current_date + 14 end,
      case when s.status = 'cancelled' then now() end, case when s.status = 'cancelled' then current_date - 30 end
    from bench_customers c
    cross join lateral (select case c.n % 20 when 0 then 'cancelled' when 1 then 'paused' else 'active' end as status) s
    where c.n % 20 <> 19`.execute(db);
  await sql`insert into services (customer_id, service_type, service_date, status, created_at, plan_id, plan_slot)
    select v.customer_id, 'Weekly Service', v.at, v.status, now(), v.plan_id,
      case when v.plan_id is not null then (v.at at time zone 'America/Los_Angeles')::date end
    from (select c.id as customer_id,
        now() - ((g / ${customers}) * 7 || ' days')::interval + (g % 600 || ' seconds')::interval as at,
        -- This week's visits (today's route) are still to do; every earlier week's were completed.
        case when g < ${customers} then 'scheduled' else 'completed' end as status, p.id as plan_id
      from generate_series(0, ${visits - 1}) g join bench_customers c on c.n = 1 + g % ${customers}
      left join customer_plans p on p.customer_id = c.id) v`.execute(db);
  await sql`create temporary table bench_visits as select id, row_number() over (order by id) as n from services`.execute(
    db,
  );
  await sql`create index on bench_visits (n)`.execute(db);
  await sql`insert into service_images (service_id, image_url, image_type, content_type, size_bytes, created_at)
    select v.id, 'bench/' || m || '.jpg', case when m % 2 = 0 then 'before' else 'after' end, 'image/jpeg', 200000,
      now() - (m || ' seconds')::interval
    from generate_series(0, ${visits * MEDIA_PER_VISIT - 1}) m join bench_visits v on v.n = 1 + m / ${MEDIA_PER_VISIT}`.execute(
    db,
  );
  await sql`insert into bookings (customer_id, service_type, booking_date, status, source)
    select c.id, 'Weekly Service', now() + ((g / ${customers}) || ' days')::interval, 'confirmed', 'calendar'
    from generate_series(0, ${customers * BOOKINGS_PER_CUSTOMER - 1}) g join bench_customers c on c.n = 1 + g % ${customers}`.execute(
    db,
  );
  // Quote requests: ten share each created_at, so the order rests on the id as well.
  await sql`insert into quote_requests (name, phone, email, address, zip, dogs, yard_size, service, outside_service_area,
      dedupe_key, status, created_at)
    select 'Quote ' || q, '7025550123', 'quote' || q || '@bench.example', '1 Main St', '89048', '2', 'medium', 'weekly',
      false, md5(q::text), (array['new','contacted','won','lost'])[1 + q % 4],
      now() - ((q / 10) || ' minutes')::interval
    from generate_series(1, ${customers * QUOTES_PER_CUSTOMER}) q`.execute(db);
  // Each request's two e-mails, sent, in the outbox (the inbox shows the owner's status).
  await sql`insert into outbox (kind, to_address, subject, text_body, dedupe_key, related_id, status, attempts, sent_at,
      created_at)
    select k.kind, q.email, 'Quote request', 'Quote request', k.kind || ':' || q.id, q.id, 'sent', 1, q.created_at,
      q.created_at
    from quote_requests q cross join (values ('quote_owner'), ('quote_visitor')) as k(kind)`.execute(db);
  // The admin (two-step on, as requireAdmin demands).
  const admin = await sql<{ id: string }>`insert into users (email, email_verified_at)
    values ('admin@bench.example.org', now()) returning id`.execute(db);
  const adminId = admin.rows[0].id;
  await sql`insert into user_roles (user_id, role) values (${adminId}, 'owner')`.execute(db);
  await sql`insert into user_totp (user_id, secret, enabled_at) values (${adminId}, 'JBSWY3DPEHPK3PXP', now())`.execute(
    db,
  );
  await sql`vacuum analyze`.execute(db);
  // The seed's gigabytes are written out now, not by the checkpointer in the middle of the timings.
  await sql`checkpoint`.execute(db);
  return { ...(await seededCounts(db)), seconds: (Date.now() - started) / 1000 };
}

/** What a seeded database holds, and its admin. */
export async function seededCounts(db: Kysely<Database>) {
  const counts = await sql<{ users: number; services: number; media: number; bookings: number; quotes: number }>`select
    (select count(*) from users)::int as users, (select count(*) from services)::int as services,
    (select count(*) from service_images)::int as media, (select count(*) from bookings)::int as bookings,
    (select count(*) from quote_requests)::int as quotes`.execute(db);
  const admin = await sql<{ id: string }>`select id from users where email = 'admin@bench.example.org'`.execute(db);
  if (!admin.rows[0]) throw new Error("not a bench_scale database: no admin@bench.example.org");
  return { ...counts.rows[0], adminId: admin.rows[0].id, seconds: 0 };
}
