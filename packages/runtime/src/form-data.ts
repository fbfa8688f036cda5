/**
 * Serializes a form body for a multipart request: Blobs (and Files) become file parts, other values text fields.
 * Undefined and null fields are left out.
 */
export function toFormData(body: unknown): FormData {
  const form = new FormData();
  const fields: Array<[string, unknown]> = Object.entries(body ?? {});
  for (const [name, value] of fields) {
    if (value === undefined || value === null) continue;
    if (value instanceof Blob) form.append(name, value, value instanceof File ? value.name : name);
    else form.append(name, typeof value === 'string' ? value : JSON.stringify(value));
  }
  return form;
}
