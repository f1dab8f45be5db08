import type { FieldMetadata } from "@conform-to/react";
import { Form, useFetcher } from "@remix-run/react";
import { useEffect, useId, useRef, useState, useSyncExternalStore, type KeyboardEvent } from "react";
import { CUSTOMER_QUERY_MAX_LENGTH, type CustomerOption } from "./customer-options";
import { cx, Field, SelectField } from "~/components/forms";
import { hintClass, outlineButtonClass } from "~/components/ui-classes";

/** The GET form of the search without JavaScript; its inputs sit inside the Create Service form. */
export const CUSTOMER_SEARCH_FORM_ID = "customer-search";
/** The URL parameter of that search (kept apart from the Customers list's `q`). */
export const CUSTOMER_SEARCH_PARAM = "customerSearch";

const noSubscribe = () => () => {};
/** False while the server's HTML is hydrated, true once React runs in the browser. */
function useHydrated() {
  return useSyncExternalStore(
    noSubscribe,
    () => true,
    () => false,
  );
}

type PickerProps = {
  field: FieldMetadata<string>;
  /** The customer chosen in the URL (or the one of the current visit), shown first. */
  selected: CustomerOption | null;
  /** The matches of the search without JavaScript; null when nothing was searched. */
  matches: CustomerOption[] | null;
  query: string;
};

/**
 * The Create Service customer picker: never a list of every customer (docs/decisions/064).
 * Without JavaScript: a search box (a GET form) and a select of its matches, at most 20. With
 * JavaScript: an ARIA 1.2 combobox (editable, list autocomplete) that fetches matches from
 * /resources/customer-search as the admin types; the chosen id travels in a hidden input. Both
 * are the forms kit's fields, so the picker shows its error as every other field does.
 */
export function CustomerPicker(props: PickerProps) {
  return useHydrated() ? <CustomerCombobox {...props} /> : <CustomerSearchSelect {...props} />;
}

/** The search form of the no-JavaScript picker: rendered outside the Create Service form (forms cannot nest). */
export function CustomerSearchForm({ visitId }: { visitId?: string | null }) {
  return (
    <Form id={CUSTOMER_SEARCH_FORM_ID} method="get" action="/admin-dashboard" hidden>
      <input type="hidden" name="tab" value="create" />
      {visitId ? <input type="hidden" name="service" value={visitId} /> : null}
    </Form>
  );
}

function CustomerSearchSelect({ field, selected, matches, query }: PickerProps) {
  const options = [...(selected ? [selected] : []), ...(matches ?? []).filter((m) => m.id !== selected?.id)];
  const prompt =
    matches === null
      ? selected
        ? "Select a customer"
        : "Search for a customer first"
      : matches.length === 0
        ? `No customers match "${query}"`
        : "Select a customer";
  return (
    <div className="space-y-3">
      <div>
        <Field
          label="Find a customer"
          description="Part of a name or e-mail address; up to 20 matches are listed."
          inputProps={{
            id: "customer-search-input",
            type: "search",
            name: CUSTOMER_SEARCH_PARAM,
            form: CUSTOMER_SEARCH_FORM_ID,
            defaultValue: query,
            maxLength: CUSTOMER_QUERY_MAX_LENGTH,
          }}
        />
        <button type="submit" form={CUSTOMER_SEARCH_FORM_ID} className={cx(outlineButtonClass, "mt-2")}>
          Search customers
        </button>
      </div>
      <SelectField key={field.key} field={field} label="Customer">
        <option value="">{prompt}</option>
        {options.map((c) => (
          <option key={c.id} value={c.id}>
            {c.label}
          </option>
        ))}
      </SelectField>
    </div>
  );
}

type SearchData = { customers: CustomerOption[]; error: string | null };

