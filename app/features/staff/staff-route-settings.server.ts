import { z } from "zod";
import { zipCentroid } from "~/features/route/zip-centroids.server";
import { getStaffRoute, saveStaffRoute, type StaffRouteRow } from "~/models/staff-route.server";
import { listStaffMembers } from "~/models/staff.server";

export const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"] as const;
const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;
const minutesOf = (value: string) => {
  const [, h, m] = TIME.exec(value)!;
  return Number(h) * 60 + Number(m);
};
const optionalNumber = z.preprocess(
  (v) => (v === "" || v === undefined ? undefined : Number(v)),
  z.number().optional(),
);

const placeSchema = (label: string, required: boolean) =>
  z
    .object({
      name: z.string().trim().max(200),
      latitude: optionalNumber.pipe(z.number().min(-90).max(90).optional()),
      longitude: optionalNumber.pipe(z.number().min(-180).max(180).optional()),
      zip: z.string().trim().max(10),
    })
    .superRefine((place, ctx) => {
      const empty = !place.name && place.latitude === undefined && place.longitude === undefined && !place.zip;
      if (empty && !required) return;
      if (!place.name) ctx.addIssue({ code: "custom", message: `Name the ${label} (e.g. "Yard, 12 Main St")` });
      if ((place.latitude === undefined) !== (place.longitude === undefined)) {
        ctx.addIssue({ code: "custom", message: `Enter both the ${label}'s latitude and longitude, or neither` });
      } else if (place.latitude === undefined && !/^\d{5}$/.test(place.zip)) {
        ctx.addIssue({ code: "custom", message: `Enter the ${label}'s coordinates or its five-digit ZIP code` });
      }
    });

/** The route settings form, as posted (docs/decisions/126). */
export const staffRouteSchema = z
  .object({
    worksRoute: z.boolean(),
    start: placeSchema("start", true),
    end: placeSchema("end", false),
    dayStartsAt: z.string().regex(TIME, "The day's start is a time, e.g. 08:00"),
    dayEndsAt: z.string().regex(TIME, "The day's end is a time, e.g. 17:00"),
    weekdays: z.array(z.number().int().min(0).max(6)),
  })
  .refine(
    (v) => !TIME.test(v.dayStartsAt) || !TIME.test(v.dayEndsAt) || minutesOf(v.dayEndsAt) > minutesOf(v.dayStartsAt),
    {
      message: "The day ends after it starts",
    },
  )
  .refine((v) => !v.worksRoute || v.weekdays.length > 0, { message: "Choose the weekdays they work" });

export async function loadStaffRoutePage(staffId: string) {
  const member = (await listStaffMembers()).find((m) => m.id === staffId);
  if (!member) return null;
  return {
    member: { id: member.id, label: member.fullName ?? member.email, role: member.role },
    route: await getStaffRoute(staffId),
  };
}

type Place = { name: string; latitude?: number; longitude?: number; zip: string };

async function resolve(place: Place) {
  if (place.latitude !== undefined && place.longitude !== undefined) {
    return { name: place.name, latitude: place.latitude, longitude: place.longitude };
  }
  const centre = await zipCentroid(place.zip);
  return centre ? { name: place.name, ...centre } : null;
}

/** Saves the posted settings; an error message per problem, nothing stored when there is one. */
export async function saveStaffRouteForm(staffId: string, form: FormData, ownerId: string): Promise<string[]> {
  const text = (name: string) => String(form.get(name) ?? "");
  const place = (prefix: string) => ({
    name: text(`${prefix}Name`),
    latitude: text(`${prefix}Latitude`),
    longitude: text(`${prefix}Longitude`),
    zip: text(`${prefix}Zip`),
  });
  const parsed = staffRouteSchema.safeParse({
    worksRoute: form.get("worksRoute") === "on",
    start: place("start"),
    end: place("end"),
    dayStartsAt: text("dayStartsAt"),
    dayEndsAt: text("dayEndsAt"),
    weekdays: form.getAll("weekday").map(Number),
  });
  if (!parsed.success) return parsed.error.issues.map((issue) => issue.message);
  const value = parsed.data;
  const start = await resolve(value.start);
  if (!start) return ["That ZIP code is not one we know: enter the start's coordinates"];
  const end = value.end.name ? await resolve(value.end) : null;
  if (value.end.name && !end) return ["That ZIP code is not one we know: enter the end's coordinates"];
  const row: StaffRouteRow = {
    userId: staffId,
    worksRoute: value.worksRoute,
    start,
    end,
    dayStartsAt: minutesOf(value.dayStartsAt),
    dayEndsAt: minutesOf(value.dayEndsAt),
    weekdays: value.weekdays.reduce((mask, day) => mask | (1 << day), 0),
  };
  await saveStaffRoute(row, ownerId);
  return [];
}
