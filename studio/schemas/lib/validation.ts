import type {CustomValidator} from 'sanity'

/** Lower-case words joined by single hyphens: safe in URLs and form values. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/

/** US phone number as visitors read it, e.g. (775) 555-0142. */
export const PHONE_PATTERN = /^\(\d{3}\) \d{3}-\d{4}$/

/** 24-hour clock, e.g. 08:00 or 17:30. */
export const TIME_PATTERN = /^(?:[01]\d|2[0-3]):[0-5]\d$/

export const ZIP_PATTERN = /^\d{5}$/

/**
 * Sanity only checks slugs for uniqueness out of the box; this does the same for a plain
 * string field (e.g. a form value), ignoring the document's own draft and published copies.
 */
export function uniqueStringInType(field: string): CustomValidator<string | undefined> {
  return async (value, context) => {
    if (!value || !context.document) return true
    const id = context.document._id.replace(/^drafts\./, '')
    const client = context.getClient({apiVersion: '2025-02-19'})
    const clash = await client.fetch<number>(
      `count(*[_type == $type && ${field} == $value && !(_id in [$id, $draftId])])`,
      {type: context.document._type, value, id, draftId: `drafts.${id}`},
    )
    return clash === 0 ? true : `"${value}" is already used by another document of this type`
  }
}

/** Rejects duplicate strings inside one array field. */
export const noDuplicateStrings: CustomValidator<string[] | undefined> = (values) => {
  if (!values) return true
  const seen = new Set<string>()
  for (const value of values) {
    if (seen.has(value)) return `"${value}" is listed twice`
    seen.add(value)
  }
  return true
}
