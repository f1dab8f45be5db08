import { sql, type Insertable, type Selectable } from "kysely";
import type { YardProfilesTable } from "../../db/schema";
import { getDb, type Db } from "~/utils/db.server";
import { isUuid } from "~/utils/uuid";

export type YardProfile = Selectable<YardProfilesTable>;
export type YardProfileValues = Omit<
  Insertable<YardProfilesTable>,
  "user_id" | "updated_at" | "latitude" | "longitude" | "location_updated_at"
>;

/** The full profile, gate code included: only for the customer themself and for admins. */
export async function getYardProfile(userId: string, db?: Db): Promise<YardProfile | null> {
  if (!isUuid(userId)) return null;
  const handle = db ?? (await getDb());
  return (
    (await handle.selectFrom("yard_profiles").selectAll().where("user_id", "=", userId).executeTakeFirst()) ?? null
  );
}

export async function saveYardProfile(userId: string, values: YardProfileValues): Promise<YardProfile> {
  const db = await getDb();
  return db
    .insertInto("yard_profiles")
    .values({ user_id: userId, ...values })
    .onConflict((oc) =>
      oc.column("user_id").doUpdateSet({
        ...values,
        updated_at: new Date(),
        // A new address makes the yard's recorded location wrong: forget it (the ZIP's centre
        // stands in until someone records it again at the yard).
        latitude: sql`case when ${addressChanged} then null else yard_profiles.latitude end`,
        longitude: sql`case when ${addressChanged} then null else yard_profiles.longitude end`,
        location_updated_at: sql`case when ${addressChanged} then null else yard_profiles.location_updated_at end`,
      }),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
}

const addressChanged = sql`(yard_profiles.street, yard_profiles.city, yard_profiles.zip)
  is distinct from (excluded.street, excluded.city, excluded.zip)`;

export type YardLocation = { latitude: number; longitude: number };

/**
 * Records a yard's coordinates (a profile row is made if the customer has none yet). With
 * `onlyIfNone`, a yard that already has a location keeps it. Returns whether it was written.
 * The CHECKs of migration 0012 refuse out-of-range values whatever the caller checked.
 */
export async function setYardLocation(
  userId: string,
  location: YardLocation,
  options: { onlyIfNone?: boolean; db?: Db } = {},
): Promise<boolean> {
  const db = options.db ?? (await getDb());
  const now = new Date();
  const result = await db
    .insertInto("yard_profiles")
    .values({ user_id: userId, ...location, location_updated_at: now })
    .onConflict((oc) => {
      const update = oc.column("user_id").doUpdateSet({ ...location, location_updated_at: now });
      return options.onlyIfNone ? update.where("yard_profiles.latitude", "is", null) : update;
    })
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Whether the customer wants the completion and missed e-mails (on unless they turned it off). */
export async function wantsVisitEmails(db: Db, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom("yard_profiles")
    .select("notify_visit_emails")
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return row?.notify_visit_emails ?? true;
}

/** A first yard profile (from a quote request); an account that has one keeps it as it is. */
export async function insertYardProfileIfMissing(db: Db, userId: string, values: YardProfileValues) {
  await db
    .insertInto("yard_profiles")
    .values({ user_id: userId, ...values })
    .onConflict((oc) => oc.column("user_id").doNothing())
    .execute();
}

/**
 * Whether this customer still agrees to texts at this number (checked when a text is sent, not
 * only when it was queued): their saved number is it and "Text me" is ticked.
 */
export async function hasTextConsent(db: Db, userId: string, phone: string): Promise<boolean> {
  const row = await db
    .selectFrom("yard_profiles")
    .select("user_id")
    .where("user_id", "=", userId)
    .where("mobile_phone", "=", phone)
    .where("text_consent_at", "is not", null)
    .executeTakeFirst();
  return row !== undefined;
}

/** A STOP revokes consent (the FCC's 2025 rule): every profile with this number stops texts. */
export async function revokeTextConsent(db: Db, phone: string) {
  await db
    .updateTable("yard_profiles")
    .set({ text_consent_at: null, updated_at: new Date() })
    .where("mobile_phone", "=", phone)
    .where("text_consent_at", "is not", null)
    .execute();
}

/** Consent confirmed from the number itself ("Text me again", then START): recorded at `at`. */
export async function grantTextConsent(db: Db, userIds: readonly string[], phone: string, at: Date) {
  if (userIds.length === 0) return;
  await db
    .updateTable("yard_profiles")
    .set({ text_consent_at: at, updated_at: at })
    .where("user_id", "in", userIds)
    .where("mobile_phone", "=", phone)
    .execute();
}

/** The yards' coordinates and ZIP codes of these customers (the routes page's "split by area"). */
export async function yardPlacesOf(customerIds: readonly string[]) {
  if (customerIds.length === 0) return [];
  const db = await getDb();
  return db
    .selectFrom("yard_profiles")
    .select(["user_id", "latitude", "longitude", "zip"])
    .where("user_id", "in", [...customerIds])
    .execute();
}
