// The portal's form styles, shared by the admin's forms so that they look and behave alike.
export const fieldClass =
  "mt-1 block w-full rounded-lg border border-slate-400 bg-white px-3 py-2 text-base text-slate-900 aria-[invalid=true]:border-red-700 dark:border-slate-500 dark:bg-slate-900 dark:text-slate-100 dark:aria-[invalid=true]:border-red-400";
export const labelClass = "block font-semibold text-slate-900 dark:text-white";
export const errorClass = "mt-1 text-sm font-medium text-red-800 dark:text-red-300";
export const primaryButtonClass =
  "inline-flex min-h-11 items-center rounded-full bg-brand-700 px-6 py-2 font-semibold text-white hover:bg-brand-800 disabled:cursor-wait disabled:opacity-70 dark:bg-brand-500 dark:text-brand-950 dark:hover:bg-brand-400";
