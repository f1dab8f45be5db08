import { sql, type Kysely } from "kysely";

/**
 * The Customers list's "No plan" filter at 100k customers (docs/decisions/094). Finding the
 * customers that have no plan, in e-mail order, is an anti-join: cheap while they are many, but a
 * scan of every user and every plan (200 ms at 100k) when nearly every customer has a plan, the
 * business's goal. So `users.has_open_plan` says whether the customer has a plan that is not
 * cancelled, kept by triggers on customer_plans (whatever code writes a plan, and in the same
 * transaction), and a partial index on the e-mail order of the customers without one serves the
 * filter's keyset pages directly.
 *
 * The triggers are per statement (with transition tables), so a bulk insert of plans costs one
 * UPDATE of users, not one per row.
 */
export async function up(db: Kysely<any>) {
  await db.schema
    .alterTable("users")
    .addColumn("has_open_plan", "boolean", (c) => c.notNull().defaultTo(false))
    .execute();
  await sql`update users set has_open_plan = true
    where id in (select customer_id from customer_plans where status <> 'cancelled')`.execute(db);

  // The customers a statement touched whose flag no longer matches their plans get it turned
  // (a plan's other changes, its notes say, write nothing to users).
  await sql`create function users_sync_has_open_plan() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        update users set has_open_plan = not has_open_plan
          where users.id in (select customer_id from new_plans)
            and has_open_plan <> exists (
              select 1 from customer_plans p where p.customer_id = users.id and p.status <> 'cancelled');
      elsif tg_op = 'UPDATE' then
        update users set has_open_plan = not has_open_plan
          where users.id in (select customer_id from new_plans union select customer_id from old_plans)
            and has_open_plan <> exists (
              select 1 from customer_plans p where p.customer_id = users.id and p.status <> 'cancelled');
      else
        update users set has_open_plan = not has_open_plan
          where users.id in (select customer_id from old_plans)
            and has_open_plan <> exists (
              select 1 from customer_plans p where p.customer_id = users.id and p.status <> 'cancelled');
      end if;
      return null;
    end
  $$`.execute(db);
  // Transition tables allow no column list: every UPDATE fires it, and the test above keeps
  // the unchanged ones from writing.
  await sql`create trigger customer_plans_open_plan_insert after insert on customer_plans
    referencing new table as new_plans for each statement execute function users_sync_has_open_plan()`.execute(db);
  await sql`create trigger customer_plans_open_plan_update after update on customer_plans
    referencing old table as old_plans new table as new_plans
    for each statement execute function users_sync_has_open_plan()`.execute(db);
  await sql`create trigger customer_plans_open_plan_delete after delete on customer_plans
    referencing old table as old_plans for each statement execute function users_sync_has_open_plan()`.execute(db);

  await sql`create index users_without_open_plan_email_idx on users (lower(email)) where not has_open_plan`.execute(db);
}

export async function down(db: Kysely<any>) {
  await sql`drop index if exists users_without_open_plan_email_idx`.execute(db);
  await sql`drop trigger if exists customer_plans_open_plan_delete on customer_plans`.execute(db);
  await sql`drop trigger if exists customer_plans_open_plan_update on customer_plans`.execute(db);
  await sql`drop trigger if exists customer_plans_open_plan_insert on customer_plans`.execute(db);
  await sql`drop function if exists users_sync_has_open_plan()`.execute(db);
  await db.schema.alterTable("users").dropColumn("has_open_plan").execute();
}
