import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, unstable_parseMultipartFormData } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { IMAGE_TYPES, type ImageType } from "~/features/media/media-constants";
import { SERVICE_TYPES } from "~/features/visits/visit-constants";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import type { loader as rootLoader } from "~/root";
import { ActionToast, type ActionToastMessage } from "~/components/action-toast";
import { MediaUploadForm } from "~/features/media/media-upload-form";
import { MediaView } from "~/features/media/media-view";
import { mediaKindOf, storeServiceMedia, type StoreMediaResult } from "~/features/media/service-media.server";
import { listMediaForServices } from "~/models/service-media.server";
import { formatBusinessDate, formatBusinessDateTime, parseBusinessDateTime } from "~/utils/business-time";
import { createService, getServiceWithCustomer, isCustomer, listCustomers } from "~/models/service.server";
import { requireAdmin } from "~/features/accounts/auth.server";
import { errorFields, log } from "~/utils/logger.server";
import { drain } from "~/utils/storage.server";
import { redirectWithError, redirectWithSuccess } from "~/utils/toast.server";

type Tab = "create" | "upload";

/** The admin's place: tab, current service and chosen customer all live in the URL. */
function dashboardUrl(tab: Tab, serviceId?: string | null, customerId?: string | null) {
  const params = new URLSearchParams({ tab });
  if (serviceId) params.set("service", serviceId);
  if (customerId) params.set("customer", customerId);
  return `/admin-dashboard?${params}`;
}

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const url = new URL(request.url);
  const tab: Tab = url.searchParams.get("tab") === "upload" ? "upload" : "create";
  const [customers, service] = await Promise.all([
    listCustomers(),
    getServiceWithCustomer(url.searchParams.get("service") ?? ""),
  ]);
  const media = service ? await listMediaForServices([service.id]) : [];
  const customerParam = url.searchParams.get("customer");
  const selectedCustomerId = customers.some((c) => c.id === customerParam)
    ? customerParam
    : (service?.customer_id ?? "");
  return json(
    {
      tab,
      customers,
      selectedCustomerId,
      currentService: service
        ? {
            id: service.id,
            customerId: service.customer_id,
            customerLabel: service.customer_name
              ? `${service.customer_name} (${service.customer_email})`
              : service.customer_email,
            serviceType: service.service_type,
            dateLabel: formatBusinessDateTime(service.service_date),
          }
        : null,
      media: service
        ? media.map((m) => ({
            id: m.id,
            url: `/resources/media/${m.id}`,
            kind: mediaKindOf(m),
            imageType: m.image_type,
            serviceType: service.service_type,
            dateLabel: formatBusinessDate(service.service_date),
          }))
        : [],
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

const createServiceSchema = z.object({
  customerId: z.string().trim(),
  serviceType: z.string().trim(),
  serviceDate: z.string().trim(),
  notes: z.string().trim().max(2000, "Notes can be at most 2000 characters"),
});
type CreateServiceValues = z.infer<typeof createServiceSchema>;
type FieldErrors = Partial<Record<keyof CreateServiceValues, string>>;

export async function action({ request }: ActionFunctionArgs) {
  const upload = (request.headers.get("Content-Type") ?? "").startsWith("multipart/form-data");
  const admin = await requireAdmin(request).catch(async (response: unknown) => {
    // A refused upload is still being sent: read it off so the browser gets the redirect.
    if (upload) await discardBody(request);
    throw response;
  });
  if (upload) return answerUpload(request, await uploadMedia(request, admin.id, new URL(request.url)));
  return createServiceFromForm(request, admin.id);
}

// --- Create Service ------------------------------------------------------------------------

async function createServiceFromForm(request: Request, adminId: string) {
  const failure = (toast: ActionToastMessage, values: CreateServiceValues, fieldErrors: FieldErrors = {}) =>
    json({ toast, values, fieldErrors }, { status: 400 });
  const empty: CreateServiceValues = { customerId: "", serviceType: "", serviceDate: "", notes: "" };

  if (Number(request.headers.get("Content-Length") ?? 0) > 64 * 1024) {
    return failure({ type: "error", message: "Error", description: "Failed to create service" }, empty);
  }
  const form = await request.formData().catch(() => null);
  const raw = Object.fromEntries(
    (["customerId", "serviceType", "serviceDate", "notes"] as const).map((k) => {
      const v = form?.get(k);
      return [k, typeof v === "string" ? v : ""];
    }),
  );
  const parsed = createServiceSchema.safeParse(raw);
  const values: CreateServiceValues = parsed.success ? parsed.data : { ...empty, ...raw };

  const missing: FieldErrors = {};
  if (!values.customerId) missing.customerId = "Select a customer";
  if (!values.serviceType) missing.serviceType = "Select a service type";
  if (!values.serviceDate) missing.serviceDate = "Enter the date and time";
  if (Object.keys(missing).length > 0) {
    return failure(
      { type: "error", message: "Missing Information", description: "Please fill in all required fields" },
      values,
      missing,
    );
  }

  const invalid: FieldErrors = {};
  if (!parsed.success) invalid.notes = parsed.error.issues[0]?.message;
  const serviceType = SERVICE_TYPES.find((t) => t === values.serviceType);
  if (!serviceType) invalid.serviceType = "Select one of the listed service types";
  const serviceDate = parseBusinessDateTime(values.serviceDate);
  if (!serviceDate) invalid.serviceDate = "Enter a valid date and time";
  if (!(await isCustomer(values.customerId))) invalid.customerId = "Select one of the listed customers";
  if (Object.keys(invalid).length > 0 || !serviceType || !serviceDate) {
    return failure({ type: "error", message: "Error", description: "Failed to create service" }, values, invalid);
  }

  try {
    const service = await createService({
      customerId: values.customerId,
      serviceType,
      serviceDate,
      notes: values.notes || null,
      createdBy: adminId,
    });
    log.info("service.created", { serviceId: service.id, adminId });
    // The new service becomes the current one; the customer stays chosen.
    return redirectWithSuccess(dashboardUrl("create", service.id, service.customer_id), {
      message: "Success",
      description: "Service created successfully",
    });
  } catch (error) {
    log.error("service.create_failed", errorFields(error));
    return failure({ type: "error", message: "Error", description: "Failed to create service" }, values);
  }
}

// --- Upload Images -------------------------------------------------------------------------

type UploadOutcome =
  | { kind: "no-service"; back: string }
  | { kind: "no-file" | "malformed"; back: string }
  | { kind: "stored"; back: string; result: StoreMediaResult; imageType: ImageType };

const isImageType = (name: string): name is ImageType => (IMAGE_TYPES as readonly string[]).includes(name);

/** Reads what is left of a request body so the browser, still sending, gets the answer. */
async function discardBody(request: Request) {
  if (!request.body || request.bodyUsed) return;
  const reader = request.body.getReader();
  await drain({ next: () => reader.read() as Promise<IteratorResult<Uint8Array>> }).catch(() => undefined);
}

async function uploadMedia(request: Request, adminId: string, url: URL): Promise<UploadOutcome> {
  // The current service comes from the form's URL, so it is known before the file arrives.
  const service = await getServiceWithCustomer(url.searchParams.get("service") ?? "");
  if (!service) {
    await discardBody(request);
    return { kind: "no-service", back: dashboardUrl("upload", null, url.searchParams.get("customer")) };
  }
  const back = dashboardUrl("upload", service.id, service.customer_id);
  let stored: { result: StoreMediaResult; imageType: ImageType } | null = null;
  try {
    await unstable_parseMultipartFormData(request, async (part) => {
      const data = part.data[Symbol.asyncIterator]();
      // One file per request, from a "before" or "after" input; everything else is skipped
      // (read and dropped: the parser would otherwise buffer an unread part in memory).
      if (stored || !part.filename || !isImageType(part.name)) {
        await drain(data, part.filename ? undefined : 64 * 1024);
        return undefined;
      }
      const imageType = part.name;
      const result = await storeServiceMedia({ service, imageType, source: data, uploadedBy: adminId });
      stored = { result, imageType };
      if (!result.ok) await drain(data);
      return undefined;
    });
  } catch (error) {
    log.warn("media.upload_body_failed", errorFields(error));
    if (!stored) return { kind: "malformed", back };
  }
  if (!stored) return { kind: "no-file", back };
  return { kind: "stored", back, ...(stored as { result: StoreMediaResult; imageType: ImageType }) };
}

async function answerUpload(request: Request, outcome: UploadOutcome) {
  const response = await uploadResponse(outcome);
  // The page's upload script (for its progress bar) cannot let XMLHttpRequest follow the
  // redirect: the followed page would swallow the flash toast. It gets the target instead.
  if (request.headers.get("X-Requested-With") === "XMLHttpRequest") {
    const headers = new Headers();
    for (const cookie of response.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
    return json({ redirectTo: response.headers.get("Location") }, { headers });
  }
  return response;
}

function uploadResponse(outcome: UploadOutcome) {
  const uploadFailed = { message: "Upload Failed", description: "Failed to upload file" };
  if (outcome.kind === "no-service") {
    return redirectWithError(outcome.back, {
      message: "No Service Selected",
      description: "Please create a service first",
    });
  }
  if (outcome.kind !== "stored") return redirectWithError(outcome.back, uploadFailed);
  const { result, imageType } = outcome;
  if (result.ok) {
    log.info("media.uploaded", { imageId: result.image.id, kind: result.kind, bytes: result.image.size_bytes });
    return redirectWithSuccess(outcome.back, {
      message: "Success",
      description: `${imageType} ${result.kind} uploaded successfully`,
    });
  }
  if (result.reason === "too-large") {
    return redirectWithError(outcome.back, { message: "File Too Large", description: "Maximum file size is 50MB" });
  }
  if (result.reason === "not-media") {
    return redirectWithError(outcome.back, {
      message: "Upload Failed",
      description: "Only images and videos can be uploaded",
    });
  }
  return redirectWithError(outcome.back, uploadFailed);
}

// --- Page ----------------------------------------------------------------------------------

const fieldClass =
  "mt-1 block w-full rounded-lg border border-slate-400 bg-white px-3 py-2 text-base text-slate-900 aria-[invalid=true]:border-red-700 dark:border-slate-500 dark:bg-slate-900 dark:text-slate-100 dark:aria-[invalid=true]:border-red-400";
const labelClass = "block font-semibold text-slate-900 dark:text-white";
const errorClass = "mt-1 text-sm font-medium text-red-800 dark:text-red-300";
const primaryButton =
  "inline-flex min-h-11 items-center rounded-full bg-brand-700 px-6 py-2 font-semibold text-white hover:bg-brand-800 disabled:cursor-wait disabled:opacity-70 dark:bg-brand-500 dark:text-brand-950 dark:hover:bg-brand-400";

export default function AdminServicesAndUploads() {
  const { tab, customers, selectedCustomerId, currentService, media } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const failure = actionData && "toast" in actionData ? actionData : undefined;
  const navigation = useNavigation();
  const creating = navigation.state === "submitting" && navigation.formMethod === "POST";
  const values = failure?.values;
  const errors: FieldErrors = failure?.fieldErrors ?? {};
  const uploadAction = `/admin-dashboard?index&${new URLSearchParams({
    tab: "upload",
    ...(currentService ? { service: currentService.id, customer: currentService.customerId } : {}),
  })}`;

  const tabs = [
    { id: "create", label: "Create Service" },
    { id: "upload", label: "Upload Images" },
  ] as const;

  return (
    <>
      <ActionToast toast={failure?.toast} />
      <nav aria-label="Services and uploads">
        <ul className="flex flex-wrap gap-2">
          {tabs.map((t) => (
            <li key={t.id}>
              <Link
                to={dashboardUrl(t.id, currentService?.id, selectedCustomerId)}
                aria-current={tab === t.id ? "page" : undefined}
                className={`inline-flex min-h-11 items-center rounded-full px-5 py-2 font-semibold ${
                  tab === t.id
                    ? "bg-brand-700 text-white dark:bg-brand-300 dark:text-brand-950"
                    : "bg-slate-100 text-slate-800 hover:bg-slate-200 dark:bg-slate-800 dark:text-slate-100 dark:hover:bg-slate-700"
                }`}
              >
                {t.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>

      {currentService ? (
        <section
          aria-labelledby="current-service-heading"
          className="mt-6 rounded-xl bg-brand-50 p-4 dark:bg-brand-950"
        >
          <h2 id="current-service-heading" className="font-semibold text-brand-900 dark:text-brand-50">
            Current service
          </h2>
          <p className="text-slate-800 dark:text-slate-100" data-testid="current-service">
            {currentService.serviceType} for {currentService.customerLabel} on {currentService.dateLabel}
          </p>
        </section>
      ) : null}

      {tab === "create" ? (
        <section aria-labelledby="create-heading" className="mt-6 max-w-2xl">
          <h2 id="create-heading" className="text-2xl font-bold text-slate-900 dark:text-white">
            Create Service
          </h2>
          {/* Keyed by the current service: creating one clears type, date and notes. The browser's
              own checks are off so that a missing field gets the spec's toast. */}
          <Form
            key={currentService?.id ?? "new"}
            method="post"
            action={`/admin-dashboard?index&${new URLSearchParams({
              tab: "create",
              ...(selectedCustomerId ? { customer: selectedCustomerId } : {}),
            })}`}
            noValidate
            className="mt-4 space-y-5"
          >
            <div>
              <label htmlFor="customerId" className={labelClass}>
                Customer
              </label>
              <select
                id="customerId"
                name="customerId"
                required
                defaultValue={values?.customerId ?? selectedCustomerId ?? ""}
                aria-invalid={errors.customerId ? true : undefined}
                aria-describedby={errors.customerId ? "customerId-error" : undefined}
                className={fieldClass}
              >
                <option value="">Select a customer</option>
                {customers.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.fullName ? `${c.fullName} (${c.email})` : c.email}
                    {c.emailVerified ? "" : " (unverified)"}
                  </option>
                ))}
              </select>
              {errors.customerId ? (
                <p id="customerId-error" className={errorClass}>
                  {errors.customerId}
                </p>
              ) : null}
            </div>
            <div>
              <label htmlFor="serviceType" className={labelClass}>
                Service Type
              </label>
              <select
                id="serviceType"
                name="serviceType"
                required
                defaultValue={values?.serviceType ?? ""}
                aria-invalid={errors.serviceType ? true : undefined}
                aria-describedby={errors.serviceType ? "serviceType-error" : undefined}
                className={fieldClass}
              >
                <option value="">Select a service type</option>
                {SERVICE_TYPES.map((t) => (
                  <option key={t} value={t}>
                    {t}
                  </option>
                ))}
              </select>
              {errors.serviceType ? (
                <p id="serviceType-error" className={errorClass}>
                  {errors.serviceType}
                </p>
              ) : null}
            </div>
            <div>
              <label htmlFor="serviceDate" className={labelClass}>
                Service Date
              </label>
              <input
                id="serviceDate"
                name="serviceDate"
                type="datetime-local"
                required
                defaultValue={values?.serviceDate ?? ""}
                aria-invalid={errors.serviceDate ? true : undefined}
                aria-describedby={`serviceDate-hint${errors.serviceDate ? " serviceDate-error" : ""}`}
                className={fieldClass}
              />
              <p id="serviceDate-hint" className="mt-1 text-sm text-slate-700 dark:text-slate-300">
                Pacific time (Las Vegas)
              </p>
              {errors.serviceDate ? (
                <p id="serviceDate-error" className={errorClass}>
                  {errors.serviceDate}
                </p>
              ) : null}
            </div>
            <div>
              <label htmlFor="notes" className={labelClass}>
                Notes (optional)
              </label>
              <textarea
                id="notes"
                name="notes"
                rows={3}
                maxLength={2000}
                defaultValue={values?.notes ?? ""}
                aria-invalid={errors.notes ? true : undefined}
                aria-describedby={errors.notes ? "notes-error" : undefined}
                className={fieldClass}
              />
              {errors.notes ? (
                <p id="notes-error" className={errorClass}>
                  {errors.notes}
                </p>
              ) : null}
            </div>
            <button type="submit" disabled={creating} className={primaryButton}>
              Create Service
            </button>
          </Form>
        </section>
      ) : (
        <section aria-labelledby="upload-heading" className="mt-6">
          <h2 id="upload-heading" className="text-2xl font-bold text-slate-900 dark:text-white">
            Upload Images
          </h2>
          {currentService ? null : (
            <p className="mt-2 text-lg text-slate-800 dark:text-slate-100">Create a service first to upload images</p>
          )}
          <div className="mt-4 grid gap-6 md:grid-cols-2">
            <MediaUploadForm
              imageType="before"
              label="Before Image/Video"
              action={uploadAction}
              disabled={!currentService}
            />
            <MediaUploadForm
              imageType="after"
              label="After Image/Video"
              action={uploadAction}
              disabled={!currentService}
            />
          </div>
          {media.length > 0 ? (
            <div className="mt-8">
              <h3 className="text-xl font-semibold text-slate-900 dark:text-white">Uploaded for this service</h3>
              <ul className="mt-3 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
                {media.map((m) => (
                  <li key={m.id}>
                    <MediaView item={m} />
                    <p className="mt-1 text-sm capitalize text-slate-700 dark:text-slate-300">{m.imageType}</p>
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
        </section>
      )}
    </>
  );
}

export const meta: MetaFunction<typeof loader, { root: typeof rootLoader }> = ({ matches }) => {
  const site = matches.find((m) => m.id === "root")?.data?.shell.businessName;
  return [
    { title: site ? `Admin Dashboard | ${site}` : "Admin Dashboard" },
    { name: "description", content: "Create services and upload before and after photos and videos." },
    { name: "robots", content: "noindex" },
  ];
};

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
