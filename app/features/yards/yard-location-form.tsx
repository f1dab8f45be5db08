import { useEffect, useRef, useState } from "react";
import { Form } from "@remix-run/react";
import type { SubmissionResult } from "@conform-to/react";
import { Field } from "~/components/forms";
import { hintClass, primaryButtonClass, secondaryButtonClass } from "~/components/ui-classes";

type Location = { latitude: number; longitude: number } | null;

/**
 * The admin's "Yard location" (docs/decisions/093): two number fields that work without
 * JavaScript, and with it "Use my current location" (the browser's geolocation) fills and sends
 * them. Today orders the route by it; without it the ZIP code's centre stands in.
 */
export function YardLocationForm({
  location,
  result,
  busy,
}: {
  location: Location;
  result?: SubmissionResult<string[]> | null;
  busy: boolean;
}) {
  const formRef = useRef<HTMLFormElement>(null);
  const [canLocate, setCanLocate] = useState(false);
  const [status, setStatus] = useState("");
  useEffect(() => setCanLocate("geolocation" in navigator), []);
  const errors = (field: string) => result?.error?.[field] ?? undefined;

  function useCurrentLocation() {
    setStatus("Finding your location…");
    navigator.geolocation.getCurrentPosition(
      (position) => {
        const form = formRef.current;
        if (!form) return;
        (form.elements.namedItem("latitude") as HTMLInputElement).value = position.coords.latitude.toFixed(6);
        (form.elements.namedItem("longitude") as HTMLInputElement).value = position.coords.longitude.toFixed(6);
        setStatus("Location found; saving.");
        form.requestSubmit();
      },
      () => setStatus("Your location is not available: allow it in the browser, or type the coordinates."),
      { enableHighAccuracy: true, timeout: 15_000 },
    );
  }

  return (
    <section aria-labelledby="yard-location-heading" className="mt-6">
      <h4 id="yard-location-heading" className="text-lg font-semibold">
        Yard location
      </h4>
      <p className={hintClass}>
        {location
          ? `On file: ${location.latitude.toFixed(5)}, ${location.longitude.toFixed(5)}. Only admins see it.`
          : "None on file: Today places this yard by its ZIP code's centre. Only admins see it."}
      </p>
      <Form method="post" ref={formRef} className="mt-3">
        <input type="hidden" name="intent" value="yard-location" />
        {canLocate ? (
          <>
            <button type="button" onClick={useCurrentLocation} disabled={busy} className={primaryButtonClass}>
              Use my current location
            </button>
            <p role="status" className={hintClass}>
              {status}
            </p>
          </>
        ) : null}
        <div className="mt-3 grid gap-3 sm:grid-cols-2">
          <Field
            label="Latitude"
            inputProps={{
              id: "yard-latitude",
              name: "latitude",
              type: "number",
              step: "any",
              min: -90,
              max: 90,
              required: true,
              inputMode: "decimal",
              defaultValue: location?.latitude,
            }}
            errors={errors("latitude")}
          />
          <Field
            label="Longitude"
            inputProps={{
              id: "yard-longitude",
              name: "longitude",
              type: "number",
              step: "any",
              min: -180,
              max: 180,
              required: true,
              inputMode: "decimal",
              defaultValue: location?.longitude,
            }}
            errors={errors("longitude")}
          />
        </div>
        <button type="submit" disabled={busy} className={`${secondaryButtonClass} mt-3`}>
          Save location
        </button>
      </Form>
    </section>
  );
}

/**
 * Hidden fields for the "Complete" form: the browser's location when it already may share it
 * (asked once by "Use my current location"), so a visit completed at the yard records the yard's
 * location if it has none. Never prompts; empty without permission or JavaScript.
 */
export function CompletionLocationFields() {
  const [coords, setCoords] = useState<{ latitude: string; longitude: string } | null>(null);
  useEffect(() => {
    if (!("geolocation" in navigator) || !navigator.permissions) return;
    let cancelled = false;
    navigator.permissions
      .query({ name: "geolocation" })
      .then((permission) => {
        if (permission.state !== "granted" || cancelled) return;
        navigator.geolocation.getCurrentPosition((position) => {
          if (cancelled) return;
          setCoords({
            latitude: position.coords.latitude.toFixed(6),
            longitude: position.coords.longitude.toFixed(6),
          });
        });
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, []);
  return coords ? (
    <>
      <input type="hidden" name="latitude" value={coords.latitude} />
      <input type="hidden" name="longitude" value={coords.longitude} />
    </>
  ) : null;
}
