import type { Insertable, Kysely, Transaction } from "kysely";
import { DEV_ADMIN_TOTP_SECRET } from "./dev-totp";
import type { Database, HealthFlag, MissedReason, VisitStatus, VisitType, YardProfilesTable } from "./schema";
import { readSeedPhotoPairs, streamOf, type SeedPhotoPair, type SeedStorage } from "./seed-photos";

/**
 * Development accounts; the README prints these. Never seeded in production. Each carries its
 * password's hash, made once with app/features/accounts/password.server.ts (hashPassword), so
 * that db/ needs nothing of the app (docs/decisions/016); db/seed-data.test.ts signs in with them.
 */
export const DEV_ACCOUNTS = {
  admin: {
    email: "admin@example.com",
    password: "admin-password",
    passwordHash:
      "scrypt$32768$8$1$NZ_K2Fq-iRiU_FVqnR7_Nw$SZ6dSvjNCF1RFQOKEc1VbyRnuQGIUBDqsnyFykn6uLT-XXe_fawg2s_3rsulUwNJtSAUZUpkqzCT1-8qC0cNIQ",
    fullName: "Avery Admin",
  },
  customer: {
    email: "customer@example.com",
    password: "customer-password",
    passwordHash:
      "scrypt$32768$8$1$vTO-zU9pGsiGeyovSYQAWQ$Aaz_IC9PsKm2mjb4Ka21lJ6WR44bqJaUgFOuB0WVxOY9xinbk3vDcpnH5dfF5Z_iVPAXm62y-UCQuaq69-r2Hw",
    fullName: "Casey Customer",
  },
  // A technician (issue 36): today's round and tomorrow's customer visit are theirs, so the
  // development app shows what the role sees. Two-step with the development admin's secret.
  technician: {
    email: "technician@example.com",
    password: "technician-password",
    passwordHash:
      "scrypt$32768$8$1$uYtwEE4uNXSnr4IpcXI1jQ$rT0dS-K3dgG7uAvz3LyyLoRJR2kKbX8AkFijVHs7dhe2FpV3zNko5rqeGR_SqCouEhmG7DmE0suKgsI2hQJFcQ",
    fullName: "Terry Technician",
  },
} as const;

/**
 * More customers, so the admin's lists and Today page have something to show. They share the
 * development customer's password (its hash, above).
 */
export const SEED_CUSTOMERS = [
  { key: "morgan", email: "morgan@example.com", fullName: "Morgan Mesa" },
  { key: "riley", email: "riley@example.com", fullName: "Riley Ridge" },
  { key: "jordan", email: "jordan@example.com", fullName: "Jordan Juniper" },
] as const;

type CustomerKey = "customer" | (typeof SEED_CUSTOMERS)[number]["key"];

/** Gate codes live here and only here: a visit's notes are read by more people (decision 032). */
const YARDS: Record<CustomerKey, Omit<Insertable<YardProfilesTable>, "user_id">> = {
  customer: {
    street: "4120 Desert Willow Lane",
    city: "Las Vegas",
    zip: "89123",
    gate_code: "1234",
    gate_location: "Side gate, left of the garage",
    dog_count: 2,
    dog_names: "Biscuit, Mango",
    loose_dog: true,
    hazards: null,
    access_notes: "Please latch the gate behind you.",
  },
  morgan: {
    street: "77 Quail Run Court",
    city: "Henderson",
    zip: "89052",
    gate_code: "4821#",
    gate_location: "Keypad on the right-hand gate",
    dog_count: 1,
    dog_names: "Pepper",
    loose_dog: false,
    hazards: "Sprinklers run at 9 a.m.",
    access_notes: null,
    // A mobile for Today's "tel:" link; no consent to texts, so "On my way" only e-mails.
    mobile_phone: "+17025550148",
  },
  riley: {
    street: "1905 Red Rock Vista Drive",
    city: "Las Vegas",
    zip: "89135",
    gate_code: null,
    gate_location: "Unlocked side gate",
    dog_count: 3,
    dog_names: "Otis, Juniper, Bean",
    loose_dog: true,
    hazards: "Cactus bed along the back wall",
    access_notes: null,
  },
  jordan: {
    street: "310 Sagebrush Road",
    city: "Pahrump",
    zip: "89048",
    gate_code: "0907",
    gate_location: "Front gate",
    dog_count: 2,
    dog_names: "Duke, Daisy",
    loose_dog: false,
    hazards: null,
    access_notes: "Dog run along the east fence.",
  },
};

