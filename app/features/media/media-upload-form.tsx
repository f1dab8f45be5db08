import { useNavigate } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { cx, Field } from "~/components/forms";
import { toast } from "~/components/toaster";
import { labelClass, primaryButtonClass } from "~/components/ui-classes";
import { MAX_UPLOAD_BYTES } from "~/utils/upload-limit";

export const UPLOAD_HINT = "Supports images and videos (max 50MB)";

type Preview = { url: string; kind: "image" | "video"; name: string };

/**
 * One file input ("Before Image/Video" or "After Image/Video") in its own multipart form.
 * Without JavaScript the form simply posts. With it, the chosen file is previewed, a file over
 * the limit is refused at once, and the same form data is sent with XMLHttpRequest so that an
 * upload progress bar can be shown; the server's toast then appears through a revalidation.
 */
export function MediaUploadForm({
  imageType,
  label,
  action,
  disabled,
  camera = false,
}: {
  imageType: "before" | "after";
  label: string;
  action: string;
  disabled: boolean;
  /**
   * Adds "Take photo", a second input of the same name that opens the phone's back camera. The
   * server stores the first file of the request, and an empty input sends no file, so either one
   * works without JavaScript; with it, choosing in one clears the other.
   */
  camera?: boolean;
}) {
  const navigate = useNavigate();
  const [preview, setPreview] = useState<Preview | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const previewUrl = useRef<string | null>(null);

  const replacePreview = (next: Preview | null) => {
    if (previewUrl.current) URL.revokeObjectURL(previewUrl.current);
    previewUrl.current = next?.url ?? null;
    setPreview(next);
  };
  useEffect(
    () => () => {
      if (previewUrl.current) URL.revokeObjectURL(previewUrl.current);
    },
    [],
  );

  function onFileChange(event: React.ChangeEvent<HTMLInputElement>) {
    const input = event.currentTarget;
    for (const other of input.form?.querySelectorAll<HTMLInputElement>(`input[type=file][name=${imageType}]`) ?? []) {
      if (other !== input) other.value = "";
    }
    const file = event.currentTarget.files?.[0];
    if (!file) return replacePreview(null);
    if (file.size > MAX_UPLOAD_BYTES) {
      toast.error("File Too Large", { description: "Maximum file size is 50MB" });
      event.currentTarget.value = "";
      return replacePreview(null);
    }
    const kind = file.type.startsWith("video/") ? "video" : "image";
    replacePreview({ url: URL.createObjectURL(file), kind, name: file.name });
  }

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const inputs = [...form.querySelectorAll<HTMLInputElement>("input[type=file]")];
    if (!inputs.some((input) => input.files?.length)) {
      // Neither chosen (the pair cannot be `required`): the browser's own "select a file" prompt.
      const wasRequired = inputs[0].required;
      inputs[0].required = true;
      form.reportValidity();
      inputs[0].required = wasRequired;
      return;
    }
    const request = new XMLHttpRequest();
    request.open("POST", form.action);
    // Tells the action to answer with JSON instead of a redirect that XHR would follow.
    request.setRequestHeader("X-Requested-With", "XMLHttpRequest");
    request.responseType = "json";
    request.upload.addEventListener("progress", (e) => {
      if (e.lengthComputable) setProgress(Math.round((e.loaded / e.total) * 100));
    });
    const finish = () => {
      setProgress(null);
      form.reset();
      replacePreview(null);
    };
    request.addEventListener("load", () => {
      finish();
      const body: unknown = request.response;
      const redirectTo =
        body && typeof body === "object" && "redirectTo" in body && typeof body.redirectTo === "string"
          ? body.redirectTo
          : null;
      if (!redirectTo) toast.error("Upload Failed", { description: "Failed to upload file" });
      // Loading the page again shows the toast the server set and the new media.
      navigate(redirectTo ?? `${window.location.pathname}${window.location.search}`, { replace: true });
    });
    request.addEventListener("error", () => {
      finish();
      toast.error("Upload Failed", { description: "Failed to upload file" });
    });
    setProgress(0);
    request.send(new FormData(form));
  }

  const uploading = progress !== null;
  return (
    <form
      method="post"
      encType="multipart/form-data"
      action={action}
      onSubmit={onSubmit}
      className="rounded-xl border border-slate-300 p-5 dark:border-slate-600"
    >
      <Field
        label={label}
        labelProps={{ className: cx(labelClass, "text-lg") }}
        description={UPLOAD_HINT}
        inputProps={{
          id: `${imageType}-file`,
          type: "file",
          name: imageType,
          accept: "image/*,video/*",
          // With "Take photo" either input may carry the file (the server says when neither did).
          required: !camera,
          disabled: disabled || uploading,
          onChange: onFileChange,
        }}
      />
      {camera ? (
        <Field
          label={
            <>
              Take photo<span className="sr-only">{` (${imageType})`}</span>
            </>
          }
          className="mt-3"
          inputProps={{
            id: `${imageType}-camera`,
            type: "file",
            name: imageType,
            accept: "image/*",
            capture: "environment",
            disabled: disabled || uploading,
            onChange: onFileChange,
          }}
        />
      ) : null}
      {preview ? (
        <figure className="mt-4">
          {preview.kind === "video" ? (
            <video
              src={preview.url}
              controls
              muted
              className="max-h-64 w-full rounded-lg bg-slate-900"
              aria-label={`Preview of ${preview.name}`}
            />
          ) : (
            <img
              src={preview.url}
              alt={`Preview of ${preview.name}`}
              className="max-h-64 w-full rounded-lg object-contain"
            />
          )}
          <figcaption className="mt-1 text-sm text-slate-700 dark:text-slate-300">Preview: {preview.name}</figcaption>
        </figure>
      ) : null}
      {uploading ? (
        <div className="mt-4">
          <label htmlFor={`${imageType}-progress`} className="text-sm font-medium text-slate-800 dark:text-slate-100">
            Uploading… {progress}%
          </label>
          <progress
            id={`${imageType}-progress`}
            max={100}
            value={progress}
            className="mt-1 block h-3 w-full accent-brand-700"
          >
            {progress}%
          </progress>
        </div>
      ) : null}
      <button type="submit" disabled={disabled || uploading} className={cx(primaryButtonClass, "mt-4")}>
        {uploading ? "Uploading…" : `Upload ${imageType === "before" ? "Before" : "After"}`}
      </button>
    </form>
  );
}
