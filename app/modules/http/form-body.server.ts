/**
 * The submitted form of an action. A body that is not a form (the request guard lets only form encodings
 * through, but an empty or broken one still fails to parse) is the client's mistake: 400, not a server error.
 */
export async function readFormData(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    throw new Response("The form could not be read", { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
}