const minute = 60 * 1000;
const hour = 60 * minute;
const day = 24 * hour;

/** The business's day (Pacific, as app/utils/business-time.ts), so "today" visits stay today. */
const businessDay = (time: number) =>
  new Intl.DateTimeFormat("en-CA", { timeZone: "America/Los_Angeles" }).format(new Date(time));

/** The business's wall-clock `hourOfDay` on the day of `time` (a visit in the morning, not at 00:27). */
function atBusinessHour(time: number, hourOfDay: number): Date {
  const wallClock = Date.parse(`${businessDay(time)}T${String(hourOfDay).padStart(2, "0")}:00:00Z`);
  const offset = new Intl.DateTimeFormat("en-US", { timeZone: "America/Los_Angeles", timeZoneName: "shortOffset" })
    .formatToParts(new Date(wallClock))
    .find((part) => part.type === "timeZoneName")!
    .value.match(/GMT([+-]\d+)?/)![1];
  return new Date(wallClock - Number(offset ?? 0) * hour);
}

/** `now` moved by `offset`, or `now` itself when that would leave today (near midnight). */
function laterToday(now: number, offset: number): Date {
  return new Date(businessDay(now + offset) === businessDay(now) ? now + offset : now);
}

type SeedVisit = {
  customer: CustomerKey;
  /** Assigned to the development technician. */
  technician?: true;
  type: VisitType;
  date: Date;
  status: VisitStatus;
  notes?: string;
  missed?: { reason: MissedReason; note: string };
  health?: { flags: HealthFlag[]; note: string };
  /** Index into the dataset's Before & After pairs. */
  photos?: number;
  /** The key of the missed visit this one returns to. */
  returnTo?: string;
  key?: string;
};

function seedVisits(now: number): SeedVisit[] {
  return [
    // The development customer: five visits, the three completed ones the dashboard's "Recent
    // Services" (decision 047), the others in their visit history.
    {
      customer: "customer",
      type: "Weekly Service",
      date: atBusinessHour(now - 21 * day, 8),
      status: "completed",
      photos: 0,
    },
    {
      customer: "customer",
      type: "Weekly Service",
      date: atBusinessHour(now - 14 * day, 9),
      status: "completed",
      notes: "Two dogs. Back corner was heavy this week.",
      health: { flags: ["loose_stool"], note: "Some loose stool near the patio; worth watching this week." },
      photos: 1,
    },
    {
      key: "missed",
      customer: "customer",
      type: "Weekly Service",
      date: atBusinessHour(now - 7 * day, 8),
      status: "missed",
      missed: { reason: "locked_gate", note: "The side gate was padlocked." },
    },
    {
      customer: "customer",
      type: "Weekly Service",
      date: atBusinessHour(now - 6 * day, 10),
      status: "completed",
      returnTo: "missed",
      photos: 2,
    },
    {
      customer: "customer",
      type: "Weekly Service",
      date: atBusinessHour(now + 1 * day, 9),
      status: "scheduled",
      technician: true,
    },
    // Others: a skipped week, a health flag, and today's round for the admin's Today page.
    {
      customer: "morgan",
      type: "Weekly Service",
      date: atBusinessHour(now - 10 * day, 11),
      status: "completed",
      photos: 1,
    },
    {
      customer: "morgan",
      type: "Weekly Service",
      date: atBusinessHour(now - 3 * day, 11),
      status: "skipped",
      notes: "Customer asked to skip this week (away).",
    },
    {
      customer: "jordan",
      type: "Yard Refresh",
      date: laterToday(now, -1 * hour),
      status: "completed",
      photos: 2,
      technician: true,
    },
    {
      customer: "morgan",
      type: "Weekly Service",
      date: laterToday(now, 1 * hour),
      status: "scheduled",
      technician: true,
    },
    {
      customer: "riley",
      type: "Twice Weekly Service",
      date: atBusinessHour(now - 4 * day, 10),
      status: "completed",
      health: { flags: ["worms_or_foreign_objects"], note: "A chewed toy in one pile; mentioned to the owner." },
    },
    { customer: "riley", type: "Twice Weekly Service", date: laterToday(now, 2 * hour), status: "scheduled" },
  ];
}

