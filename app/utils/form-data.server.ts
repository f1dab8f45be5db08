/**
 * The request's form fields; a body that is not a form (wrong type, broken multipart, JSON)
 * is the client's mistake: 400, never a 500.
 */
export async function readFormData(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    throw new Response("The request body must be a form.", { status: 400, headers: { "Content-Type": "text/plain" } });
  }
}
