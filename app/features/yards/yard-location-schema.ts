import { z } from "zod";

const coordinate = (name: string, limit: number) =>
  z
    .number({ required_error: `Enter the ${name}`, invalid_type_error: `The ${name} is a number, e.g. 36.16` })
    .min(-limit, `The ${name} is between -${limit} and ${limit}`)
    .max(limit, `The ${name} is between -${limit} and ${limit}`);

/** A yard's coordinates as typed or sent by the browser (the database CHECKs the same ranges). */
export const yardLocationSchema = z.object({
  latitude: coordinate("latitude", 90),
  longitude: coordinate("longitude", 180),
});