export type SeedOptions = {
  /** Where the before and after pictures go; without one the seed adds no photos. */
  storage?: SeedStorage;
  /** The Before & After pairs to use (default: the bundled dataset's). */
  photoPairs?: SeedPhotoPair[];
};

/** Idempotent: does nothing when the development admin already exists. */
export async function seedDevelopmentData(db: Kysely<Database>, options: SeedOptions = {}): Promise<boolean> {
  const existing = await db
    .selectFrom("users")
    .select("id")
    .where((eb) => eb(eb.fn("lower", ["email"]), "=", DEV_ACCOUNTS.admin.email))
    .executeTakeFirst();
  if (existing) return false;
  const pairs = options.storage ? (options.photoPairs ?? (await readSeedPhotoPairs())) : [];

  await db.transaction().execute(async (trx) => {
    const admin = await insertUser(trx, DEV_ACCOUNTS.admin);
    await trx.insertInto("user_roles").values({ user_id: admin, role: "owner" }).execute();
    // Admins must use two-step sign-in; the development admin's secret is a published constant.
    await trx
      .insertInto("user_totp")
      .values({ user_id: admin, secret: DEV_ADMIN_TOTP_SECRET, enabled_at: new Date() })
      .execute();
    // Every staff account must use two-step (decision 123): the technician too, same secret.
    const technician = await insertUser(trx, DEV_ACCOUNTS.technician);
    await trx.insertInto("user_roles").values({ user_id: technician, role: "technician" }).execute();
    await trx
      .insertInto("user_totp")
      .values({ user_id: technician, secret: DEV_ADMIN_TOTP_SECRET, enabled_at: new Date() })
      .execute();
    const ids = { customer: await insertUser(trx, DEV_ACCOUNTS.customer) } as Record<CustomerKey, string>;
    for (const extra of SEED_CUSTOMERS) {
      ids[extra.key] = await insertUser(trx, { ...extra, passwordHash: DEV_ACCOUNTS.customer.passwordHash });
    }
    for (const [key, yard] of Object.entries(YARDS)) {
      await trx
        .insertInto("yard_profiles")
        .values({ ...yard, user_id: ids[key as CustomerKey] })
        .execute();
    }

    const now = Date.now();
    const visitIds = new Map<string, string>();
    for (const visit of seedVisits(now)) {
      const done = visit.status === "completed";
      const row = await trx
        .insertInto("services")
        .values({
          customer_id: ids[visit.customer],
          service_type: visit.type,
          service_date: visit.date,
          status: visit.status,
          notes: visit.notes ?? null,
          created_by: admin,
          assigned_to: visit.technician ? technician : null,
          return_visit_of: visit.returnTo ? visitIds.get(visit.returnTo)! : null,
          missed_reason: visit.missed?.reason ?? null,
          missed_note: visit.missed?.note ?? null,
          health_flags: visit.health?.flags ?? [],
          health_note: visit.health?.note ?? null,
          completed_at: done ? new Date(visit.date.getTime() + 30 * minute) : null,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      if (visit.key) visitIds.set(visit.key, row.id);
      const pair = visit.photos === undefined ? undefined : pairs[visit.photos % pairs.length];
      if (pair && options.storage) {
        await addPhotos(trx, options.storage, {
          customerId: ids[visit.customer],
          visitId: row.id,
          admin,
          pair,
          at: visit.date,
        });
      }
    }

    await trx
      .insertInto("bookings")
      .values([
        {
          customer_id: ids.customer,
          service_type: "Weekly Service",
          booking_date: new Date(now + 1 * day),
          status: "confirmed",
          source: "admin",
        },
        {
          customer_id: ids.customer,
          service_type: "Trash Bin Clean",
          booking_date: new Date(now + 9 * day),
          status: "pending",
          source: "website",
        },
        {
          customer_id: ids.morgan,
          service_type: "Sanitize & Deodorize",
          booking_date: new Date(now + 5 * day),
          status: "confirmed",
          source: "calendar",
          provider: "cal_com",
          external_id: "seed-booking-morgan",
          attendee_email: "morgan@example.com",
          event_type: "sanitize-deodorize",
          ends_at: new Date(now + 5 * day + 1 * hour),
        },
        // Nobody with this address has an account: the admin's Bookings page shows it unmatched.
        {
          customer_id: null,
          service_type: "Weekly Service",
          booking_date: new Date(now + 3 * day),
          status: "pending",
          source: "calendar",
          provider: "cal_com",
          external_id: "seed-booking-unmatched",
          attendee_email: "new.neighbor@example.net",
          event_type: "weekly-service",
          ends_at: new Date(now + 3 * day + 1 * hour),
        },
      ])
      .execute();

    // Customer plans (decision 090): their visits are made by the visit generator, which the
    // server runs at start, so the seed writes only the plans. The catalogue plan ids and names
    // are the bundled dataset's.
    // The business's calendar day (Pacific time; app/utils/business-time.ts says why).
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Los_Angeles" }).format(new Date(now));
    const plans = [
      { customer: ids.customer, plan: "weekly", name: "Weekly Swift Service", weekdays: [2], dogs: 2, yard: "medium" },
      {
        customer: ids.morgan,
        plan: "twice-weekly",
        name: "Twice-Weekly Swift Service",
        weekdays: [1, 4],
        dogs: 1,
        yard: "small",
      },
      { customer: ids.jordan, plan: "weekly", name: "Weekly Swift Service", weekdays: [5], dogs: 3, yard: "large" },
    ] as const;
    for (const seed of plans) {
      const plan = await trx
        .insertInto("customer_plans")
        .values({
          customer_id: seed.customer,
          catalogue_plan_id: `servicePlan.${seed.plan}`,
          catalogue_plan_name: seed.name,
          visits_per_week: seed.weekdays.length,
          weekdays: [...seed.weekdays],
          dog_count: seed.dogs,
          yard_size: seed.yard,
          start_date: today,
          notes: null,
          created_by: admin,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await trx
        .insertInto("customer_plan_events")
        .values({ plan_id: plan.id, actor_id: admin, kind: "started", detail: `${seed.name}, from ${today}` })
        .execute();
    }

    await trx
      .insertInto("quote_requests")
      .values([
        {
          name: "Sam Saguaro",
          phone: "(702) 555-0142",
          email: "sam@example.net",
          address: "88 Palo Verde Street, Las Vegas",
          zip: "89117",
          dogs: "2",
          yard_size: "medium",
          service: "Weekly Service",
          message: "Two labs, a medium backyard. Could you start next week?",
          status: "new",
          dedupe_key: "seed-quote-sam",
        },
        {
          name: "Dana Dune",
          phone: "(775) 555-0199",
          email: "dana@example.net",
          address: "12 Homestead Road, Pahrump",
          zip: "89060",
          dogs: "4+",
          yard_size: "large",
          service: "Yard Refresh",
          message: null,
          status: "contacted",
          dedupe_key: "seed-quote-dana",
        },
      ])
      .execute();
  });
  return true;
}

async function insertUser(
  trx: Transaction<Database>,
  account: { email: string; passwordHash: string; fullName: string },
): Promise<string> {
  const user = await trx
    .insertInto("users")
    .values({ email: account.email, password_hash: account.passwordHash, email_verified_at: new Date() })
    .returning("id")
    .executeTakeFirstOrThrow();
  await trx.insertInto("profiles").values({ user_id: user.id, full_name: account.fullName }).execute();
  return user.id;
}

/** A before and an after picture, stored under the keys uploads get (app/utils/storage.server.ts). */
async function addPhotos(
  trx: Transaction<Database>,
  storage: SeedStorage,
  photo: { customerId: string; visitId: string; admin: string; pair: SeedPhotoPair; at: Date },
) {
  for (const [index, type] of (["before", "after"] as const).entries()) {
    const picture = photo.pair[type];
    const taken = photo.at.getTime() + index * 20 * minute;
    const key = `${photo.customerId}/${photo.visitId}/${type}_${taken}.${picture.extension}`;
    await storage.put(key, streamOf(picture.bytes), { contentType: picture.contentType });
    await trx
      .insertInto("service_images")
      .values({
        service_id: photo.visitId,
        image_url: key,
        image_type: type,
        content_type: picture.contentType,
        size_bytes: picture.bytes.length,
        uploaded_by: photo.admin,
        // As if uploaded at the visit: the dashboard shows the newest visits' photos first.
        created_at: new Date(taken),
      })
      .execute();
  }
}
