import type { Route } from "./+types/api.not-found";

function notFound({ request, url, context }: Route.LoaderArgs | Route.ActionArgs) {
  context.logger.warn({ path: url.pathname, method: request.method }, "api path not found");
  return Response.json({ error: "Not found" }, { status: 404 });
}

export function loader(args: Route.LoaderArgs) {
  return notFound(args);
}

export function action(args: Route.ActionArgs) {
  return notFound(args);
}