function CustomerCombobox({ field, selected }: PickerProps) {
  const baseId = useId();
  const listboxId = `${baseId}-listbox`;
  const statusId = `${baseId}-status`;
  const fetcher = useFetcher<SearchData>();
  const [chosen, setChosen] = useState<CustomerOption | null>(selected);
  const [text, setText] = useState(selected?.label ?? "");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const { load } = fetcher;

  // A new current visit (or customer in the URL) replaces what was chosen here.
  const selectedId = selected?.id;
  const selectedLabel = selected?.label;
  useEffect(() => {
    setChosen(selectedId && selectedLabel ? { id: selectedId, label: selectedLabel } : null);
    setText(selectedLabel ?? "");
  }, [selectedId, selectedLabel]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const typed = text.trim();
  const results = fetcher.data?.customers ?? [];
  const showing = open && typed.length > 0;
  const searching = fetcher.state !== "idle";

  function search(value: string) {
    clearTimeout(timer.current);
    const q = value.trim();
    if (!q) return;
    // Wait for a pause in typing: one request per word, not one per key.
    timer.current = setTimeout(() => load(`/resources/customer-search?${new URLSearchParams({ q })}`), 200);
  }

  function choose(option: CustomerOption) {
    setChosen(option);
    setText(option.label);
    setOpen(false);
    setActive(-1);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      if (!showing) {
        setOpen(true);
        if (typed) search(text);
        return;
      }
      if (results.length === 0) return;
      const step = event.key === "ArrowDown" ? 1 : -1;
      setActive((i) => (i + step + results.length) % results.length);
    } else if (event.key === "Enter" && showing && active >= 0 && results[active]) {
      // Enter picks the highlighted customer instead of submitting the form.
      event.preventDefault();
      choose(results[active]);
    } else if (event.key === "Escape") {
      if (showing) {
        event.preventDefault();
        setOpen(false);
        setActive(-1);
      } else if (text) {
        event.preventDefault();
        setText("");
        setChosen(null);
      }
    }
  }

  const status = !showing
    ? ""
    : searching && results.length === 0
      ? "Searching…"
      : fetcher.data?.error
        ? fetcher.data.error
        : results.length === 0
          ? `No customers match "${typed}"`
          : `${results.length} customer${results.length === 1 ? "" : "s"} found`;

  return (
    <Field
      label="Customer"
      className="relative"
      errors={field.errors}
      describedBy={statusId}
      inputProps={{
        id: field.id,
        type: "text",
        role: "combobox",
        "aria-autocomplete": "list",
        "aria-expanded": showing && results.length > 0,
        "aria-controls": listboxId,
        "aria-activedescendant": showing && active >= 0 ? `${listboxId}-${active}` : undefined,
        autoComplete: "off",
        spellCheck: false,
        placeholder: "Type a name or e-mail address",
        maxLength: CUSTOMER_QUERY_MAX_LENGTH,
        value: text,
        onChange: (event) => {
          setText(event.target.value);
          // What is typed no longer names the chosen customer: nothing is chosen until one is picked.
          if (chosen && event.target.value !== chosen.label) setChosen(null);
          setOpen(true);
          setActive(-1);
          search(event.target.value);
        },
        onKeyDown,
        onBlur: () => setOpen(false),
      }}
    >
      {/* Placed where it stands in the flow (right under the input), over what follows. */}
      <ul
        id={listboxId}
        role="listbox"
        aria-label="Matching customers"
        hidden={!(showing && results.length > 0)}
        className="absolute z-10 mt-1 max-h-72 w-full overflow-y-auto rounded-lg border border-slate-400 bg-white py-1 shadow-lg dark:border-slate-500 dark:bg-slate-900"
      >
        {results.map((option, i) => (
          // Keys go to the combobox input, which points at the active option (aria-activedescendant).
          // eslint-disable-next-line jsx-a11y/click-events-have-key-events
          <li
            key={option.id}
            id={`${listboxId}-${i}`}
            role="option"
            aria-selected={i === active}
            // Keep the focus in the input, so that the pick does not blur and close the list first.
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => choose(option)}
            className={`cursor-pointer break-all px-3 py-2 text-slate-900 dark:text-slate-100 ${
              i === active ? "bg-brand-100 dark:bg-brand-900" : "hover:bg-slate-100 dark:hover:bg-slate-800"
            }`}
          >
            {option.label}
          </li>
        ))}
      </ul>
      <p id={statusId} aria-live="polite" className={hintClass}>
        {status}
      </p>
      <input type="hidden" name={field.name} value={chosen?.id ?? ""} />
    </Field>
  );
}
